import {
  Alert,
  Badge,
  Button,
  Group,
  Pagination,
  SegmentedControl,
  Paper,
  Skeleton,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { internalMay, isAdmin, isInternal, isPartner } from '../../../app/access';
import { DATE_TIME_FORMAT, formatInZone, viewerTimezone } from '../../../shared/dates';
import { usePermissions, useSession } from '../../../shared/session';
import { PRODUCT_NAME } from '../../../shared/ui/BrandMark';
import { actionErrorText } from '../../../shared/ui/action-error';
import { INTERNAL_PERMISSIONS, PARTNER } from '@portal/projections/permissions';
import {
  MARK_COLORS,
  MARK_LABELS,
  REASON_LABELS,
  useOwnCustomer,
  usePartnerAttendance,
  usePartnerSessions,
  useToday,
  type AttendanceEntry,
  type LessonRegister,
  type SessionMark,
} from '../api';
import { downloadFile } from '../../../shared/api/download';
import { PlannedAbsencesCard } from '../components/PlannedAbsencesCard';
import { AttendanceContactsCard } from '../components/AttendanceContactsCard';
import { notifyError } from '../../../shared/notify';
import { DayInput } from '../../../shared/ui/DayInput';

const STATE_LABEL: Record<string, string> = {
  not_open: 'Not taken',
  open: 'Incomplete',
  taken: 'Taken',
  voided: 'Void (cancelled)',
};
const STATE_COLOR: Record<string, string> = {
  not_open: 'red',
  open: 'orange',
  taken: 'green',
  voided: 'gray',
};

const todayIn = (timezone: string) => formatInZone(new Date().toISOString(), timezone, 'yyyy-MM-dd');

function LessonTable({ rows, timezone, label }: { rows: LessonRegister[]; timezone: string; label: string }) {
  if (rows.length === 0)
    return (
      <Text size="sm" c="dimmed">
        None.
      </Text>
    );
  return (
    <Table.ScrollContainer minWidth={560}>
      <Table aria-label={label} striped>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>When</Table.Th>
            <Table.Th>Lesson</Table.Th>
            <Table.Th>Teacher</Table.Th>
            <Table.Th>Register</Table.Th>
            <Table.Th>Marked</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((l) => (
            <Table.Tr key={l.lesson_id}>
              <Table.Td>
                <Link to={`/lessons/${l.lesson_id}`}>
                  {formatInZone(l.starts_at, timezone, 'HH:mm')}–{formatInZone(l.ends_at, timezone, 'HH:mm')}
                </Link>
              </Table.Td>
              <Table.Td>
                {l.programme_title ?? 'Lesson'} · {l.group_name ?? ''}
              </Table.Td>
              <Table.Td>{l.teacher_name ?? '—'}</Table.Td>
              <Table.Td>
                <Badge variant="light" color={STATE_COLOR[l.register_state] ?? 'gray'}>
                  {STATE_LABEL[l.register_state] ?? l.register_state}
                </Badge>
              </Table.Td>
              <Table.Td>
                {l.marked}/{l.roster}
                {l.pending > 0 && (
                  <Text span size="xs" c="red">
                    {' '}
                    · {l.pending} without a reason
                  </Text>
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function EntryTable({ rows, timezone, label }: { rows: AttendanceEntry[]; timezone: string; label: string }) {
  return (
    <Table.ScrollContainer minWidth={560}>
      <Table aria-label={label} striped>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Student</Table.Th>
            <Table.Th>Lesson</Table.Th>
            <Table.Th>Session</Table.Th>
            <Table.Th>Mark</Table.Th>
            <Table.Th>Suggested code</Table.Th>
            <Table.Th>Reason</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((e) => (
            <Table.Tr key={`${e.lesson_id}-${e.student_id}`}>
              <Table.Td>{e.student_name ?? e.student_id}</Table.Td>
              <Table.Td>
                <Link to={`/lessons/${e.lesson_id}`}>
                  {formatInZone(e.starts_at, timezone, DATE_TIME_FORMAT)}
                </Link>{' '}
                · {e.programme_title ?? 'Lesson'}
                <Text size="xs" c="dimmed">
                  {e.group_name ?? ''} · {e.teacher_name ?? ''}
                </Text>
              </Table.Td>
              <Table.Td>{e.session}</Table.Td>
              <Table.Td>
                {e.mark && (
                  <Badge variant="light" color={MARK_COLORS[e.mark] ?? 'gray'}>
                    {MARK_LABELS[e.mark] ?? e.mark}
                    {e.mark === 'late' && e.minutes_late ? ` ${e.minutes_late} min` : ''}
                    {e.mark === 'left_early' && e.minutes_missed ? ` ${e.minutes_missed} min` : ''}
                  </Badge>
                )}
                {e.amendments > 0 && (
                  <Text span size="xs" c="dimmed">
                    {' '}
                    amended
                  </Text>
                )}
              </Table.Td>
              <Table.Td>{e.suggested_code ?? '—'}</Table.Td>
              <Table.Td>
                {e.reason_missing ? (
                  <Badge color="red" variant="outline">
                    Reason missing
                  </Badge>
                ) : e.absence_reason ? (
                  (REASON_LABELS[e.absence_reason] ?? e.absence_reason)
                ) : (
                  ''
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** Staff: today's registers (due, untaken after the lesson) and absences still waiting for a reason. */
function TodayBoard({ timezone }: { timezone: string }) {
  const [date, setDate] = useState(() => todayIn(timezone));
  const today = useToday(date, timezone);
  const now = Date.now();
  const lessons = today.data?.lessons ?? [];
  const due = lessons.filter(
    (l) =>
      l.register_state !== 'taken' &&
      l.register_state !== 'voided' &&
      new Date(l.starts_at).getTime() - 60 * 60_000 <= now &&
      new Date(l.ends_at).getTime() > now,
  );
  const untaken = lessons.filter(
    (l) =>
      l.register_state !== 'taken' && l.register_state !== 'voided' && new Date(l.ends_at).getTime() <= now,
  );
  return (
    <Stack gap="md">
      <Group>
        <DayInput label="Day" value={date} onChange={(value) => value && setDate(value)} />
      </Group>
      {today.isError ? (
        <Alert color="red" role="alert" title="Could not load the day">
          {actionErrorText(today.error)}
        </Alert>
      ) : !today.data ? (
        <Skeleton height={200} aria-label="Loading the day" />
      ) : (
        <>
          <Paper withBorder radius="md" p="md">
            <Title order={2} fz="h4" mb="xs">
              Registers due now
            </Title>
            <LessonTable rows={due} timezone={timezone} label="Registers due now" />
          </Paper>
          <Paper withBorder radius="md" p="md">
            <Title order={2} fz="h4" mb="xs">
              Untaken after the lesson
            </Title>
            <LessonTable rows={untaken} timezone={timezone} label="Untaken after the lesson" />
          </Paper>
          <Paper withBorder radius="md" p="md">
            <Title order={2} fz="h4" mb="xs">
              Absences with no reason (last 14 days)
            </Title>
            {today.data.absences_without_reason.length === 0 ? (
              <Text size="sm" c="dimmed">
                None: every absence has a reason.
              </Text>
            ) : (
              <EntryTable
                rows={today.data.absences_without_reason}
                timezone={timezone}
                label="Absences with no reason"
              />
            )}
          </Paper>
          <Paper withBorder radius="md" p="md">
            <Title order={2} fz="h4" mb="xs">
              All of the day&apos;s lessons
            </Title>
            <LessonTable rows={lessons} timezone={timezone} label="The day's lessons" />
          </Paper>
        </>
      )}
    </Stack>
  );
}

function SessionTable({ rows }: { rows: SessionMark[] }) {
  return (
    <Table.ScrollContainer minWidth={560}>
      <Table aria-label="Best mark per session" striped>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Day</Table.Th>
            <Table.Th>Session</Table.Th>
            <Table.Th>Student</Table.Th>
            <Table.Th>Best mark</Table.Th>
            <Table.Th>Suggested code</Table.Th>
            <Table.Th>Reason</Table.Th>
            <Table.Th>Lessons</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((r) => (
            <Table.Tr key={`${r.student_id}-${r.session_date}-${r.session}`}>
              <Table.Td>{r.session_date.split('-').reverse().join('.')}</Table.Td>
              <Table.Td>{r.session}</Table.Td>
              <Table.Td>{r.student_name ?? r.student_id}</Table.Td>
              <Table.Td>
                <Badge variant="light" color={MARK_COLORS[r.mark] ?? 'gray'}>
                  {MARK_LABELS[r.mark] ?? r.mark}
                </Badge>
              </Table.Td>
              <Table.Td>{r.suggested_code ?? '—'}</Table.Td>
              <Table.Td>
                {r.reason_missing ? (
                  <Badge color="red" variant="outline">
                    Reason missing
                  </Badge>
                ) : r.absence_reason ? (
                  (REASON_LABELS[r.absence_reason] ?? r.absence_reason)
                ) : (
                  ''
                )}
              </Table.Td>
              <Table.Td>{r.lessons}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** A school: its students' marks as they are taken (live), per lesson or as the best mark per session. */
function PartnerAttendance({ timezone }: { timezone: string }) {
  const [view, setView] = useState<'lessons' | 'sessions'>('lessons');
  const [page, setPage] = useState(1);
  const lessons = usePartnerAttendance(page);
  const sessions = usePartnerSessions(page, view === 'sessions');
  const list = view === 'lessons' ? lessons : sessions;
  const download = (asExcel: boolean) =>
    downloadFile(
      view === 'lessons' ? '/api/v1/attendance/partner' : '/api/v1/attendance/partner/sessions',
      { [asExcel ? 'as_excel' : 'as_csv']: true },
      'attendance',
    ).catch((e: unknown) => notifyError(e, 'Could not download'));
  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <SegmentedControl
          value={view}
          onChange={(v) => {
            setView(v);
            setPage(1);
          }}
          data={[
            { value: 'lessons', label: 'Per lesson' },
            { value: 'sessions', label: 'Best mark per session' },
          ]}
        />
        <Group gap="xs">
          <Button variant="default" size="xs" onClick={() => void download(false)}>
            Download CSV
          </Button>
          <Button variant="default" size="xs" onClick={() => void download(true)}>
            Download Excel
          </Button>
        </Group>
      </Group>
      <Text size="sm" c="dimmed">
        Updates live as registers are taken. Codes are suggestions for your register; the school decides.
      </Text>
      {list.isError ? (
        <Alert color="red" role="alert" title="Could not load attendance">
          {actionErrorText(list.error)}
        </Alert>
      ) : !list.data ? (
        <Skeleton height={200} aria-label="Loading attendance" />
      ) : list.data.items.length === 0 ? (
        <Text c="dimmed">No marks yet. Marks appear here as soon as a teacher takes a register.</Text>
      ) : view === 'lessons' ? (
        <EntryTable
          rows={list.data.items as AttendanceEntry[]}
          timezone={timezone}
          label="Your students' attendance"
        />
      ) : (
        <SessionTable rows={list.data.items as SessionMark[]} />
      )}
      {list.data && list.data.total > list.data.size && (
        <Pagination
          value={page}
          onChange={setPage}
          total={Math.ceil(list.data.total / list.data.size)}
          aria-label="Pages"
        />
      )}
    </Stack>
  );
}

/** attendance: the day's board for staff, the school's live view for partners (SEE_ATTENDANCE). */
/** The partner's own school's attendance contacts (read by every partner, kept by some). */
function SchoolContacts() {
  const school = useOwnCustomer(true);
  if (school.isPending) return <Skeleton height={80} aria-label="Loading your school" />;
  if (!school.data) return null;
  return <AttendanceContactsCard customerId={school.data.id} />;
}

export function AttendancePage() {
  const permissions = usePermissions();
  const timezone = viewerTimezone(useSession((s) => s.user));
  const partner = isPartner(permissions);
  const seesPartnerView = partner && permissions.includes(PARTNER.SEE_ATTENDANCE);
  const setsReasons = partner && permissions.includes(PARTNER.SET_ABSENCE_REASON);
  return (
    <Stack gap="md">
      <title>{`Attendance · ${PRODUCT_NAME}`}</title>
      <Title order={1} fz="h2">
        Attendance
      </Title>
      {isInternal(permissions) ? (
        <>
          <TodayBoard timezone={timezone} />
          {internalMay(permissions, INTERNAL_PERMISSIONS.ATTENDANCE) && (
            <PlannedAbsencesCard mayRecord={isAdmin(permissions)} />
          )}
        </>
      ) : seesPartnerView || setsReasons ? (
        <>
          {seesPartnerView && <PartnerAttendance timezone={timezone} />}
          <PlannedAbsencesCard mayRecord={setsReasons} />
          <SchoolContacts />
        </>
      ) : (
        <Alert color="gray" title="No attendance to show">
          Your account may not see attendance. Ask your school&apos;s administrator.
        </Alert>
      )}
    </Stack>
  );
}

export default AttendancePage;
