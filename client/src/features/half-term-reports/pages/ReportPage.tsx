import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Code,
  Grid,
  Group,
  Select,
  Skeleton,
  Stack,
  Text,
  Timeline,
  Title,
} from '@mantine/core';
import { lazy, Suspense, useEffect, useRef, useState, type ReactNode } from 'react';
import { applySuggestion, revertSuggestion } from '@handlewithcare/prosemirror-suggest-changes';
import type { Editor } from '@tiptap/react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import type * as Y from 'yjs';
import { colourFor, suggestionsIn, type Suggestion } from '@portal/projections/report-suggestions';
import type { RefusedEdit } from '../../../shared/collab/collab-connection';
import {
  factText,
  reportContentOf,
  reportHashOf,
  sectionLengths,
  type ContentNode,
  type ReportFact,
} from '@portal/projections/report-content';
import { ApiError } from '../../../shared/api/client';
import { downloadFile } from '../../../shared/api/download';
import { formatInZone, viewerTimezone } from '../../../shared/dates';
import { notifyError } from '../../../shared/notify';
import { useSession } from '../../../shared/session';
import { PRODUCT_NAME } from '../../../shared/ui/BrandMark';
import { actionErrorText } from '../../../shared/ui/action-error';
import { TextStepModal } from '../../../shared/ui/TextStepModal';
import {
  refreshFactsOnOpen,
  reports,
  stateColor,
  stateLabel,
  useReportAction,
  useRevisions,
  useTimeline,
  useVerify,
  useViews,
  type ReportDetail,
} from '../api';

const CollabEditor = lazy(() => import('../../../shared/collab/CollabEditor'));

type Mode = 'edit' | 'suggest' | 'view';
const RANK: Record<Mode, number> = { view: 0, suggest: 1, edit: 2 };

/**
 * The mode the editor opens in: the one asked for, capped by what the state and role allow. A reviewer
 * who may edit a report under review opens suggesting (editing directly is their choice).
 */
export function effectiveMode(
  requested: string | undefined,
  allowed: Mode | null,
  state?: string,
): { mode: Mode; capped: boolean } {
  const max: Mode = allowed ?? 'view';
  const review = state === 'in_qa' || state === 'in_lead_review';
  const fallback: Mode = max === 'edit' && review ? 'suggest' : max;
  const asked: Mode =
    requested === 'edit' || requested === 'suggest' || requested === 'view' ? requested : fallback;
  const mode: Mode = RANK[asked] <= RANK[max] ? asked : max;
  return { mode, capped: RANK[asked] > RANK[max] };
}

const LABELS: Record<string, string> = {
  submit: 'Submit for QA',
  withdraw: 'Withdraw submission',
  'qa/claim': 'Claim for QA',
  'qa/release': 'Release',
  'qa/request-changes': 'Request changes',
  'qa/approve': 'Approve',
  'qa/revoke-approval': 'Revoke approval',
  'lead/claim': 'Claim for sign-off',
  'lead/release': 'Release',
  'lead/return': 'Return',
  'lead/publish': 'Publish',
  'lead/revoke-publication': 'Revoke publication',
  discard: 'Discard',
  restore: 'Restore',
  'refresh-facts': 'Refresh facts',
};
const SIGNED = new Set(['submit', 'qa/approve', 'lead/publish']);
const WITH_REASON = new Set([
  'qa/request-changes',
  'qa/revoke-approval',
  'lead/return',
  'lead/revoke-publication',
  'discard',
]);

