import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Group,
  Select,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Navigate, useNavigate, useParams } from 'react-router-dom';
import { PARTNER } from '@portal/projections/permissions';
import { has } from '../../../app/access';
import { downloadFile } from '../../../shared/api/download';
import { DATE_FORMAT, formatInZone, viewerTimezone, wallClockToIso } from '../../../shared/dates';
import { notifyError } from '../../../shared/notify';
import { usePermissions, useSession } from '../../../shared/session';
import { actionErrorText } from '../../../shared/ui/action-error';
import { ScreenSkeleton } from '../../../shared/ui/ScreenSkeleton';
import { PRODUCT_NAME } from '../../../shared/ui/BrandMark';
import { describeEntry, MARK_COLORS } from '../../attendance/api';
import { addDaysTo } from '../../lessons/week-layout';
import {
  attendancePercent,
  CONTACT_ROLES,
  useChildAttendance,
  useChildOverview,
  useChildren,
  useRecentMarks,
  type ChildOverview,
} from '../api';

type Lesson = ChildOverview['lessons'][number];

/** A day as people read it: "25.11.2026" (spec §9). */
const day = (date: string) => date.split('-').reverse().join('.');

function Section({
  title,
  query,
  children,
}: {
  title: string;
  query: Pick<UseQueryResult, 'isError' | 'error' | 'refetch' | 'isPending'>;
  children: ReactNode;
}) {
  return (
    <Card withBorder radius="lg" padding="lg" shadow="xs" component="section" aria-label={title}>
      <Title order={2} fz="h4" mb="sm">
        {title}
      </Title>
      {query.isError ? (
        <Alert color="red" role="alert" p="xs">
          <Group justify="space-between" wrap="nowrap">
            <Text size="sm">{actionErrorText(query.error)}</Text>
            <Button size="compact-xs" variant="light" onClick={() => void query.refetch()}>
              Retry
            </Button>
          </Group>
        </Alert>
      ) : query.isPending ? (
        <Skeleton height={56} radius="sm" aria-label={`Loading ${title.toLowerCase()}`} />
      ) : (
        children
      )}
    </Card>
  );
}

function LessonLine({ lesson, timezone }: { lesson: Lesson; timezone: string }) {
  const cancelled = lesson.status === 'cancelled';
  return (
    <Group gap="xs" wrap="nowrap" align="flex-start">
      <Badge variant="light" radius="sm" color={cancelled ? 'gray' : undefined} style={{ flexShrink: 0 }}>
        {formatInZone(lesson.starts_at, timezone, 'HH:mm')}–{formatInZone(lesson.ends_at, timezone, 'HH:mm')}
      </Badge>
      <div>
        <Text size="sm" td={cancelled ? 'line-through' : undefined}>
          {lesson.programme_title ?? 'Lesson'}
          {lesson.group_name ? ` · ${lesson.group_name}` : ''}
        </Text>
        <Text size="xs" c="dimmed">
          {lesson.cover_teacher_name
            ? `Covered by ${lesson.cover_teacher_name}`
            : lesson.teacher_name
              ? `With ${lesson.teacher_name}`
              : ''}
          {cancelled ? ` · Cancelled${lesson.cancellation ? `: ${lesson.cancellation.reason}` : ''}` : ''}
        </Text>
      </div>
    </Group>
  );
}

/** One week of the child's lessons, by day in the viewer's time zone. */
function WeekLessons({
  label,
  lessons,
  timezone,
}: {
  label: string;
  lessons: readonly Lesson[];
  timezone: string;
}) {
  const days = new Map<string, Lesson[]>();
  for (const l of lessons) {
    const key = formatInZone(l.starts_at, timezone, 'yyyy-MM-dd');
    days.set(key, [...(days.get(key) ?? []), l]);
  }
  return (
    <div>
      <Text fw={600} size="sm" mb={6}>
        {label}
      </Text>
      {days.size === 0 ? (
        <Text size="sm" c="dimmed">
          No lessons.
        </Text>
      ) : (
        <Stack gap="sm">
          {[...days.entries()].map(([date, items]) => (
            <div key={date}>
              <Text size="xs" c="dimmed" tt="uppercase" fw={600} mb={4}>
                {formatInZone(items[0]!.starts_at, timezone, 'EEEE')} {day(date)}
              </Text>
              <Stack gap={6}>
                {items.map((l) => (
                  <LessonLine key={l.id} lesson={l} timezone={timezone} />
                ))}
              </Stack>
            </div>
          ))}
        </Stack>
      )}
    </div>
  );
}

