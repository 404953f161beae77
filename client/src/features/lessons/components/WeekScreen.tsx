import { Alert, Button, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { PRODUCT_NAME } from '../../../shared/ui/BrandMark';
import { actionErrorText } from '../../../shared/ui/action-error';
import type { Lesson } from '../api';
import { addDaysTo } from '../week-layout';
import { WeekView } from './WeekView';

export const lessonTitle = (l: Lesson) => l.programme_title ?? 'Lesson';

/** A week of lessons with its navigation, loading, error and empty states (my-lessons, timetable). */
export function WeekScreen({
  title,
  description,
  weekStart,
  onWeek,
  timezone,
  query,
  lessonsOf,
  empty,
  extra,
}: {
  title: string;
  description?: ReactNode;
  weekStart: string;
  onWeek: (monday: string | null) => void;
  timezone: string;
  query: UseQueryResult<unknown, Error>;
  lessonsOf: () => Lesson[] | undefined;
  empty: string;
  extra?: ReactNode;
}) {
  const lessons = lessonsOf();
  return (
    <Stack gap="md">
      <WeekHeader
        title={title}
        description={description}
        weekStart={weekStart}
        onWeek={onWeek}
        timezone={timezone}
      />
      {extra}
      {query.isError ? (
        <Alert color="red" role="alert" title="Could not load the week">
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{actionErrorText(query.error)}</Text>
            <Button size="xs" variant="light" onClick={() => void query.refetch()}>
              Retry
            </Button>
          </Stack>
        </Alert>
      ) : !lessons ? (
        <Skeleton height={420} radius="md" aria-label="Loading lessons" />
      ) : (
        <>
          {lessons.length === 0 && (
            <Text c="dimmed" size="sm">
              {empty}
            </Text>
          )}
          <WeekView
            weekStart={weekStart}
            timezone={timezone}
            label={`Lessons, week of ${weekStart}`}
            items={lessons.map((l) => ({
              id: l.id,
              startsAt: l.starts_at,
              endsAt: l.ends_at,
              title: lessonTitle(l),
              subtitle: [
                l.group_name,
                l.cover_teacher_name ? `cover: ${l.cover_teacher_name}` : l.teacher_name,
              ]
                .filter(Boolean)
                .join(' · '),
              status: l.status,
              href: `/lessons/${l.id}`,
            }))}
          />
        </>
      )}
    </Stack>
  );
}

/** A week screen's title, its week navigation (previous, this week, next) and the week it shows. */
export function WeekHeader({
  title,
  description,
  weekStart,
  onWeek,
  timezone,
}: {
  title: string;
  description?: ReactNode;
  weekStart: string;
  onWeek: (monday: string | null) => void;
  timezone: string;
}) {
  const sunday = addDaysTo(weekStart, 6);
  return (
    <>
      <title>{`${title} · ${PRODUCT_NAME}`}</title>
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={1} fz="h2">
            {title}
          </Title>
          {description && (
            <Text c="dimmed" size="sm">
              {description}
            </Text>
          )}
        </div>
        <Group gap="xs" role="group" aria-label="Week">
          <Button
            variant="default"
            onClick={() => onWeek(addDaysTo(weekStart, -7))}
            aria-label="Previous week"
          >
            ←
          </Button>
          <Button variant="default" onClick={() => onWeek(null)}>
            This week
          </Button>
          <Button variant="default" onClick={() => onWeek(addDaysTo(weekStart, 7))} aria-label="Next week">
            →
          </Button>
        </Group>
      </Group>
      <Text size="sm" aria-live="polite">
        Week of {weekStart.split('-').reverse().join('.')} – {sunday.split('-').reverse().join('.')}, times in{' '}
        {timezone}
      </Text>
    </>
  );
}