/** Renders frozen ProseMirror JSON (a published revision) without an editor. */
export function ContentView({ node }: { node: ContentNode }): ReactNode {
  const children = (node.content ?? []).map((child, i) => <ContentView key={i} node={child} />);
  switch (node.type) {
    case 'doc':
      return <div>{children}</div>;
    case 'heading':
      return (
        <Title
          order={Math.min(6, Math.max(2, Number(node.attrs?.level ?? 2))) as 2 | 3 | 4 | 5 | 6}
          fz="h5"
          mt="sm"
        >
          {children}
        </Title>
      );
    case 'paragraph':
      return <Text mb="xs">{children}</Text>;
    case 'bulletList':
      return <ul>{children}</ul>;
    case 'orderedList':
      return <ol>{children}</ol>;
    case 'listItem':
      return <li>{children}</li>;
    case 'blockquote':
      return <blockquote>{children}</blockquote>;
    case 'hardBreak':
      return <br />;
    case 'factBlock':
      return (
        <Text size="sm" mb="xs" px="xs" py={4} bg="gray.1" role="note" data-fact-block>
          {factText(node.attrs as unknown as ReportFact)}
        </Text>
      );
    case 'text': {
      let out: ReactNode = node.text ?? '';
      for (const mark of node.marks ?? []) {
        if (mark.type === 'bold') out = <strong>{out}</strong>;
        else if (mark.type === 'italic') out = <em>{out}</em>;
        else if (mark.type === 'underline') out = <u>{out}</u>;
        else if (mark.type === 'strike') out = <s>{out}</s>;
        else if (mark.type === 'subscript') out = <sub>{out}</sub>;
        else if (mark.type === 'superscript') out = <sup>{out}</sup>;
        else if (mark.type === 'code') out = <code>{out}</code>;
      }
      return <>{out}</>;
    }
    default:
      return <>{children}</>;
  }
}

function Workflow({
  report,
  hashOf,
  waitingForText,
}: {
  report: ReportDetail;
  hashOf: () => Promise<string>;
  /** The open editor's text is not yet the server's: a signature of it would be refused. */
  waitingForText: boolean;
}) {
  const action = useReportAction();
  const [asking, setAsking] = useState<string | null>(null);
  const [returnTo, setReturnTo] = useState<string | null>('writer');
  const run = async (name: string, reason?: string) => {
    const body: Record<string, unknown> = {};
    if (SIGNED.has(name)) body.expected_hash = await hashOf();
    if (reason !== undefined) body.reason = reason;
    if (name === 'lead/return') body.to = returnTo ?? 'writer';
    action.mutate({ id: report.id, action: name, body }, { onSuccess: () => setAsking(null) });
  };
  if (report.actions.length === 0) return null;
  return (
    <Stack gap="xs">
      <Group gap="xs">
        {report.actions.map((name) => (
          <Button
            key={name}
            size="sm"
            variant={SIGNED.has(name) || name.endsWith('claim') ? 'filled' : 'default'}
            color={name === 'discard' || name.startsWith('lead/revoke') ? 'red' : undefined}
            loading={action.isPending && action.variables?.action === name}
            disabled={waitingForText && SIGNED.has(name)}
            onClick={() => (WITH_REASON.has(name) ? setAsking(name) : void run(name))}
          >
            {LABELS[name] ?? name}
          </Button>
        ))}
      </Group>
      {waitingForText && report.actions.some((name) => SIGNED.has(name)) && (
        <Text size="xs" c="dimmed" role="status">
          Waiting for the text to be saved before it can be signed…
        </Text>
      )}
      {action.error && (
        <Alert color="red" role="alert" title="Not done">
          {actionErrorText(action.error)}
        </Alert>
      )}
      <TextStepModal
        title={asking ? (LABELS[asking] ?? asking) : ''}
        opened={asking !== null}
        onClose={() => setAsking(null)}
        onSubmit={(text) => void run(asking!, text)}
        submitLabel={asking ? (LABELS[asking] ?? 'Send') : 'Send'}
        pending={action.isPending}
        label="Reason"
        requiredMessage="Say why"
      >
        {asking === 'lead/return' && (
          <Select
            label="Return to"
            value={returnTo}
            onChange={setReturnTo}
            data={[
              { value: 'writer', label: 'The writers' },
              { value: 'qa', label: 'QA review' },
            ]}
          />
        )}
      </TextStepModal>
    </Stack>
  );
}

/** Timeline titles that read better than the event name. */
const TIMELINE_TITLE: Record<string, string> = {
  HalfTermReportDirectEditDuringReview: 'Edited directly during review',
};