function AttendanceSection({ overview, timezone }: { overview: ChildOverview; timezone: string }) {
  const period = overview.half_term ?? {
    name: 'the last six weeks',
    from: addDaysTo(overview.today, -42),
    to: overview.today,
  };
  const from = wallClockToIso(`${period.from} 00:00:00`, timezone);
  const to = wallClockToIso(`${addDaysTo(period.to, 1)} 00:00:00`, timezone);
  const summary = useChildAttendance(overview.student.id, from, to, true);
  const marks = useRecentMarks(overview.student.id, true);
  const percent = summary.data ? attendancePercent(summary.data.items) : null;
  return (
    <Section title="Attendance" query={summary}>
      <Stack gap="sm">
        <div>
          <Text fz={28} fw={700} lh={1.1}>
            {percent === null ? '–' : `${percent.toLocaleString('en-GB')} %`}
          </Text>
          <Text size="xs" c="dimmed">
            {percent === null ? 'No marks yet' : 'attended'} in {period.name} ({day(period.from)} to{' '}
            {day(period.to)})
          </Text>
        </div>
        <Text fw={600} size="sm">
          Recent marks
        </Text>
        {marks.isError ? (
          <Text size="sm" c="red.8">
            {actionErrorText(marks.error)}
          </Text>
        ) : marks.isPending ? (
          <Skeleton height={40} aria-label="Loading recent marks" />
        ) : marks.data.items.length === 0 ? (
          <Text size="sm" c="dimmed">
            No marks yet.
          </Text>
        ) : (
          <Stack gap={6}>
            {marks.data.items.map((m) => (
              <Group key={`${m.lesson_id}`} gap="xs" wrap="nowrap" justify="space-between">
                <Text size="sm" lineClamp={1}>
                  {formatInZone(m.starts_at, timezone, 'dd.MM.yyyy HH:mm')} · {m.programme_title ?? 'Lesson'}
                </Text>
                <Badge
                  variant="light"
                  radius="sm"
                  color={m.mark ? MARK_COLORS[m.mark] : 'gray'}
                  style={{ flexShrink: 0 }}
                >
                  {describeEntry(m)}
                </Badge>
              </Group>
            ))}
          </Stack>
        )}
      </Stack>
    </Section>
  );
}

