import { Alert, Anchor, List, Paper, Stack, Text } from '@mantine/core';
import { Link } from 'react-router-dom';
import { DATE_TIME_FORMAT, formatInZone } from '../../../shared/dates';
import type { ReactNode } from 'react';
import type { Schedule } from '../api';

const DAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

/** "Mon, Thu at 09:30 for 60 min, every week". */
export function ruleInWords(
  s: Pick<Schedule, 'weekdays' | 'local_start' | 'duration_minutes' | 'interval_weeks'>,
) {
  const days = [...s.weekdays]
    .sort()
    .map((d) => DAYS[d - 1])
    .join(', ');
  const every = s.interval_weeks === 1 ? 'every week' : `every ${s.interval_weeks} weeks`;
  return `${days} at ${s.local_start} for ${s.duration_minutes} min, ${every}`;
}

/** One schedule: its rule in words, group, teacher, counts, next lessons and the clashes it skipped. */
export function ScheduleCard({
  schedule: s,
  timezone,
  title,
}: {
  schedule: Schedule;
  timezone: string;
  title?: ReactNode;
}) {
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-label={ruleInWords(s)}>
      <Stack gap={6}>
        {title ?? <Text fw={600}>{ruleInWords(s)}</Text>}
        <Text size="sm">
          {s.group_name ?? 'Group'} · {s.teacher_name ?? 'Teacher'} · {s.timezone} · from {s.valid_from}
          {s.valid_until ? ` until ${s.valid_until}` : ''}
        </Text>
        <Text size="sm" c="dimmed">
          {s.counts.planned} planned, {s.counts.delivered} delivered, {s.counts.cancelled} cancelled,{' '}
          {s.counts.unscheduled} unscheduled, {s.counts.detached} edited on their own
        </Text>
        {s.next_occurrences.length > 0 && (
          <div>
            <Text size="sm" fw={500}>
              Next lessons (your time)
            </Text>
            <List size="sm">
              {s.next_occurrences.map((o) => (
                <List.Item key={o.lesson_id}>
                  {formatInZone(o.starts_at, timezone, DATE_TIME_FORMAT)}
                </List.Item>
              ))}
            </List>
          </div>
        )}
        {s.conflicts.length > 0 && (
          <Alert color="orange" title={`${s.conflicts.length} occurrence(s) not planned: they clash`}>
            <List size="sm">
              {s.conflicts.map((c) => (
                <List.Item key={`${c.local_date}-${c.local_start}`}>
                  {c.local_date} {c.local_start}: the {c.reason} already has{' '}
                  <Anchor component={Link} to={`/lessons/${c.lesson_id}`}>
                    another lesson
                  </Anchor>
                </List.Item>
              ))}
            </List>
          </Alert>
        )}
      </Stack>
    </Paper>
  );
}