function History({ id, partner }: { id: string; partner: boolean }) {
  const timezone = viewerTimezone(useSession((s) => s.user));
  const revisions = useRevisions(id);
  const timeline = useTimeline(id);
  const [check, setCheck] = useState(false);
  const verify = useVerify(id, check);
  const views = useViews(id, !partner);
  return (
    <Stack gap="md">
      <Card withBorder radius="md">
        <Title order={2} fz="h5" mb="xs">
          Revisions
        </Title>
        {(revisions.data?.items ?? []).length === 0 ? (
          <Text size="sm" c="dimmed">
            Not published yet.
          </Text>
        ) : (
          <Stack gap={4}>
            {revisions.data!.items.map((r) => (
              <Text size="sm" key={r.revision}>
                Revision {r.revision} · {formatInZone(r.published_at, timezone)} ·{' '}
                <Code>{r.hash.slice(0, 12)}</Code>
                {r.revoked_at ? ` · revoked (${r.revoked_reason ?? ''})` : ''} ·{' '}
                <Anchor
                  component="button"
                  size="sm"
                  onClick={() =>
                    void downloadFile(
                      reports.url(id, '/pdf'),
                      { revision: r.revision },
                      `half-term-report-${id}-r${r.revision}.pdf`,
                    ).catch((e: unknown) => notifyError(e))
                  }
                >
                  PDF
                </Anchor>
              </Text>
            ))}
          </Stack>
        )}
        {!partner && (
          <Group mt="sm" gap="xs">
            <Button size="xs" variant="default" onClick={() => setCheck(true)} loading={verify.isFetching}>
              Verify sign-offs
            </Button>
            {verify.data && (
              <Badge color={verify.data.valid ? 'green' : 'red'}>
                {verify.data.valid ? 'All sign-offs match their text' : 'A sign-off does not match'}
              </Badge>
            )}
          </Group>
        )}
      </Card>
      {!partner && (views.data?.items ?? []).length > 0 && (
        <Card withBorder radius="md">
          <Title order={2} fz="h5" mb="xs">
            Read by the school
          </Title>
          <Stack gap={2}>
            {views.data!.items.map((v) => (
              <Text size="sm" key={`${v.viewer_id}-${v.at}-${v.via}`}>
                {v.viewer_name ?? v.viewer_id} · {v.via === 'pdf' ? 'downloaded' : 'opened'} revision{' '}
                {v.revision} · {formatInZone(v.at, timezone)}
              </Text>
            ))}
          </Stack>
        </Card>
      )}
      {!partner && (
        <Card withBorder radius="md">
          <Title order={2} fz="h5" mb="xs">
            Timeline
          </Title>
          <Timeline bulletSize={12} lineWidth={2}>
            {(timeline.data?.items ?? []).map((t) => (
              <Timeline.Item
                key={t.position}
                title={TIMELINE_TITLE[t.type] ?? t.type.replace('HalfTermReport', '')}
              >
                <Text size="xs" c="dimmed">
                  {formatInZone(t.at, timezone)} · {stateLabel(t.state)}
                  {t.by_name ? ` · ${t.by_name}` : ''}
                  {t.reason ? ` · ${t.reason}` : ''}
                </Text>
              </Timeline.Item>
            ))}
          </Timeline>
        </Card>
      )}
    </Stack>
  );
}

/** Characters per section, live from the document this browser edits. */
function SectionCounts({ doc }: { doc: Y.Doc | null }) {
  const [lengths, setLengths] = useState<{ title: string; characters: number }[]>([]);
  useEffect(() => {
    if (!doc) return undefined;
    const update = () => setLengths(sectionLengths(reportContentOf(doc)));
    update();
    doc.on('update', update);
    return () => doc.off('update', update);
  }, [doc]);
  if (lengths.length === 0) return null;
  return (
    <Card withBorder radius="md">
      <Title order={2} fz="h5" mb="xs">
        Sections
      </Title>
      <Stack gap={2}>
        {lengths.map((l) => (
          <Text key={l.title} size="sm" c={l.characters === 0 ? 'orange' : undefined}>
            {l.title}: {l.characters} characters
          </Text>
        ))}
      </Stack>
    </Card>
  );
}

