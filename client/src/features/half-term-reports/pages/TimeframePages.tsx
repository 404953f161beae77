import { BatchPdfButton } from '../components/BatchPdfButton';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Group,
  Modal,
  Select,
  SimpleGrid,
  Skeleton,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { isAdmin } from '../../../app/access';
import { useAreaCommand } from '../../../shared/api/resource';
import { usePermissions } from '../../../shared/session';
import { PRODUCT_NAME } from '../../../shared/ui/BrandMark';
import { actionErrorText } from '../../../shared/ui/action-error';
import { ResourceListPage } from '../../../shared/ui/ResourceListPage';
import {
  stateLabel,
  timeframes,
  useGenerate,
  useQaMetrics,
  useTimeframeDetails,
  type Timeframe,
  type TimeframeInput,
} from '../api';
import { DayInput } from '../../../shared/ui/DayInput';
import { formatDay } from '../../../shared/dates';

const HALF_TERMS = ['autumn_1', 'autumn_2', 'spring_1', 'spring_2', 'summer_1', 'summer_2'];
const halfTermLabel = (h: string) => h.replace('_', ' ').replace(/^./, (c) => c.toUpperCase());
const DATES = [
  ['period_from', 'Period from'],
  ['period_to', 'Period to'],
  ['opens_at', 'Writing opens'],
  ['submit_by', 'Submit by'],
  ['qa_by', 'QA by'],
  ['release_at', 'Release to partners'],
  ['closes_at', 'Hard close (optional)'],
] as const;

type Draft = Record<string, string>;

const draftOf = (t?: Timeframe): Draft => ({
  name: t?.name ?? '',
  academic_year: t?.academic_year ?? '',
  half_term: t?.half_term ?? 'autumn_1',
  period_from: t?.period_from ?? '',
  period_to: t?.period_to ?? '',
  opens_at: t?.opens_at ?? '',
  submit_by: t?.submit_by ?? '',
  qa_by: t?.qa_by ?? '',
  release_at: t?.release_at ?? '',
  closes_at: t?.closes_at ?? '',
});

const bodyOf = (d: Draft): TimeframeInput =>
  ({
    ...d,
    closes_at: d.closes_at ? d.closes_at : null,
  }) as unknown as TimeframeInput;

