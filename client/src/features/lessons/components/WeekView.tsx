import { Anchor, Badge, Box, Group, Paper, Text, VisuallyHidden } from '@mantine/core';
import { formatInTimeZone } from 'date-fns-tz';
import { Link } from 'react-router-dom';
import { AXIS_END, AXIS_START, addDaysTo, placeWeek, type WeekItem } from '../week-layout';

export interface WeekViewItem extends WeekItem {
  title: string;
  subtitle?: string;
  href?: string;
  status?: string;
}

const PX_PER_MINUTE = 0.8;
const HOURS = Array.from({ length: (AXIS_END - AXIS_START) / 60 + 1 }, (_, i) => AXIS_START / 60 + i);
const DAY_NAMES = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

/**
 * A week, Monday to Sunday, on a 07:00–21:00 axis in the viewer's zone (one component for my-lessons
 * and timetables). Items outside the axis are pinned to its edge and say so; every item is a link, in
 * reading order (day, then time), so the keyboard and screen readers go through the week in order.
 */
export function WeekView({
  weekStart,
  timezone,
  items,
  label,
}: {
  weekStart: string;
  timezone: string;
  items: WeekViewItem[];
  label: string;
}) {
  const placed = placeWeek(items, weekStart, timezone);
  const height = (AXIS_END - AXIS_START) * PX_PER_MINUTE;
  return (
    <Paper withBorder radius="md" p="sm" role="region" aria-label={label} style={{ overflowX: 'auto' }}>
      <Box
        style={{ display: 'grid', gridTemplateColumns: '3.5rem repeat(7, minmax(7rem, 1fr))', minWidth: 780 }}
      >
        <div />
        {DAY_NAMES.map((name, day) => {
          const date = addDaysTo(weekStart, day);
          return (
            <Text key={name} ta="center" fw={600} size="sm" pb={4}>
              {name} {formatInTimeZone(new Date(`${date}T12:00:00Z`), 'UTC', 'dd.MM')}
            </Text>
          );
        })}
        <Box style={{ position: 'relative', height }} aria-hidden>
          {HOURS.map((h) => (
            <Text
              key={h}
              size="xs"
              c="dimmed"
              style={{ position: 'absolute', top: (h * 60 - AXIS_START) * PX_PER_MINUTE - 7, right: 6 }}
            >
              {String(h).padStart(2, '0')}:00
            </Text>
          ))}
        </Box>
        {DAY_NAMES.map((name, day) => (
          <Box
            key={name}
            style={{
              position: 'relative',
              height,
              borderLeft: '1px solid var(--mantine-color-gray-3)',
              backgroundImage: `repeating-linear-gradient(to bottom, var(--mantine-color-gray-2) 0 1px, transparent 1px ${60 * PX_PER_MINUTE}px)`,
            }}
          >
            {placed
              .filter((p) => p.day === day)
              .map((p) => {
                const when = `${name} ${p.start}–${p.end}`;
                const pinned = p.pinnedStart || p.pinnedEnd;
                const body = (
                  <>
                    <Group gap={4} wrap="nowrap">
                      <Text size="xs" fw={600}>
                        {p.pinnedStart ? '↑ ' : ''}
                        {p.start}–{p.end}
                        {p.pinnedEnd && !p.pinnedStart ? ' ↓' : ''}
                      </Text>
                      {p.item.status && p.item.status !== 'planned' && (
                        <Badge size="xs" variant="light">
                          {p.item.status.replace('_', ' ')}
                        </Badge>
                      )}
                    </Group>
                    <Text size="xs" lineClamp={2}>
                      {p.item.title}
                    </Text>
                    {p.item.subtitle && (
                      <Text size="xs" c="dimmed" lineClamp={1}>
                        {p.item.subtitle}
                      </Text>
                    )}
                    {pinned && <VisuallyHidden>(outside 07:00–21:00, shown at the edge)</VisuallyHidden>}
                  </>
                );
                const style = {
                  position: 'absolute' as const,
                  top: p.top * PX_PER_MINUTE,
                  height: Math.max(p.height * PX_PER_MINUTE, 18),
                  left: 3,
                  right: 3,
                  overflow: 'hidden',
                  padding: '2px 4px',
                  borderRadius: 4,
                  background: 'var(--mantine-color-blue-0)',
                  borderLeft: `3px solid var(--mantine-color-${pinned ? 'orange' : 'blue'}-6)`,
                  display: 'block',
                };
                return p.item.href ? (
                  <Anchor
                    key={p.item.id}
                    component={Link}
                    to={p.item.href}
                    underline="never"
                    c="inherit"
                    style={style}
                    aria-label={`${p.item.title}, ${when}${pinned ? ', outside the working day' : ''}`}
                    data-testid="week-item"
                  >
                    {body}
                  </Anchor>
                ) : (
                  <Box key={p.item.id} style={style} data-testid="week-item">
                    {body}
                  </Box>
                );
              })}
          </Box>
        ))}
      </Box>
    </Paper>
  );
}