/** The open suggestions, live from the document, each with its author and accept / reject. */
function SuggestionCards({
  doc,
  editor,
  report,
  canResolve,
}: {
  doc: Y.Doc | null;
  editor: Editor | null;
  report: ReportDetail;
  canResolve: boolean;
}) {
  const [open, setOpen] = useState<Suggestion[]>([]);
  useEffect(() => {
    if (!doc) return undefined;
    const update = () => setOpen(suggestionsIn(reportContentOf(doc)));
    update();
    doc.on('update', update);
    return () => doc.off('update', update);
  }, [doc]);
  const names = new Map(report.suggestions.map((s) => [s.id, s.author_name]));
  const resolve = (id: string, accept: boolean) => {
    if (!editor) return;
    const command = accept ? applySuggestion(id) : revertSuggestion(id);
    command(editor.state, editor.view.dispatch);
  };
  const resolved = report.suggestions.filter((s) => s.state !== 'open');
  return (
    <Card withBorder radius="md" aria-label="Suggestions">
      <Title order={2} fz="h5" mb="xs">
        Suggestions {open.length > 0 && <Badge ml={4}>{open.length} open</Badge>}
      </Title>
      {open.length === 0 && (
        <Text size="sm" c="dimmed">
          No open suggestions.
        </Text>
      )}
      <Stack gap="xs">
        {open.map((s) => (
          <Card
            key={s.id}
            withBorder
            radius="sm"
            p="xs"
            data-testid="suggestion-card"
            style={{ borderLeft: `4px solid ${s.authorId ? colourFor(s.authorId) : '#868e96'}` }}
          >
            <Text size="xs" fw={600}>
              {names.get(s.id) ?? (s.authorId === report.writer_ids[0] ? 'The writer' : 'A reviewer')}
            </Text>
            {s.deleted && (
              <Text size="sm" td="line-through" c="dimmed">
                {s.deleted}
              </Text>
            )}
            {s.inserted && <Text size="sm">{s.inserted}</Text>}
            {canResolve && (
              <Group gap={4} mt={4}>
                <Button size="compact-xs" color="teal" onClick={() => resolve(s.id, true)}>
                  Accept
                </Button>
                <Button size="compact-xs" variant="default" onClick={() => resolve(s.id, false)}>
                  Reject
                </Button>
              </Group>
            )}
          </Card>
        ))}
      </Stack>
      {resolved.length > 0 && (
        <Stack gap={2} mt="sm">
          {resolved.slice(0, 10).map((s) => (
            <Text size="xs" c="dimmed" key={s.id}>
              {s.state === 'accepted' ? 'Accepted' : 'Rejected'} by {s.resolved_by_name ?? 'someone'}: “
              {(s.inserted || s.deleted).slice(0, 60)}”
            </Text>
          ))}
        </Stack>
      )}
    </Card>
  );
}

const REFUSED_REASON: Record<string, string> = {
  direct_edit: 'You may only suggest changes now',
  foreign_suggestion: 'It changed someone else’s suggestion',
  formatting: 'Formatting cannot be suggested',
  sections: 'Template sections stay as they are',
  read_only: 'The report was no longer open for your edits',
};

/** Edits the server refused: kept, shown to their author so nothing typed is lost. */
function RefusedEdits({ report, latest }: { report: ReportDetail; latest: RefusedEdit | null }) {
  const items = report.refused_edits;
  if (items.length === 0 && !latest) return null;
  return (
    <Alert color="orange" variant="light" title="Edits not included" data-testid="refused-edits">
      <Stack gap={4}>
        {latest && !items.some((i) => i.id === latest.ref) && (
          <Text size="sm">
            {REFUSED_REASON[latest.refused] ?? latest.refused}: “{latest.text ?? ''}” was kept aside.
          </Text>
        )}
        {items.slice(0, 5).map((i) => (
          <Text size="sm" key={i.id}>
            {i.at.slice(0, 16).replace('T', ' ')} · {REFUSED_REASON[i.reason] ?? i.reason}: “
            {i.inserted || i.removed}”
          </Text>
        ))}
      </Stack>
    </Alert>
  );
}