/** The timeframe form (create and edit): name, year, half term and the dates, checked by the server. */
function TimeframeForm({ initial, onSaved }: { initial?: Timeframe; onSaved: (id: string) => void }) {
  const [draft, setDraft] = useState<Draft>(() => draftOf(initial));
  const save = useAreaCommand(
    timeframes.root,
    (body: TimeframeInput) => (initial ? timeframes.update(initial.id, body) : timeframes.create(body)),
    { success: 'Timeframe saved', silentErrors: true },
  );
  const set = (key: string) => (value: string) => setDraft((d) => ({ ...d, [key]: value }));
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate(bodyOf(draft), { onSuccess: (w) => onSaved(w.id) });
      }}
    >
      <Stack gap="sm">
        <TextInput
          label="Name"
          required
          value={draft.name}
          onChange={(e) => set('name')(e.currentTarget.value)}
        />
        <Group grow>
          <TextInput
            label="Academic year"
            placeholder="2026/27"
            required
            value={draft.academic_year}
            onChange={(e) => set('academic_year')(e.currentTarget.value)}
          />
          <Select
            label="Half term"
            value={draft.half_term}
            onChange={(v) => set('half_term')(v ?? 'autumn_1')}
            data={HALF_TERMS.map((h) => ({ value: h, label: halfTermLabel(h) }))}
          />
        </Group>
        <SimpleGrid cols={2}>
          {DATES.map(([key, label]) => (
            <DayInput
              key={key}
              label={label}
              required={key !== 'closes_at'}
              value={draft[key] ?? ''}
              onChange={(value) => set(key)(value)}
            />
          ))}
        </SimpleGrid>
        {save.error && (
          <Alert color="red" role="alert">
            {actionErrorText(save.error)}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button type="submit" loading={save.isPending}>
            Save
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** report-submission-timeframes: the list; administrators add timeframes. */
export function TimeframesPage() {
  const admin = isAdmin(usePermissions());
  const [adding, setAdding] = useState(false);
  const navigate = useNavigate();
  return (
    <ResourceListPage<Timeframe>
      title="Report submission timeframes"
      eyebrow="Half-term reports"
      description="When half-term reports are written, submitted, reviewed and released (network time)."
      noun="timeframes"
      search={{ label: 'Search timeframes' }}
      action={admin && <Button onClick={() => setAdding(true)}>New timeframe</Button>}
      useList={timeframes.useList}
      rowHref={(t) => `/report-submission-timeframes/${t.id}/details`}
      rowLabel={(t) => t.name}
      empty={{ none: 'No timeframes yet.', search: 'No timeframe matches.' }}
      columns={[
        { accessor: 'name', title: 'Name' },
        { accessor: 'half_term', title: 'Half term', render: (t) => halfTermLabel(t.half_term) },
        { accessor: 'submit_by', title: 'Submit by', render: (t) => formatDay(t.submit_by) },
        { accessor: 'release_at', title: 'Release', render: (t) => formatDay(t.release_at) },
        {
          accessor: 'status',
          title: 'Writing',
          render: (t) => (
            <Badge variant="light" color={t.status === 'open' ? 'green' : 'gray'}>
              {t.status.charAt(0).toUpperCase() + t.status.slice(1)}
            </Badge>
          ),
        },
      ]}
    >
      <Modal opened={adding} onClose={() => setAdding(false)} title="New timeframe" size="lg">
        <TimeframeForm onSaved={(id) => void navigate(`/report-submission-timeframes/${id}/details`)} />
      </Modal>
    </ResourceListPage>
  );
}

/** report-submission-timeframes/:id: edit a timeframe (administrators). */
export function TimeframeEditPage() {
  const { id = '' } = useParams();
  const query = timeframes.useOne(id);
  const navigate = useNavigate();
  if (query.isPending) return <Skeleton height={300} aria-label="Loading the timeframe" />;
  if (query.isError)
    return (
      <Alert color="gray" title="Timeframe not found">
        <Anchor component={Link} to="/report-submission-timeframes">
          Back to timeframes
        </Anchor>
      </Alert>
    );
  return (
    <Stack maw={720}>
      <title>{`${query.data.name} · ${PRODUCT_NAME}`}</title>
      <Title order={1} fz="h2">
        {query.data.name}
      </Title>
      <TimeframeForm
        initial={query.data}
        onSaved={() => void navigate(`/report-submission-timeframes/${id}/details`)}
      />
    </Stack>
  );
}

/** report-submission-timeframes/:id/details: progress by state, writer and school; generate reports. */
export function TimeframeDetailsPage() {
  const { id = '' } = useParams();
  const details = useTimeframeDetails(id);
  const generate = useGenerate();
  const metrics = useQaMetrics(id);
  const admin = isAdmin(usePermissions());
  if (details.isPending) return <Skeleton height={300} aria-label="Loading the timeframe" />;
  if (details.isError)
    return (
      <Alert color="gray" title="Timeframe not found">
        <Anchor component={Link} to="/report-submission-timeframes">
          Back to timeframes
        </Anchor>
      </Alert>
    );
  const { timeframe: t, counts, teachers, customers } = details.data;
  const progress = (title: string, rows: typeof teachers, perSchool = false) => (
    <Card withBorder radius="md">
      <Title order={2} fz="h5" mb="xs">
        {title}
      </Title>
      <Table aria-label={title}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Name</Table.Th>
            <Table.Th>Reports</Table.Th>
            <Table.Th>With writers</Table.Th>
            <Table.Th>Submitted</Table.Th>
            <Table.Th>Published</Table.Th>
            <Table.Th>Overdue</Table.Th>
            {perSchool && admin && <Table.Th>PDFs</Table.Th>}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((r) => (
            <Table.Tr key={r.id ?? 'none'}>
              <Table.Td>{r.name ?? 'Unassigned'}</Table.Td>
              <Table.Td>{r.total}</Table.Td>
              <Table.Td>{r.with_writers}</Table.Td>
              <Table.Td>{r.submitted}</Table.Td>
              <Table.Td>{r.published}</Table.Td>
              <Table.Td c={r.overdue ? 'red' : undefined}>{r.overdue}</Table.Td>
              {perSchool && admin && (
                <Table.Td>
                  {r.id && r.published > 0 ? (
                    <BatchPdfButton
                      compact
                      timeframeId={t.id}
                      customerId={r.id}
                      label={`Zip of ${r.published}`}
                    />
                  ) : (
                    '—'
                  )}
                </Table.Td>
              )}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Card>
  );
  return (
    <Stack gap="md">
      <title>{`${t.name} · ${PRODUCT_NAME}`}</title>
      <Group justify="space-between">
        <Stack gap={2}>
          <Title order={1} fz="h2">
            {t.name}
          </Title>
          <Text size="sm" c="dimmed">
            {halfTermLabel(t.half_term)} {t.academic_year} · period {formatDay(t.period_from)} –{' '}
            {formatDay(t.period_to)} · opens {formatDay(t.opens_at)} · submit by {formatDay(t.submit_by)} · QA
            by {formatDay(t.qa_by)} · release {formatDay(t.release_at)} ({t.timezone})
          </Text>
        </Stack>
        {admin && (
          <Group>
            <Button variant="default" component={Link} to={`/report-submission-timeframes/${t.id}`}>
              Edit
            </Button>
            <Button loading={generate.isPending} onClick={() => generate.mutate(t.id)}>
              Generate reports
            </Button>
            {(counts.published ?? 0) > 0 && (
              <BatchPdfButton timeframeId={t.id} label="Download published PDFs (zip)" />
            )}
          </Group>
        )}
      </Group>
      {generate.error && (
        <Alert color="red" role="alert">
          {actionErrorText(generate.error)}
        </Alert>
      )}
      <Group gap="xs" aria-label="Reports by state">
        {Object.entries(counts).map(([state, n]) => (
          <Badge key={state} variant="light" size="lg">
            {stateLabel(state)}: {n}
          </Badge>
        ))}
        {Object.keys(counts).length === 0 && <Text c="dimmed">No reports yet.</Text>}
      </Group>
      <Anchor component={Link} to={`/half-term-reports?timeframe_id=${t.id}`}>
        See the reports
      </Anchor>
      {progress('Progress per writer', teachers)}
      {progress('Progress per school', customers, true)}
      {metrics.data && metrics.data.reviewers.length > 0 && (
        <Card withBorder radius="md">
          <Title order={2} fz="h5" mb="xs">
            QA metrics
          </Title>
          <Table aria-label="QA metrics per reviewer">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Reviewer</Table.Th>
                <Table.Th>Claims</Table.Th>
                <Table.Th>Approved</Table.Th>
                <Table.Th>Changes requested</Table.Th>
                <Table.Th>Minutes to claim</Table.Th>
                <Table.Th>Minutes to decide</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {metrics.data.reviewers.map((r) => (
                <Table.Tr key={r.reviewer_id}>
                  <Table.Td>{r.name ?? r.reviewer_id}</Table.Td>
                  <Table.Td>{r.claims}</Table.Td>
                  <Table.Td>{r.approvals}</Table.Td>
                  <Table.Td>{r.changes_requested}</Table.Td>
                  <Table.Td>{r.minutes_to_claim ?? '—'}</Table.Td>
                  <Table.Td>{r.minutes_to_decide ?? '—'}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Card>
      )}
    </Stack>
  );
}
