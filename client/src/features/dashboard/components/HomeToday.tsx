import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Group,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useQueryClient, type UseQueryResult } from '@tanstack/react-query';
import { useEffect, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { PARTNER } from '@portal/projections/permissions';
import {
  canAccessSafeguarding,
  canPartnerSeeAssessments,
  canPartnerSeeIncidentReports,
  canPartnerSeeUser,
  canReadLessons,
  has,
  isAdmin,
  isFamilyPartner,
  isInternal,
  isPartner,
  isTeacher,
  mayReportSafeguarding,
} from '../../../app/access';
import { formatInZone, viewerTimezone, wallClockToIso } from '../../../shared/dates';
import { onLiveMessage } from '../../../shared/live/live-connection';
import { usePermissions, useSession } from '../../../shared/session';
import { actionErrorText } from '../../../shared/ui/action-error';
import { STATUS_LABELS } from '../../safeguarding/api';
import { addDaysTo, mondayOf, todayInZone } from '../../lessons/week-layout';
import {
  HOME_ROOT,
  useAttendanceToday,
  useCoverOffers,
  useIncidentSummary,
  useLessonsBetween,
  useMyConcerns,
  useMyStudents,
  useMyWeek,
  usePartnerIncidents,
  usePartnerStudents,
  useReleasedReports,
  useTeachersWithoutAvailability,
} from '../home-api';

/** One card of the home page: its figures, or a skeleton while loading, or the error with Retry. */
function HomeCard<T>({
  title,
  query,
  to,
  linkLabel,
  children,
}: {
  title: string;
  query: UseQueryResult<T>;
  to?: string;
  linkLabel: string;
  children: (data: T) => ReactNode;
}) {
  return (
    <Card withBorder radius="lg" padding="lg" shadow="xs" component="section" aria-label={title}>
      <Group justify="space-between" mb="sm" wrap="nowrap">
        <Title order={3} fz="h5">
          {title}
        </Title>
        {to && (
          <Anchor component={Link} to={to} size="sm">
            {linkLabel}
          </Anchor>
        )}
      </Group>
      {query.isError ? (
        <Alert color="red" role="alert" p="xs">
          <Group justify="space-between" wrap="nowrap">
            <Text size="sm">{actionErrorText(query.error)}</Text>
            <Button size="compact-xs" variant="light" onClick={() => void query.refetch()}>
              Retry
            </Button>
          </Group>
        </Alert>
      ) : query.data === undefined ? (
        <Skeleton height={48} radius="sm" aria-label={`Loading ${title.toLowerCase()}`} />
      ) : (
        children(query.data)
      )}
    </Card>
  );
}

function Figure({ value, label, color }: { value: number; label: string; color?: string }) {
  return (
    <div>
      <Text fz={28} fw={700} lh={1.1} c={value > 0 ? color : undefined}>
        {value}
      </Text>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
    </div>
  );
}

const Empty = ({ children }: { children: ReactNode }) => (
  <Text size="sm" c="dimmed">
    {children}
  </Text>
);

/**
 * The Monday-morning home (issue 18 item 2): what needs the person today, by role — lessons today,
 * safeguarding counts for leads, concerns they reported, teachers without availability, cover offers,
 * their students (teachers) or their school's / their children (partners). Live: any live message
 * refetches the figures.
 */
export function HomeToday() {
  const permissions = usePermissions();
  const user = useSession((s) => s.user);
  const zone = viewerTimezone(user);
  const queryClient = useQueryClient();
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const off = onLiveMessage(() => {
      clearTimeout(timer);
      timer = setTimeout(() => void queryClient.invalidateQueries({ queryKey: [HOME_ROOT] }), 300);
    });
    return () => {
      clearTimeout(timer);
      off();
    };
  }, [queryClient]);

  const today = todayInZone(zone);
  const teacher = isTeacher(permissions);
  const admin = isAdmin(permissions);
  const partner = isPartner(permissions);
  const partnerLessons = partner && has(permissions, PARTNER.SEE_ALL_LESSON_DETAILS);
  const myWeek = useMyWeek(teacher, mondayOf(today), zone);
  const dayLessons = useLessonsBetween(
    admin || partnerLessons,
    wallClockToIso(`${today} 00:00:00`, zone),
    wallClockToIso(`${addDaysTo(today, 1)} 00:00:00`, zone),
  );
  const incidents = useIncidentSummary(canAccessSafeguarding(permissions));
  const concerns = useMyConcerns(mayReportSafeguarding(permissions) && !canAccessSafeguarding(permissions));
  const shared = usePartnerIncidents(canPartnerSeeIncidentReports(permissions));
  const withoutAvailability = useTeachersWithoutAvailability(admin);
  const cover = useCoverOffers(teacher);
  const students = useMyStudents(teacher);
  const children = usePartnerStudents(partner);
  const released = useReleasedReports(canPartnerSeeAssessments(permissions));
  const seesAttendance = isInternal(permissions) || (partner && has(permissions, PARTNER.SEE_ATTENDANCE));
  const attendance = useAttendanceToday(seesAttendance, zone);

  const time = (iso: string) => formatInZone(iso, zone, 'HH:mm');
  const lessonRows = (
    items: { id: string; starts_at: string; programme_title?: string | null; group_name?: string | null }[],
  ) =>
    items.length === 0 ? (
      <Empty>No lessons today.</Empty>
    ) : (
      <Stack gap={6}>
        {items.slice(0, 6).map((l) => (
          <Group key={l.id} gap="xs" wrap="nowrap">
            <Badge variant="light" radius="sm" style={{ flexShrink: 0, overflow: 'visible' }}>
              {time(l.starts_at)}
            </Badge>
            <Anchor component={Link} to={`/lessons/${l.id}`} size="sm" lineClamp={1}>
              {l.programme_title ?? 'Lesson'}
              {l.group_name ? ` · ${l.group_name}` : ''}
            </Anchor>
          </Group>
        ))}
      </Stack>
    );

  const cards: ReactNode[] = [];
  if (teacher)
    cards.push(
      <HomeCard key="my-lessons" title="Today's lessons" query={myWeek} to="/my-lessons" linkLabel="My week">
        {(week) =>
          lessonRows(week.items.filter((l) => formatInZone(l.starts_at, zone, 'yyyy-MM-dd') === today))
        }
      </HomeCard>,
    );
  if (admin || partnerLessons)
    cards.push(
      <HomeCard key="lessons" title="Lessons today" query={dayLessons} to="/lessons" linkLabel="All lessons">
        {(page) => (
          <Stack gap="xs">
            <Figure value={page.total} label="lessons today" />
            {page.total > 0 && lessonRows(page.items)}
          </Stack>
        )}
      </HomeCard>,
    );
  if (seesAttendance)
    cards.push(
      <HomeCard
        key="attendance"
        title="Registers and absences"
        query={attendance}
        to="/attendance"
        linkLabel="Attendance"
      >
        {(a) => {
          const now = Date.now();
          const untaken = a.lessons.filter(
            (l) =>
              Date.parse(l.ends_at) < now && l.register_state !== 'taken' && l.register_state !== 'voided',
          ).length;
          const due = a.lessons.filter(
            (l) => l.register_state !== 'taken' && l.register_state !== 'voided',
          ).length;
          return (
            <Group gap="xl">
              {!partner && (
                <Figure value={untaken} label="registers not taken after the lesson" color="red.8" />
              )}
              {!partner && <Figure value={due} label="registers still to take today" />}
              <Figure
                value={a.absences_without_reason.length}
                label="absences waiting for a reason"
                color="orange.9"
              />
            </Group>
          );
        }}
      </HomeCard>,
    );
  if (canAccessSafeguarding(permissions))
    cards.push(
      <HomeCard
        key="incidents"
        title="Safeguarding"
        query={incidents}
        to="/safeguarding-incidents"
        linkLabel="Board"
      >
        {(s) => (
          <Group gap="xl">
            <Figure value={s.open} label="open" />
            <Figure value={s.escalated} label="escalated" color="red.8" />
            <Figure value={s.unclaimed} label="unclaimed" color="orange.9" />
          </Group>
        )}
      </HomeCard>,
    );
  if (mayReportSafeguarding(permissions) && !canAccessSafeguarding(permissions))
    cards.push(
      <HomeCard
        key="concerns"
        title="Concerns I reported"
        query={concerns}
        to="/my-reported-concerns"
        linkLabel="All"
      >
        {(page) =>
          page.total === 0 ? (
            <Empty>No open concern you reported.</Empty>
          ) : (
            <Stack gap={6}>
              <Figure value={page.total} label="still open" />
              {page.items.slice(0, 3).map((i) => (
                <Group key={i.id} gap="xs" wrap="nowrap">
                  <Badge variant="light" radius="sm">
                    {STATUS_LABELS[i.status]}
                  </Badge>
                  <Text size="sm" lineClamp={1}>
                    {i.students.map((s) => s.name).join(', ')}
                  </Text>
                </Group>
              ))}
            </Stack>
          )
        }
      </HomeCard>,
    );
  if (canPartnerSeeIncidentReports(permissions))
    cards.push(
      <HomeCard
        key="shared"
        title="Concerns shared with you"
        query={shared}
        to="/my-safeguarding-incidents"
        linkLabel="All"
      >
        {(page) => <Figure value={page.total} label="about your students" />}
      </HomeCard>,
    );
  if (canPartnerSeeAssessments(permissions))
    cards.push(
      <HomeCard
        key="released"
        title="Reports released"
        query={released}
        to="/partner/half-term-reports"
        linkLabel="All"
      >
        {(page) =>
          page.total === 0 ? (
            <Empty>No half-term report has been released to you yet.</Empty>
          ) : (
            <Stack gap={6}>
              <Figure value={page.total} label="published and released" />
              {page.items.slice(0, 3).map((r) => (
                <Anchor key={r.id} component={Link} to={`/half-term-report/${r.id}`} size="sm" lineClamp={1}>
                  {r.student_name ?? 'Student'} · {r.timeframe_name}
                </Anchor>
              ))}
            </Stack>
          )
        }
      </HomeCard>,
    );
  if (admin)
    cards.push(
      <HomeCard
        key="availability"
        title="Teachers without availability"
        query={withoutAvailability}
        to="/timetables/teachers"
        linkLabel="Timetables"
      >
        {(a) =>
          a.total === 0 ? (
            <Empty>Every active teacher has set availability for this week.</Empty>
          ) : (
            <Stack gap={6}>
              <Figure value={a.total} label="this week" color="orange.9" />
              <Text size="sm" lineClamp={2}>
                {a.items
                  .slice(0, 5)
                  .map((t) => t.full_name)
                  .join(', ')}
                {a.total > 5 ? ` and ${a.total - 5} more` : ''}
              </Text>
            </Stack>
          )
        }
      </HomeCard>,
    );
  if (teacher)
    cards.push(
      <HomeCard
        key="cover"
        title="Cover offered to you"
        query={cover}
        to="/cover-requests"
        linkLabel="Cover requests"
      >
        {(page) =>
          page.total === 0 ? (
            <Empty>No open cover request for you.</Empty>
          ) : (
            <Figure value={page.total} label="open requests you can take" />
          )
        }
      </HomeCard>,
    );
  if (teacher)
    cards.push(
      <HomeCard key="students" title="My students" query={students} to="/teacher-my-students" linkLabel="All">
        {(list) => {
          const unique = [...new Map(list.items.map((s) => [s.student_id, s])).values()];
          return unique.length === 0 ? (
            <Empty>No students in your groups yet.</Empty>
          ) : (
            <Stack gap={6}>
              {unique.slice(0, 6).map((s) => (
                <Group key={s.student_id} gap="xs" wrap="nowrap" justify="space-between">
                  <Text size="sm" lineClamp={1}>
                    {s.name ?? 'Student'}
                    {s.customer_name ? (
                      <Text span size="xs" c="dimmed">
                        {' '}
                        · {s.customer_name}
                      </Text>
                    ) : null}
                  </Text>
                  {s.one_page_profile_id ? (
                    <Anchor
                      component={Link}
                      to={`/one-page-profiles/${s.one_page_profile_id}/details`}
                      size="xs"
                    >
                      How best to support me
                    </Anchor>
                  ) : (
                    <Text size="xs" c="dimmed">
                      No profile yet
                    </Text>
                  )}
                </Group>
              ))}
            </Stack>
          );
        }}
      </HomeCard>,
    );
  if (partner)
    cards.push(
      <HomeCard
        key="children"
        title="Your students"
        query={children}
        to={canPartnerSeeUser(permissions) ? '/my-users' : undefined}
        linkLabel="All"
      >
        {(page) =>
          page.total === 0 ? (
            <Empty>No students are linked to you yet.</Empty>
          ) : (
            <Stack gap={6}>
              {page.items.map((s) => (
                <Group key={s.id} gap="xs" wrap="nowrap" justify="space-between">
                  <Text size="sm" lineClamp={1}>
                    {s.full_name}
                    {s.customer_name ? (
                      <Text span size="xs" c="dimmed">
                        {' '}
                        · {s.customer_name}
                      </Text>
                    ) : null}
                  </Text>
                  {isFamilyPartner(permissions) ? (
                    <Anchor
                      component={Link}
                      to={`/my-child/${s.id}`}
                      size="xs"
                      aria-label={`${s.full_name}: timetable, attendance and reports`}
                    >
                      Timetable, attendance and reports
                    </Anchor>
                  ) : (
                    canReadLessons(permissions) && (
                      <Anchor component={Link} to={`/timetable/${s.id}`} size="xs">
                        Timetable
                      </Anchor>
                    )
                  )}
                </Group>
              ))}
            </Stack>
          )
        }
      </HomeCard>,
    );
  if (cards.length === 0 || (!isInternal(permissions) && !partner)) return null;
  return (
    <section aria-labelledby="today-heading">
      <Title order={2} fz="h4" id="today-heading" mb="md">
        Today
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 2, xl: 3 }} spacing="md">
        {cards}
      </SimpleGrid>
    </section>
  );
}