/** half-term-report/:id/:mode?: the co-written text, its state and the workflow buttons (decision 0057). */
export function ReportPage() {
  const { id = '', mode: requested } = useParams();
  const query = reports.useOne(id);
  const navigate = useNavigate();
  const [doc, setDoc] = useState<Y.Doc | null>(null);
  const [editor, setEditor] = useState<Editor | null>(null);
  const [refused, setRefused] = useState<RefusedEdit | null>(null);
  const [textSettled, setTextSettled] = useState(false);
  // A writer opening a draft gets its facts refreshed once (the button refreshes again on demand).
  const refreshed = useRef<string | null>(null);
  const mayRefresh = query.data?.actions.includes('refresh-facts') ?? false;
  useEffect(() => {
    if (!mayRefresh || refreshed.current === id) return;
    refreshed.current = id;
    void refreshFactsOnOpen(id);
  }, [id, mayRefresh]);

  if (query.isPending)
    return (
      <Stack aria-busy="true" aria-label="Loading the report">
        <Skeleton height={40} width="50%" />
        <Skeleton height={300} />
      </Stack>
    );
  if (query.isError) {
    const notFound = query.error instanceof ApiError && query.error.status === 404;
    return (
      <Alert
        color={notFound ? 'gray' : 'red'}
        title={notFound ? 'Report not found' : 'The report could not be loaded'}
      >
        <Anchor component={Link} to="/my-half-term-reports">
          Back to my reports
        </Anchor>
      </Alert>
    );
  }
  const report = query.data;
  const partner = report.published_content !== null && report.allowed_mode === null;
  const { mode, capped } = effectiveMode(requested, report.allowed_mode, report.state);
  // The hash of the text this browser shows (the same canonical form the server signs).
  const hashOf = async () => (doc ? (await reportHashOf(report.id, doc)).hash : (report.content_hash ?? ''));
  return (
    <Stack gap="md">
      <title>{`${report.student_name ?? 'Report'} · Half-term report · ${PRODUCT_NAME}`}</title>
      <Group justify="space-between" align="flex-start">
        <Stack gap={2}>
          <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
            Half-term report · {report.timeframe_name}
          </Text>
          <Title order={1} fz="h2">
            {report.student_name ?? 'Student'} · {report.programme_title ?? 'Programme'}
          </Title>
          <Group gap="xs">
            <Badge variant="light" color={stateColor(report.state)} data-testid="report-state">
              {stateLabel(report.state)}
            </Badge>
            <Text size="sm" c="dimmed">
              {report.customer_name ?? ''} · submit by {report.submit_by} · revision {report.revision}
            </Text>
          </Group>
        </Stack>
        {!partner && (
          <Workflow report={report} hashOf={hashOf} waitingForText={doc !== null && !textSettled} />
        )}
      </Group>
      <Grid>
        <Grid.Col span={{ base: 12, md: 8 }}>
          <Card withBorder radius="md">
            {partner ? (
              <ContentView node={report.published_content as unknown as ContentNode} />
            ) : (
              <Stack gap="xs">
                {report.name_conflicts.length > 0 && (
                  <Alert color="red" variant="light" title="Another student’s name is in this report">
                    {report.name_conflicts.join(', ')}: check before submitting.
                  </Alert>
                )}
                <RefusedEdits report={report} latest={refused} />
                {capped && (
                  <Alert color="yellow" variant="light">
                    {requested === 'suggest' || requested === 'edit'
                      ? 'You may only read this report in its current state: it opens read-only.'
                      : 'You may only read this report in its current state.'}
                  </Alert>
                )}
                <Group justify="space-between" gap="xs">
                  <Text size="sm" c="dimmed" data-testid="editor-mode">
                    {mode === 'edit'
                      ? 'You are editing. Everyone here sees each change as it is typed.'
                      : mode === 'suggest'
                        ? 'You are suggesting: your changes show as suggestions for the others to accept or reject.'
                        : 'Read-only: the report is not yours to edit in this state.'}
                  </Text>
                  {report.allowed_mode === 'edit' && mode !== 'view' && (
                    <Button
                      size="compact-xs"
                      variant="default"
                      onClick={() =>
                        void navigate(
                          `/half-term-report/${report.id}/${mode === 'edit' ? 'suggest' : 'edit'}`,
                          {
                            replace: true,
                          },
                        )
                      }
                    >
                      {mode === 'edit' ? 'Suggest instead' : 'Edit directly'}
                    </Button>
                  )}
                </Group>
                <Suspense fallback={<Skeleton height={300} />}>
                  <CollabEditor
                    documentName={`half-term-report:${report.id}`}
                    readOnly={mode === 'view'}
                    suggesting={mode === 'suggest'}
                    guardSections
                    label="Report text"
                    onDocument={setDoc}
                    onEditor={setEditor}
                    onRefused={setRefused}
                    onSettled={setTextSettled}
                  />
                </Suspense>
              </Stack>
            )}
          </Card>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 4 }}>
          <Stack gap="md">
            {!partner && (
              <SuggestionCards doc={doc} editor={editor} report={report} canResolve={mode !== 'view'} />
            )}
            {!partner && <SectionCounts doc={doc} />}
            <History id={report.id} partner={partner} />
          </Stack>
        </Grid.Col>
      </Grid>
    </Stack>
  );
}

export default ReportPage;
