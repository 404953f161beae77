import {
  Alert,
  Badge,
  Button,
  Checkbox,
  Group,
  List,
  SegmentedControl,
  Select,
  Stack,
  Text,
} from '@mantine/core';
import type { DataTableColumn } from 'mantine-datatable';
import { useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { DATE_FORMAT, formatInZone, viewerTimezone } from '../../../shared/dates';
import { useSession } from '../../../shared/session';
import { actionErrorText } from '../../../shared/ui/action-error';
import { ResourceListPage } from '../../../shared/ui/ResourceListPage';
import {
  REPORT_STATES,
  reportList,
  stateColor,
  stateLabel,
  timeframes,
  useBulkPublish,
  useReportAction,
  type Report,
  type ReportListKind,
} from '../api';
import { PresenceBadges } from '../components/PresenceBadges';
import { usePresenceByReport, type PresenceEditor } from '../live-board';

const NOUN: Record<ReportListKind, string> = {
  all: 'reports',
  mine: 'reports',
  qa: 'reports to review',
  'qa-lead': 'reports to sign off',
  assignments: 'assignments',
  partner: 'reports',
};

function StateBadge({ state }: { state: string }) {
  return (
    <Badge variant="light" color={stateColor(state)}>
      {stateLabel(state)}
    </Badge>
  );
}

/** The timeframe filter every internal list has. */
function TimeframeSelect({
  value,
  onChange,
}: {
  value: string | null;
  onChange: (v: string | null) => void;
}) {
  const list = timeframes.useList({ page: 1, size: 100 });
  return (
    <Select
      aria-label="Timeframe"
      placeholder="Any timeframe"
      clearable
      value={value}
      onChange={onChange}
      data={(list.data?.items ?? []).map((t) => ({ value: t.id, label: t.name }))}
    />
  );
}

function ClaimButton({ report, kind }: { report: Report; kind: 'qa' | 'qa-lead' }) {
  const action = useReportAction();
  const claimable = kind === 'qa' ? report.state === 'submitted' : report.state === 'qa_approved';
  if (!claimable)
    return (
      <Text size="xs" c="dimmed">
        {claimHolder(report) ? `Claimed by ${claimHolder(report)}` : 'Claimed'}
      </Text>
    );
  return (
    <Group gap={4} wrap="nowrap" onClick={(e) => e.stopPropagation()}>
      <Button
        size="xs"
        loading={action.isPending}
        onClick={() => action.mutate({ id: report.id, action: kind === 'qa' ? 'qa/claim' : 'lead/claim' })}
      >
        Claim
      </Button>
      {action.error && (
        <Text size="xs" c="red" role="alert">
          {actionErrorText(action.error)}
        </Text>
      )}
    </Group>
  );
}

/** What the QA lead may publish in bulk: QA approved or in lead review, with a signed hash to carry. */
const publishable = (r: Report) =>
  (r.state === 'qa_approved' || r.state === 'in_lead_review') && r.content_hash !== null;

/** The rows picked for bulk publishing (the hash each carries is the one shown in the queue). */
type Picked = Map<string, Report>;
/** Who holds the report's claim in its review state (the queues and the admin list). */
const claimHolder = (r: Report) =>
  r.state === 'in_qa' ? r.qa_claimed_by_name : r.state === 'in_lead_review' ? r.lead_claimed_by_name : null;

/** Lists that show who has each report open now (readers of all reports; decision 0067). */
const SHOWS_PRESENCE: ReportListKind[] = ['all', 'qa', 'qa-lead'];

const columns = (
  kind: ReportListKind,
  timezone: string,
  presence: Map<string, PresenceEditor[]>,
  picked?: { rows: Picked; toggle: (r: Report) => void },
): DataTableColumn<Report>[] => [
  ...(picked
    ? [
        {
          accessor: 'pick',
          title: 'Publish',
          render: (r: Report) =>
            publishable(r) ? (
              <Checkbox
                aria-label={`Pick ${r.student_name ?? 'this report'} (${r.programme_title ?? 'programme'}) to publish`}
                checked={picked.rows.has(r.id)}
                onClick={(e) => e.stopPropagation()}
                onKeyDown={(e) => e.stopPropagation()}
                onChange={() => picked.toggle(r)}
              />
            ) : null,
        },
      ]
    : []),
  {
    accessor: 'student_name',
    title: 'Student',
    render: (r) => (
      <Text size="sm" fw={500}>
        {r.student_name ?? '—'}
      </Text>
    ),
  },
  { accessor: 'programme_title', title: 'Programme', render: (r) => r.programme_title ?? '—' },
  { accessor: 'customer_name', title: 'School', render: (r) => r.customer_name ?? '—' },
  { accessor: 'timeframe_name', title: 'Timeframe' },
  ...(kind === 'partner'
    ? [
        {
          accessor: 'published_at',
          title: 'Published',
          render: (r: Report) => (r.published_at ? formatInZone(r.published_at, timezone, DATE_FORMAT) : '—'),
        },
      ]
    : [
        {
          accessor: 'state',
          title: 'State',
          render: (r: Report) => (
            <Group gap={4}>
              <StateBadge state={r.state} />
              {r.overdue && (
                <Badge color="red" variant="outline">
                  overdue
                </Badge>
              )}
            </Group>
          ),
        },
        {
          accessor: 'submit_by',
          title: 'Submit by',
          // A per-report extension (decision 0061) shows as the new date, marked "extended".
          render: (r: Report) =>
            r.extended_submit_by ? (
              <Group gap={4}>
                {r.submit_by}
                <Badge variant="light" title={`Timeframe: ${r.timeframe_submit_by}`}>
                  extended
                </Badge>
              </Group>
            ) : (
              r.submit_by
            ),
        },
      ]),
  ...(kind === 'qa' || kind === 'qa-lead'
    ? [
        {
          accessor: 'state_since',
          title: 'Waiting since',
          render: (r: Report) => formatInZone(r.state_since, timezone),
        },
        { accessor: 'claim', title: 'Claim', render: (r: Report) => <ClaimButton report={r} kind={kind} /> },
      ]
    : []),
  ...(kind === 'all'
    ? [{ accessor: 'claimed_by', title: 'Claimed by', render: (r: Report) => claimHolder(r) ?? '—' }]
    : []),
  ...(SHOWS_PRESENCE.includes(kind)
    ? [
        {
          accessor: 'open_now',
          title: 'Open now',
          render: (r: Report) => <PresenceBadges editors={presence.get(r.id)} />,
        },
      ]
    : []),
];

interface Props {
  kind: ReportListKind;
  title: string;
  description: string;
  empty: string;
}

/**
 * The half-term report lists (decision 0057): all reports (filters), mine, the QA and QA-lead queues
 * (oldest first, claim in place), and the partner's published reports. Rows open the report.
 */
export function ReportListPage({ kind, title, description, empty }: Props) {
  // A timeframe's details page links here with `?timeframe_id=`.
  const [params] = useSearchParams();
  const [timeframeId, setTimeframeId] = useState<string | null>(params.get('timeframe_id'));
  const [state, setState] = useState<string | null>(null);
  const [overdue, setOverdue] = useState(false);
  const [claimed, setClaimed] = useState<'any' | 'unclaimed' | 'me'>('any');
  const timezone = viewerTimezone(useSession((s) => s.user));
  const presence = usePresenceByReport(SHOWS_PRESENCE.includes(kind));
  const queue = kind === 'qa' || kind === 'qa-lead';
  const [picked, setPicked] = useState<Picked>(new Map());
  const bulk = useBulkPublish();
  const toggle = (r: Report) =>
    setPicked((now) => {
      const next = new Map(now);
      if (next.has(r.id)) next.delete(r.id);
      else next.set(r.id, r);
      return next;
    });
  const publishPicked = () => {
    const rows = [...picked.values()];
    bulk.mutate(
      rows.map((r) => ({ report_id: r.id, expected_hash: r.content_hash! })),
      {
        onSuccess: (answer) =>
          // Keep picked only what was not published, so the lead sees what is left.
          setPicked(
            new Map(
              rows
                .filter((r) => answer.items.some((i) => i.report_id === r.id && !i.ok))
                .map((r) => [r.id, r]),
            ),
          ),
      },
    );
  };
  const refusals = (bulk.data?.items ?? []).filter((i) => !i.ok);
  const nameOf = (id: string) => {
    const r = picked.get(id);
    return r ? `${r.student_name ?? 'Student'} (${r.programme_title ?? 'programme'})` : id;
  };
  const filters = {
    ...(timeframeId ? { timeframe_id: timeframeId } : {}),
    ...(state ? { state } : {}),
    ...(overdue ? { overdue: true } : {}),
    ...(queue && claimed !== 'any' ? { claimed } : {}),
  };
  return (
    <ResourceListPage<Report, typeof filters>
      title={title}
      eyebrow="Half-term reports"
      description={description}
      noun={NOUN[kind]}
      filters={filters}
      toolbar={
        kind === 'partner' ? undefined : (
          <Group>
            <TimeframeSelect value={timeframeId} onChange={setTimeframeId} />
            {!queue && (
              <Select
                aria-label="State"
                placeholder="Any state"
                clearable
                value={state}
                onChange={setState}
                data={REPORT_STATES.map((s) => ({ value: s, label: stateLabel(s) }))}
              />
            )}
            {!queue && (
              <Checkbox
                label="Overdue only"
                checked={overdue}
                onChange={(e) => setOverdue(e.currentTarget.checked)}
              />
            )}
            {kind === 'qa-lead' && (
              <Button
                disabled={picked.size === 0}
                loading={bulk.isPending}
                onClick={publishPicked}
                title="Publishes each picked report as QA approved it (its hash); one that moved since is left out"
              >
                Publish picked ({picked.size})
              </Button>
            )}
            {queue && (
              <SegmentedControl
                aria-label="Claimed by"
                value={claimed}
                onChange={(v) => setClaimed(v)}
                data={[
                  { value: 'any', label: 'All' },
                  { value: 'unclaimed', label: 'Unclaimed' },
                  { value: 'me', label: 'Claimed by me' },
                ]}
              />
            )}
          </Group>
        )
      }
      useList={reportList(kind)}
      rowHref={(r) => `/half-term-report/${r.id}`}
      rowLabel={(r) =>
        `${r.student_name ?? 'Student'}, ${r.programme_title ?? 'programme'}, ${stateLabel(r.state)}`
      }
      empty={{ none: empty, search: 'No report matches.' }}
      columns={columns(kind, timezone, presence, kind === 'qa-lead' ? { rows: picked, toggle } : undefined)}
      notice={
        kind === 'qa-lead' && (bulk.error || refusals.length > 0) ? (
          <Stack gap={4}>
            {bulk.error && (
              <Alert color="red" role="alert" title="Nothing was published">
                {actionErrorText(bulk.error)}
              </Alert>
            )}
            {refusals.length > 0 && (
              <Alert color="yellow" role="alert" title={`${refusals.length} not published`}>
                <List size="sm">
                  {refusals.map((i) => (
                    <List.Item key={i.report_id}>
                      {nameOf(i.report_id)}: {i.detail}
                    </List.Item>
                  ))}
                </List>
              </Alert>
            )}
          </Stack>
        ) : undefined
      }
    />
  );
}

export const AllReportsPage = () => (
  <ReportListPage
    kind="all"
    title="Half-term reports"
    description="Every report you may see, with its state and deadline."
    empty="No reports yet. Generate them from a report submission timeframe."
  />
);
export const MyReportsPage = () => (
  <ReportListPage
    kind="mine"
    title="My half-term reports"
    description="Reports you write or co-write."
    empty="You have no reports to write."
  />
);
export const QaQueuePage = () => (
  <ReportListPage
    kind="qa"
    title="Half-term reports QA"
    description="Submitted reports waiting for QA review, oldest first. Claim one to review it."
    empty="Nothing waiting for QA review."
  />
);
export const QaLeadQueuePage = () => (
  <ReportListPage
    kind="qa-lead"
    title="Half-term reports QA lead"
    description="QA-approved reports waiting for sign-off, oldest first."
    empty="Nothing waiting for sign-off."
  />
);
export const PartnerReportsPage = () => (
  <ReportListPage
    kind="partner"
    title="Half-term reports"
    description="Published reports on your students."
    empty="No published reports yet."
  />
);
