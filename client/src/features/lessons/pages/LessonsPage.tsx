import { Badge, Group, SegmentedControl, Select, Text } from '@mantine/core';
import { useState } from 'react';
import { DATE_TIME_FORMAT, formatInZone, viewerTimezone } from '../../../shared/dates';
import { useSession } from '../../../shared/session';
import { ResourceListPage } from '../../../shared/ui/ResourceListPage';
import { lessons, type Lesson } from '../api';

const STATUSES = ['planned', 'delivered', 'not_delivered', 'cancelled', 'unscheduled'] as const;
const STATUS_LABELS: Record<string, string> = {
  planned: 'Planned',
  delivered: 'Delivered',
  not_delivered: 'Not delivered',
  cancelled: 'Cancelled',
  unscheduled: 'Unscheduled',
};
/** A lesson's status in words (issue 18 item 10: no raw constants on screen). */
export const statusLabel = (s: string) => STATUS_LABELS[s] ?? s;
export const statusColor = (s: string) =>
  ({ planned: 'blue', delivered: 'green', not_delivered: 'orange', cancelled: 'red', unscheduled: 'gray' })[
    s
  ] ?? 'gray';

/** lessons: every lesson the user may see, upcoming first (or past, latest first), filtered by status. */
export function LessonsPage() {
  const timezone = viewerTimezone(useSession((s) => s.user));
  const [when, setWhen] = useState<'upcoming' | 'past'>('upcoming');
  const [status, setStatus] = useState<string | null>(null);
  // Fixed when the page opens, so the list's cache key does not change on every render.
  const [now] = useState(() => new Date().toISOString());
  const filters = {
    ...(when === 'upcoming' ? { from: now } : { to: now }),
    ...(status ? { status } : {}),
  };
  return (
    <ResourceListPage<Lesson, typeof filters>
      title="Lessons"
      description="Lessons of every programme you may see, in your time zone."
      noun="lessons"
      filters={filters}
      toolbar={
        <Group>
          <SegmentedControl
            aria-label="Upcoming or past lessons"
            value={when}
            onChange={(v) => setWhen(v)}
            data={[
              { value: 'upcoming', label: 'Upcoming' },
              { value: 'past', label: 'Past' },
            ]}
          />
          <Select
            aria-label="Status"
            placeholder="Any status"
            clearable
            value={status}
            onChange={setStatus}
            data={STATUSES.map((s) => ({ value: s, label: statusLabel(s) }))}
          />
        </Group>
      }
      useList={lessons.useList}
      rowHref={(l) => `/lessons/${l.id}`}
      rowLabel={(l) => `${l.programme_title ?? 'Lesson'}, ${formatInZone(l.starts_at, timezone)}`}
      empty={{ none: 'No lessons here.', search: 'No lesson matches.' }}
      columns={[
        {
          accessor: 'starts_at',
          title: 'When',
          render: (l) => formatInZone(l.starts_at, timezone, DATE_TIME_FORMAT),
        },
        {
          accessor: 'programme_title',
          title: 'Programme',
          render: (l) => (
            <Text size="sm" fw={500}>
              {l.programme_title ?? '—'}
            </Text>
          ),
        },
        { accessor: 'group_name', title: 'Group', render: (l) => l.group_name ?? '—' },
        {
          accessor: 'teacher_name',
          title: 'Teacher',
          render: (l) => (l.cover_teacher_name ? `${l.cover_teacher_name} (cover)` : (l.teacher_name ?? '—')),
        },
        {
          accessor: 'status',
          title: 'Status',
          render: (l) => (
            <Badge variant="light" color={statusColor(l.status)}>
              {statusLabel(l.status)}
            </Badge>
          ),
        },
      ]}
    />
  );
}

export default LessonsPage;
