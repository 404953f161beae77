import {
  Alert,
  Button,
  Group,
  NativeSelect,
  Pagination,
  Progress,
  Skeleton,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { apiRequest } from '../../../shared/api/client';
import { downloadFile } from '../../../shared/api/download';
import type { Page } from '../../../shared/api/types';
import { DATE_TIME_FORMAT, formatInZone, viewerTimezone, wallClockToIso } from '../../../shared/dates';
import { notifyError } from '../../../shared/notify';
import { useSession } from '../../../shared/session';
import { PRODUCT_NAME } from '../../../shared/ui/BrandMark';
import { actionErrorText } from '../../../shared/ui/action-error';
import { MARK_LABELS, REASON_LABELS, type DifferentClass, type Summary, type TutorCompliance } from '../api';
import { DayInput } from '../../../shared/ui/DayInput';

export type ReportKind = 'programmes' | 'groups' | 'tutors' | 'different-class';

const TITLES: Record<ReportKind, string> = {
  programmes: 'Attendance by programme',
  groups: 'Attendance by group',
  tutors: 'Attendance by tutor',
  'different-class': 'Attendance in a different class',
};

const DESCRIPTIONS: Record<ReportKind, string> = {
  programmes:
    'Per student and programme: possible sessions, attended, late, absences by reason, and minutes attended.',
  groups:
    'Per student and group: possible sessions, attended, late, absences by reason, and minutes attended.',
  tutors:
    'Per tutor, over lessons that have ended: registers taken, taken by the end of the next working day, not taken, amendments, automatic marks still to confirm.',
  'different-class': 'Students marked in a lesson of a group they are not in.',
};

function Percent({ value }: { value: number | null }) {
  if (value === null) return <Text size="sm">—</Text>;
  return (
    <Group gap={6} wrap="nowrap">
      <Progress
        value={value}
        w={60}
        color={value >= 90 ? 'green' : value >= 80 ? 'yellow' : 'red'}
        aria-label={`${value}%`}
      />
      <Text size="sm">{value}%</Text>
    </Group>
  );
}

function SummaryTable({ rows, label }: { rows: Summary[]; label: string }) {
  return (
    <Table striped aria-label={label}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{label.endsWith('group') ? 'Group' : 'Programme'}</Table.Th>
          <Table.Th>Student</Table.Th>
          <Table.Th>Period</Table.Th>
          <Table.Th>Possible</Table.Th>
          <Table.Th>Attended</Table.Th>
          <Table.Th>Late</Table.Th>
          <Table.Th>Absences</Table.Th>
          <Table.Th>Attendance</Table.Th>
          <Table.Th>Minutes</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.map((r) => (
          <Table.Tr key={`${r.id}-${r.student_id}-${r.period_start ?? ''}`}>
            <Table.Td>{r.name ?? r.id}</Table.Td>
            <Table.Td>{r.student_name ?? r.student_id}</Table.Td>
            <Table.Td>{r.period_start ?? 'All'}</Table.Td>
            <Table.Td>{r.possible}</Table.Td>
            <Table.Td>{r.attended}</Table.Td>
            <Table.Td>{r.late}</Table.Td>
            <Table.Td>
              {r.absences}
              {Object.keys(r.absences_by_reason).length > 0 && (
                <Text size="xs" c="dimmed">
                  {Object.entries(r.absences_by_reason)
                    .map(([k, v]) => `${REASON_LABELS[k] ?? k}: ${v}`)
                    .join(', ')}
                </Text>
              )}
              {r.absences_without_reason > 0 && (
                <Text size="xs" c="red">
                  {r.absences_without_reason} without a reason
                </Text>
              )}
            </Table.Td>
            <Table.Td>
              <Percent value={r.attendance_percent} />
            </Table.Td>
            <Table.Td>
              {r.attended_minutes}/{r.planned_minutes}
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

function TutorTable({ rows }: { rows: TutorCompliance[] }) {
  return (
    <Table striped aria-label="Registers per tutor">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Tutor</Table.Th>
          <Table.Th>Lessons</Table.Th>
          <Table.Th>Registers taken</Table.Th>
          <Table.Th>On time</Table.Th>
          <Table.Th>Not taken</Table.Th>
          <Table.Th>Amendments</Table.Th>
          <Table.Th>Automatic, unconfirmed</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.map((r) => (
          <Table.Tr key={r.teacher_id}>
            <Table.Td>{r.teacher_name ?? r.teacher_id}</Table.Td>
            <Table.Td>{r.lessons}</Table.Td>
            <Table.Td>{r.registers_taken}</Table.Td>
            <Table.Td>
              <Percent value={r.lessons > 0 ? Math.round((r.taken_on_time * 1000) / r.lessons) / 10 : null} />
            </Table.Td>
            <Table.Td>{r.not_taken}</Table.Td>
            <Table.Td>{r.amendments}</Table.Td>
            <Table.Td>{r.unconfirmed_auto_marks}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

function DifferentClassTable({ rows, timezone }: { rows: DifferentClass[]; timezone: string }) {
  return (
    <Table striped aria-label="Students in a different class">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>When</Table.Th>
          <Table.Th>Student</Table.Th>
          <Table.Th>Own group</Table.Th>
          <Table.Th>Lesson&apos;s group</Table.Th>
          <Table.Th>Teacher</Table.Th>
          <Table.Th>Mark</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.map((r) => (
          <Table.Tr key={`${r.lesson_id}-${r.student_id}`}>
            <Table.Td>
              <Link to={`/lessons/${r.lesson_id}`}>
                {formatInZone(r.starts_at, timezone, DATE_TIME_FORMAT)}
              </Link>
            </Table.Td>
            <Table.Td>{r.student_name ?? r.student_id}</Table.Td>
            <Table.Td>{r.home_group_name ?? '—'}</Table.Td>
            <Table.Td>{r.group_name ?? '—'}</Table.Td>
            <Table.Td>{r.teacher_name ?? '—'}</Table.Td>
            <Table.Td>{r.mark ? (MARK_LABELS[r.mark] ?? r.mark) : ''}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** Attendance % per week over the filtered rows (all students together), as bars. */
function WeeklyChart({ path, query }: { path: string; query: Record<string, string | undefined> }) {
  const weekly = useQuery({
    queryKey: ['lessons', 'attendance-weekly', path, query],
    queryFn: ({ signal }) =>
      apiRequest<Page<Summary>>(path, { signal, query: { ...query, period: 'week', page: 1, size: 500 } }),
    meta: { silentErrors: true },
  });
  if (!weekly.data || weekly.data.items.length === 0) return null;
  const weeks = new Map<string, { possible: number; attended: number }>();
  for (const r of weekly.data.items) {
    const key = r.period_start ?? '';
    const w = weeks.get(key) ?? { possible: 0, attended: 0 };
    w.possible += r.possible;
    w.attended += r.attended;
    weeks.set(key, w);
  }
  const bars = [...weeks.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .slice(-16)
    .map(([week, w]) => ({
      week,
      percent: w.possible > 0 ? Math.round((w.attended * 1000) / w.possible) / 10 : 0,
    }));
  const width = 40;
  const height = 120;
  const summary = bars.map((b) => `week of ${b.week}: ${b.percent}%`).join('; ');
  return (
    <Stack gap={4}>
      <Text size="sm" fw={600}>
        Attendance by week{weekly.data.total > weekly.data.items.length ? ' (first 500 rows)' : ''}
      </Text>
      <svg
        role="img"
        aria-label={`Attendance by week: ${summary}`}
        width={bars.length * width}
        height={height + 30}
        style={{ maxWidth: '100%' }}
      >
        {bars.map((b, i) => {
          const h = (b.percent / 100) * height;
          return (
            <g key={b.week}>
              <rect
                x={i * width + 6}
                y={height - h}
                width={width - 12}
                height={h}
                fill={b.percent >= 90 ? '#2b8a3e' : b.percent >= 80 ? '#e67700' : '#c92a2a'}
              />
              <text x={i * width + width / 2} y={height - h - 3} fontSize="10" textAnchor="middle">
                {Math.round(b.percent)}%
              </text>
              <text x={i * width + width / 2} y={height + 14} fontSize="9" textAnchor="middle">
                {b.week.slice(5)}
              </text>
            </g>
          );
        })}
      </svg>
    </Stack>
  );
}

/** attendance/programmes, /groups, /tutors, /different-class: a period's figures, with CSV and .xlsx downloads. */
export function AttendanceReportPage({ kind }: { kind: ReportKind }) {
  const timezone = viewerTimezone(useSession((s) => s.user));
  const [fromDate, setFromDate] = useState('');
  const [toDate, setToDate] = useState('');
  const [period, setPeriod] = useState('all');
  const [page, setPage] = useState(1);
  const [downloading, setDownloading] = useState(false);
  const query = {
    from: fromDate ? wallClockToIso(`${fromDate}T00:00`, timezone) : undefined,
    to: toDate ? wallClockToIso(`${toDate}T23:59:59`, timezone) : undefined,
    period: kind === 'programmes' || kind === 'groups' ? period : undefined,
  };
  const path = `/api/v1/attendance/${kind}`;
  const list = useQuery({
    // Under the `lessons` root: new marks refresh the figures.
    queryKey: ['lessons', 'attendance-report', kind, query, page],
    queryFn: ({ signal }) => apiRequest<Page<unknown>>(path, { signal, query: { ...query, page, size: 50 } }),
    meta: { silentErrors: true },
  });
  const download = async (asExcel: boolean) => {
    setDownloading(true);
    try {
      await downloadFile(path, { ...query, [asExcel ? 'as_excel' : 'as_csv']: true }, `attendance-${kind}`);
    } catch (e) {
      notifyError(e, 'Could not download');
    } finally {
      setDownloading(false);
    }
  };
  let body: ReactNode;
  if (list.isError)
    body = (
      <Alert color="red" role="alert" title="Could not load the figures">
        {actionErrorText(list.error)}
      </Alert>
    );
  else if (!list.data) body = <Skeleton height={200} aria-label="Loading the figures" />;
  else if (list.data.items.length === 0)
    body = <Text c="dimmed">Nothing in this period yet. Figures appear as registers are taken.</Text>;
  else if (kind === 'tutors') body = <TutorTable rows={list.data.items as TutorCompliance[]} />;
  else if (kind === 'different-class')
    body = <DifferentClassTable rows={list.data.items as DifferentClass[]} timezone={timezone} />;
  else body = <SummaryTable rows={list.data.items as Summary[]} label={TITLES[kind]} />;
  return (
    <Stack gap="md">
      <title>{`${TITLES[kind]} · ${PRODUCT_NAME}`}</title>
      <div>
        <Title order={1} fz="h2">
          {TITLES[kind]}
        </Title>
        <Text size="sm" c="dimmed">
          {DESCRIPTIONS[kind]}
        </Text>
      </div>
      <Group align="flex-end">
        <DayInput
          label="From"
          value={fromDate}
          onChange={(value) => {
            setFromDate(value);
            setPage(1);
          }}
        />
        <DayInput
          label="To"
          value={toDate}
          onChange={(value) => {
            setToDate(value);
            setPage(1);
          }}
        />
        {(kind === 'programmes' || kind === 'groups') && (
          <NativeSelect
            label="Rows per"
            value={period}
            onChange={(e) => {
              setPeriod(e.currentTarget.value);
              setPage(1);
            }}
            data={[
              { value: 'all', label: 'Whole period' },
              { value: 'week', label: 'Week' },
              { value: 'month', label: 'Month' },
            ]}
          />
        )}
        <Button variant="default" loading={downloading} onClick={() => void download(false)}>
          Download CSV
        </Button>
        <Button variant="default" loading={downloading} onClick={() => void download(true)}>
          Download Excel
        </Button>
      </Group>
      {(kind === 'programmes' || kind === 'groups') && (
        <WeeklyChart path={path} query={{ from: query.from, to: query.to }} />
      )}
      {body}
      {list.data && list.data.total > list.data.size && (
        <Pagination value={page} onChange={setPage} total={Math.ceil(list.data.total / list.data.size)} />
      )}
    </Stack>
  );
}

export default AttendanceReportPage;