function ChildPage({ id, picker }: { id: string; picker: ReactNode }) {
  const user = useSession((s) => s.user);
  const timezone = viewerTimezone(user);
  const permissions = usePermissions();
  const overview = useChildOverview(id, timezone);
  const data = overview.data;
  const seesAttendance = has(permissions, PARTNER.SEE_ATTENDANCE);
  if (overview.isError)
    return (
      <Stack>
        <Title order={1}>My child</Title>
        {picker}
        <Alert color="red" role="alert">
          <Group justify="space-between">
            <Text size="sm">{actionErrorText(overview.error)}</Text>
            <Button size="compact-sm" variant="light" onClick={() => void overview.refetch()}>
              Retry
            </Button>
          </Group>
        </Alert>
      </Stack>
    );
  if (!data) return <ScreenSkeleton />;
  const nextMonday = addDaysTo(data.week_start, 7);
  const weekOf = (l: Lesson) =>
    formatInZone(l.starts_at, timezone, 'yyyy-MM-dd') < nextMonday ? 'this' : 'next';
  const context = [data.student.school, data.student.year_group].filter(Boolean).join(' · ');
  return (
    <Stack gap="xl">
      <title>{`${data.student.name} · ${PRODUCT_NAME}`}</title>
      <Group justify="space-between" align="flex-end">
        <div>
          <Text size="sm" c="dimmed">
            My child
          </Text>
          <Title order={1}>{data.student.name}</Title>
          {context && <Text c="dimmed">{context}</Text>}
        </div>
        {picker}
      </Group>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <Section title="Timetable" query={overview}>
          <Stack gap="md">
            <WeekLessons
              label={`This week (from ${day(data.week_start)})`}
              lessons={data.lessons.filter((l) => weekOf(l) === 'this')}
              timezone={timezone}
            />
            <WeekLessons
              label={`Next week (from ${day(nextMonday)})`}
              lessons={data.lessons.filter((l) => weekOf(l) === 'next')}
              timezone={timezone}
            />
          </Stack>
        </Section>
        {seesAttendance && <AttendanceSection overview={data} timezone={timezone} />}
        {data.reports !== null && (
          <Section title="Half-term reports" query={overview}>
            {data.reports.length === 0 ? (
              <Text size="sm" c="dimmed">
                No report has been released to the school yet.
              </Text>
            ) : (
              <Stack gap={6}>
                {data.reports.map((r) => (
                  <Group key={r.id} justify="space-between" wrap="nowrap">
                    <div>
                      <Text size="sm">
                        {r.timeframe_name}
                        {r.programme_title ? ` · ${r.programme_title}` : ''}
                      </Text>
                      <Text size="xs" c="dimmed">
                        Released {formatInZone(`${r.release_at}T12:00:00Z`, timezone, DATE_FORMAT)}
                      </Text>
                    </div>
                    <Button
                      size="compact-sm"
                      variant="light"
                      aria-label={`Download the ${r.timeframe_name} report as PDF`}
                      onClick={() =>
                        void downloadFile(
                          `/api/v1/half-term-reports/${r.id}/pdf`,
                          { revision: r.published_revision },
                          `half-term-report-${r.id}-r${r.published_revision}.pdf`,
                        ).catch((e: unknown) => notifyError(e))
                      }
                    >
                      PDF
                    </Button>
                  </Group>
                ))}
              </Stack>
            )}
          </Section>
        )}
        <Section title="Contact the school" query={overview}>
          {data.contacts.length === 0 ? (
            <Text size="sm" c="dimmed">
              The school has no contact in the portal yet.
            </Text>
          ) : (
            <Stack gap="sm">
              {data.contacts.map((c) => (
                <div key={c.id}>
                  <Text size="sm" fw={600}>
                    {c.name}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {c.linked ? `${data.student.name}'s link contact` : (CONTACT_ROLES[c.role] ?? 'School')}
                  </Text>
                  <Anchor href={`mailto:${c.email}`} size="sm">
                    {c.email}
                  </Anchor>
                </div>
              ))}
            </Stack>
          )}
        </Section>
      </SimpleGrid>
    </Stack>
  );
}

/**
 * my-child/:id? (issue 18, decision 0062): a parent's page about their child — this and next week's
 * lessons, attendance this half term and the latest marks, the released half-term reports (PDF) and
 * whom to contact at the school. A parent of several children picks one; without an id the first.
 */
export function MyChildPage() {
  const { id } = useParams();
  const navigate = useNavigate();
  const children = useChildren();
  const items = children.data?.items ?? [];
  if (!id) {
    if (children.isError)
      return (
        <Stack>
          <Title order={1}>My child</Title>
          <Alert color="red" role="alert">
            <Group justify="space-between">
              <Text size="sm">{actionErrorText(children.error)}</Text>
              <Button size="compact-sm" variant="light" onClick={() => void children.refetch()}>
                Retry
              </Button>
            </Group>
          </Alert>
        </Stack>
      );
    if (!children.data) return <ScreenSkeleton />;
    if (items[0]) return <Navigate to={`/my-child/${items[0].id}`} replace />;
    return (
      <Stack>
        <Title order={1}>My child</Title>
        <Text c="dimmed">No child is linked to your account yet. The school links children to parents.</Text>
      </Stack>
    );
  }
  const picker =
    items.length > 1 ? (
      <Select
        label="Child"
        w={280}
        data={items.map((c) => ({
          value: c.id,
          label: c.customer_name ? `${c.full_name} (${c.customer_name})` : c.full_name,
        }))}
        value={id}
        allowDeselect={false}
        onChange={(value) => {
          if (value) void navigate(`/my-child/${value}`);
        }}
      />
    ) : null;
  return <ChildPage key={id} id={id} picker={picker} />;
}

export default MyChildPage;
