import {
  defineProjection,
  FOLD_FROM,
  guardedSet,
  jsonbSet,
  type ProjectionEvent,
  type ProjectionTx,
} from '../projection.js';
import { ReportFold, sqlReportWrites, type ReportWrites } from './report-writes.js';
import {
  HALF_TERM_REPORT_EVENT_TYPES,
  REPORT_TEXT_EVENT_TYPES,
  REPORT_VIEW_EVENT_TYPES,
  TIMEFRAME_EVENT_TYPES,
  type HalfTermReportEvent,
  type ReportTextEvent,
  type ReportViewEvent,
  type ReportState,
  type TimeframeEvent,
  type TimeframeFields,
} from './half-term-reports.events.js';

export * from './half-term-reports.events.js';

export interface TimeframeRow {
  id: string;
  name: string;
  academic_year: string;
  half_term: string;
  network_id: string | null;
  timezone: string;
  period_from: string;
  period_to: string;
  opens_at: string;
  submit_by: string;
  qa_by: string;
  release_at: string;
  closes_at: string | null;
  scope: { customerIds: string[]; programmeIds: string[]; productIds: string[] };
  /** Days before submit-by writers are reminded (decision 0061). */
  reminder_offsets: number[];
  created_at: Date;
  updated_at: Date;
  version: string;
}

export interface HalfTermReportRow {
  id: string;
  timeframe_id: string;
  student_id: string;
  programme_id: string;
  customer_id: string;
  writer_ids: string[];
  qa_reviewer_id: string | null;
  lead_reviewer_id: string | null;
  state: ReportState;
  /** The revision being worked on (1 until a publication is revoked). */
  revision: number;
  /** The hash of the last sign-off (submit, QA approval, publication); null before the first. */
  content_hash: string | null;
  qa_claimed_by: string | null;
  lead_claimed_by: string | null;
  qa_approved_by: string | null;
  /** The revision partners may read (published and not revoked), or null. */
  published_revision: number | null;
  published_at: Date | null;
  submitted_at: Date | null;
  /** When the report entered its current state (queues: oldest first). */
  state_since: Date;
  unresolved_suggestions: number;
  lesson_counts: { teacherId: string; delivered: number; planned: number }[];
  /** This report's own submit-by (an extension), or null (decision 0061). */
  extended_submit_by: string | null;
  /** When a submit-by was last recorded as missed, and which. */
  deadline_missed_at: Date | null;
  missed_submit_by: string | null;
  created_at: Date;
  updated_at: Date;
  version: string;
}

/** Reminder offsets of timeframes that do not name theirs: a week before, and the day before. */
export const DEFAULT_REMINDER_OFFSETS: readonly number[] = [7, 1];

export interface ReportTimelineRow {
  event_id: string;
  report_id: string;
  type: string;
  by: string | null;
  /** The name of `by` (the timeline's "who"). */
  by_name?: string | null;
  reason: string | null;
  state: ReportState;
  hash: string | null;
  revision: number | null;
  at: Date;
  position: string;
}

export interface ReportViewRow {
  viewer_id: string;
  viewer_name: string | null;
  revision: number;
  via: 'view' | 'pdf';
  at: Date;
}

export interface ReportRevisionRow {
  report_id: string;
  revision: number;
  hash: string;
  canonical: string;
  document_revision: string;
  published_by: string;
  qa_approved_by: string | null;
  published_at: Date;
  revoked_at: Date | null;
  revoked_reason: string | null;
}

const timeframeColumns = (d: TimeframeFields) => ({
  name: d.name,
  academic_year: d.academicYear,
  half_term: d.halfTerm,
  network_id: d.networkId,
  timezone: d.timezone,
  period_from: d.periodFrom,
  period_to: d.periodTo,
  opens_at: d.opensAt,
  submit_by: d.submitBy,
  qa_by: d.qaBy,
  release_at: d.releaseAt,
  closes_at: d.closesAt,
});

/**
 * Half-term reports (issue 17, decision 0057): `rm_report_timeframes`, `rm_half_term_reports` (one row
 * per report, its workflow state and assignment), `rm_half_term_report_timeline` (every workflow event,
 * for the report's timeline) and `rm_half_term_report_revisions` (each published revision, frozen);
 * `rm_half_term_report_suggestions` and `rm_half_term_report_refused_edits` from the text stream
 * (decision 0060).
 */
export const halfTermReportsProjection = defineProjection<
  TimeframeEvent | HalfTermReportEvent | ReportViewEvent | ReportTextEvent
>()({
  name: 'half-term-reports',
  version: 2,
  tables: [
    'rm_report_timeframes',
    'rm_half_term_reports',
    'rm_half_term_report_timeline',
    'rm_half_term_report_revisions',
    'rm_half_term_report_views',
    'rm_half_term_report_suggestions',
    'rm_half_term_report_refused_edits',
  ],
  schema: [
    `CREATE TABLE IF NOT EXISTS rm_report_timeframes (
       id            uuid PRIMARY KEY,
       name          text NOT NULL,
       academic_year text NOT NULL,
       half_term     text NOT NULL,
       network_id    uuid,
       timezone      text NOT NULL,
       period_from   text NOT NULL,
       period_to     text NOT NULL,
       opens_at      text NOT NULL,
       submit_by     text NOT NULL,
       qa_by         text NOT NULL,
       release_at    text NOT NULL,
       closes_at     text,
       scope         jsonb NOT NULL,
       reminder_offsets jsonb NOT NULL DEFAULT '[7,1]',
       created_at    timestamptz NOT NULL,
       updated_at    timestamptz NOT NULL,
       version       bigint NOT NULL
     )`,
    `CREATE TABLE IF NOT EXISTS rm_half_term_reports (
       id                     uuid PRIMARY KEY,
       timeframe_id           uuid NOT NULL,
       student_id             uuid NOT NULL,
       programme_id           uuid NOT NULL,
       customer_id            uuid NOT NULL,
       writer_ids             jsonb NOT NULL,
       qa_reviewer_id         uuid,
       lead_reviewer_id       uuid,
       state                  text NOT NULL,
       revision               int NOT NULL DEFAULT 1,
       content_hash           text,
       qa_claimed_by          uuid,
       lead_claimed_by        uuid,
       qa_approved_by         uuid,
       published_revision     int,
       published_at           timestamptz,
       submitted_at           timestamptz,
       state_since            timestamptz NOT NULL,
       unresolved_suggestions int NOT NULL DEFAULT 0,
       lesson_counts          jsonb NOT NULL DEFAULT '[]',
       extended_submit_by     text,
       deadline_missed_at     timestamptz,
       missed_submit_by       text,
       created_at             timestamptz NOT NULL,
       updated_at             timestamptz NOT NULL,
       version                bigint NOT NULL
     )`,
    `CREATE INDEX IF NOT EXISTS rm_half_term_reports_timeframe ON rm_half_term_reports (timeframe_id, state)`,
    `CREATE INDEX IF NOT EXISTS rm_half_term_reports_queue ON rm_half_term_reports (state, state_since, id)`,
    // The QA and QA-lead queues (decision 0068): each page is read in `state_since, id` order straight
    // from its own partial index (joins for the 50 rows only), and the count from the same index.
    `CREATE INDEX IF NOT EXISTS rm_half_term_reports_qa_queue ON rm_half_term_reports (state_since, id)
       INCLUDE (qa_claimed_by, timeframe_id) WHERE state IN ('submitted', 'in_qa')`,
    `CREATE INDEX IF NOT EXISTS rm_half_term_reports_lead_queue ON rm_half_term_reports (state_since, id)
       INCLUDE (lead_claimed_by, timeframe_id) WHERE state IN ('qa_approved', 'in_lead_review')`,
    `CREATE INDEX IF NOT EXISTS rm_half_term_reports_customer ON rm_half_term_reports (customer_id)`,
    `CREATE TABLE IF NOT EXISTS rm_half_term_report_timeline (
       event_id  text PRIMARY KEY,
       report_id uuid NOT NULL,
       type      text NOT NULL,
       by_user   uuid,
       reason    text,
       state     text NOT NULL,
       hash      text,
       revision  int,
       at        timestamptz NOT NULL,
       position  bigint NOT NULL
     )`,
    `CREATE INDEX IF NOT EXISTS rm_half_term_report_timeline_report ON rm_half_term_report_timeline (report_id, position)`,
    `CREATE TABLE IF NOT EXISTS rm_half_term_report_revisions (
       report_id         uuid NOT NULL,
       revision          int NOT NULL,
       hash              text NOT NULL,
       canonical         text NOT NULL,
       document_revision text NOT NULL,
       published_by      uuid NOT NULL,
       qa_approved_by    uuid,
       published_at      timestamptz NOT NULL,
       revoked_at        timestamptz,
       revoked_reason    text,
       PRIMARY KEY (report_id, revision)
     )`,
    `CREATE TABLE IF NOT EXISTS rm_half_term_report_views (
       event_id  text PRIMARY KEY,
       report_id uuid NOT NULL,
       viewer_id uuid NOT NULL,
       revision  int NOT NULL,
       via       text NOT NULL,
       at        timestamptz NOT NULL
     )`,
    `CREATE INDEX IF NOT EXISTS rm_half_term_report_views_report ON rm_half_term_report_views (report_id, at)`,
    `CREATE TABLE IF NOT EXISTS rm_half_term_report_suggestions (
       report_id     uuid NOT NULL,
       suggestion_id text NOT NULL,
       author_id     uuid,
       inserted      text NOT NULL,
       deleted       text NOT NULL,
       made_at       timestamptz NOT NULL,
       state         text NOT NULL,
       resolved_by   uuid,
       resolved_at   timestamptz,
       PRIMARY KEY (report_id, suggestion_id)
     )`,
    `CREATE TABLE IF NOT EXISTS rm_half_term_report_refused_edits (
       event_id  text PRIMARY KEY,
       report_id uuid NOT NULL,
       by_user   uuid NOT NULL,
       reason    text NOT NULL,
       removed   text NOT NULL,
       inserted  text NOT NULL,
       at        timestamptz NOT NULL,
       position  bigint NOT NULL
     )`,
    `CREATE INDEX IF NOT EXISTS rm_half_term_report_refused_edits_report ON rm_half_term_report_refused_edits (report_id, position)`,
  ],
  handles: [
    ...TIMEFRAME_EVENT_TYPES,
    ...HALF_TERM_REPORT_EVENT_TYPES,
    ...REPORT_VIEW_EVENT_TYPES,
    ...REPORT_TEXT_EVENT_TYPES,
  ],
  apply: (e, tx) => applyEvent(e, tx, sqlReportWrites(tx)),
  // A rebuild's batches fold the reports they create and insert their timeline lines together (decision
  // 0088); a live batch goes event by event.
  async applyBatch(events, tx) {
    if (events.length < FOLD_FROM) {
      const writes = sqlReportWrites(tx);
      for (const e of events) await applyEvent(e, tx, writes);
      return;
    }
    const fold = await ReportFold.start(events, tx);
    for (const e of events) await applyEvent(e, tx, fold);
    await fold.write();
  },
});

type Event = ProjectionEvent & (TimeframeEvent | HalfTermReportEvent | ReportViewEvent | ReportTextEvent);

async function applyEvent(e: Event, tx: ProjectionTx, writes: ReportWrites): Promise<void> {
  const revision = e.revision.toString();
  const at = e.metadata.occurredAt;
  if (e.type === 'ReportSubmissionTimeframeCreated') {
    const d = e.data;
    const c = timeframeColumns(d);
    await tx.query(
      `INSERT INTO rm_report_timeframes (id, name, academic_year, half_term, network_id, timezone, period_from,
         period_to, opens_at, submit_by, qa_by, release_at, closes_at, scope, created_at, updated_at, version,
         reminder_offsets)
       VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14::jsonb,$15,$15,$16::bigint,$17::jsonb)
       ON CONFLICT (id) DO NOTHING`,
      [
        d.timeframeId,
        c.name,
        c.academic_year,
        c.half_term,
        c.network_id,
        c.timezone,
        c.period_from,
        c.period_to,
        c.opens_at,
        c.submit_by,
        c.qa_by,
        c.release_at,
        c.closes_at,
        JSON.stringify(d.scope),
        at,
        revision,
        JSON.stringify(d.reminderOffsets ?? DEFAULT_REMINDER_OFFSETS),
      ],
    );
    return;
  }
  if (e.type === 'ReportSubmissionTimeframeChanged') {
    await guardedSet(tx, 'rm_report_timeframes', e.data.timeframeId, revision, {
      ...timeframeColumns(e.data),
      scope: jsonbSet(e.data.scope),
      reminder_offsets: jsonbSet(e.data.reminderOffsets ?? DEFAULT_REMINDER_OFFSETS),
      updated_at: at,
    });
    return;
  }
  if (e.type === 'HalfTermReportViewedByPartner') {
    await tx.query(
      `INSERT INTO rm_half_term_report_views (event_id, report_id, viewer_id, revision, via, at)
       VALUES ($1,$2,$3,$4,$5,$6) ON CONFLICT (event_id) DO NOTHING`,
      [e.id, e.data.reportId, e.data.viewerId, e.data.revision, e.data.via, at],
    );
    return;
  }
  if (
    e.type === 'HalfTermReportSuggestionMade' ||
    e.type === 'HalfTermReportSuggestionAccepted' ||
    e.type === 'HalfTermReportSuggestionRejected' ||
    e.type === 'HalfTermReportEditRefused'
  ) {
    await applyTextEvent(e, tx, at, writes);
    return;
  }
  if (e.type === 'HalfTermReportDirectEditDuringReview') {
    const d = e.data;
    const change = [d.removed && `“${d.removed}”`, d.inserted && `“${d.inserted}”`].filter(Boolean);
    await writes.timeline({
      event_id: e.id,
      report_id: d.reportId,
      type: e.type,
      by_user: d.by,
      reason: change.join(' → ').slice(0, 200) || null,
      state: d.state,
      hash: null,
      revision: null,
      at,
      position: e.position.toString(),
    });
    return;
  }
  const d = e.data;
  await writes.timeline({
    event_id: e.id,
    report_id: d.reportId,
    type: e.type,
    by_user: 'by' in d ? d.by : null,
    reason: 'reason' in d ? d.reason : null,
    state: d.state,
    hash: 'hash' in d ? d.hash : null,
    revision: 'revision' in d ? d.revision : null,
    at,
    position: e.position.toString(),
  });
  const common = { state: d.state, writer_ids: d.writerIds, updated_at: at };
  const moved = { ...common, state_since: at };
  switch (e.type) {
    case 'HalfTermReportCreated':
      await writes.create({
        id: d.reportId,
        timeframe_id: d.timeframeId,
        student_id: e.data.studentId,
        programme_id: e.data.programmeId,
        customer_id: d.customerId,
        writer_ids: d.writerIds,
        state: d.state,
        state_since: at,
        lesson_counts: e.data.lessonCounts,
        created_at: at,
        updated_at: at,
        version: revision,
      });
      return;
    case 'HalfTermReportAssignmentChanged':
      await writes.set(d.reportId, e.revision, {
        ...common,
        qa_reviewer_id: e.data.qaReviewerId,
        lead_reviewer_id: e.data.leadReviewerId,
      });
      return;
    case 'HalfTermReportSubmitted':
      await writes.set(d.reportId, e.revision, {
        ...moved,
        content_hash: e.data.hash,
        submitted_at: at,
      });
      return;
    case 'HalfTermReportSubmissionWithdrawn':
    case 'HalfTermReportRestored':
      await writes.set(d.reportId, e.revision, moved);
      return;
    case 'HalfTermReportQaReviewClaimed':
      await writes.set(d.reportId, e.revision, {
        ...moved,
        qa_claimed_by: e.data.by,
      });
      return;
    case 'HalfTermReportQaReviewReleased':
    case 'HalfTermReportChangesRequested':
      await writes.set(d.reportId, e.revision, {
        ...moved,
        qa_claimed_by: null,
      });
      return;
    case 'HalfTermReportQaApproved':
      await writes.set(d.reportId, e.revision, {
        ...moved,
        content_hash: e.data.hash,
        qa_approved_by: e.data.by,
      });
      return;
    case 'HalfTermReportQaApprovalRevoked':
      await writes.set(d.reportId, e.revision, {
        ...moved,
        qa_approved_by: null,
        qa_claimed_by: e.data.by,
      });
      return;
    case 'HalfTermReportLeadReviewClaimed':
      await writes.set(d.reportId, e.revision, {
        ...moved,
        lead_claimed_by: e.data.by,
      });
      return;
    case 'HalfTermReportLeadReviewReleased':
      await writes.set(d.reportId, e.revision, {
        ...moved,
        lead_claimed_by: null,
      });
      return;
    case 'HalfTermReportReturnedToQa':
      await writes.set(d.reportId, e.revision, {
        ...moved,
        lead_claimed_by: null,
        qa_approved_by: null,
        qa_claimed_by: e.data.qaClaimedBy,
      });
      return;
    case 'HalfTermReportReturnedToWriter':
      await writes.set(d.reportId, e.revision, {
        ...moved,
        lead_claimed_by: null,
        qa_approved_by: null,
        qa_claimed_by: null,
      });
      return;
    case 'HalfTermReportPublished':
      await tx.query(
        `INSERT INTO rm_half_term_report_revisions (report_id, revision, hash, canonical, document_revision,
           published_by, qa_approved_by, published_at)
         VALUES ($1,$2,$3,$4,$5,$6,$7,$8) ON CONFLICT (report_id, revision) DO NOTHING`,
        [
          d.reportId,
          e.data.revision,
          e.data.hash,
          e.data.canonical,
          e.data.documentRevision,
          e.data.by,
          e.data.qaApprovedBy,
          at,
        ],
      );
      await writes.set(d.reportId, e.revision, {
        ...moved,
        content_hash: e.data.hash,
        published_revision: e.data.revision,
        published_at: at,
        lead_claimed_by: null,
      });
      return;
    case 'HalfTermReportPublicationRevoked':
      await tx.query(
        `UPDATE rm_half_term_report_revisions SET revoked_at = $3, revoked_reason = $4
          WHERE report_id = $1 AND revision = $2 AND revoked_at IS NULL`,
        [d.reportId, e.data.revokedRevision, at, e.data.reason],
      );
      await writes.set(d.reportId, e.revision, {
        ...moved,
        revision: e.data.revokedRevision + 1,
        published_revision: null,
        lead_claimed_by: e.data.by,
      });
      return;
    case 'HalfTermReportDiscarded':
      await writes.set(d.reportId, e.revision, {
        ...moved,
        qa_claimed_by: null,
        lead_claimed_by: null,
      });
      return;
    case 'HalfTermReportDeadlineExtended':
      await writes.set(d.reportId, e.revision, {
        ...common,
        extended_submit_by: e.data.submitBy,
      });
      return;
    case 'HalfTermReportDeadlineMissed':
      await writes.set(d.reportId, e.revision, {
        ...common,
        deadline_missed_at: at,
        missed_submit_by: e.data.submitBy,
      });
      return;
    case 'HalfTermReportFactsRefreshed':
      await writes.set(d.reportId, e.revision, common);
      return;
  }
}

type Tx = { query: (sql: string, params?: unknown[]) => Promise<unknown> };

/** Suggestions and refused edits of a report's text (decision 0060); idempotent by suggestion id. */
async function applyTextEvent(
  e: Exclude<ReportTextEvent, { type: 'HalfTermReportDirectEditDuringReview' }> & {
    id: string;
    position: bigint;
  },
  tx: Tx,
  at: Date | string,
  writes: ReportWrites,
): Promise<void> {
  if (e.type === 'HalfTermReportEditRefused') {
    const d = e.data;
    await tx.query(
      `INSERT INTO rm_half_term_report_refused_edits (event_id, report_id, by_user, reason, removed, inserted, at,
         position)
       VALUES ($1,$2,$3,$4,$5,$6,$7,$8::bigint) ON CONFLICT (event_id) DO NOTHING`,
      [e.id, d.reportId, d.by, d.reason, d.removed, d.inserted, at, e.position.toString()],
    );
    return;
  }
  const d = e.data;
  if (e.type === 'HalfTermReportSuggestionMade')
    await tx.query(
      `INSERT INTO rm_half_term_report_suggestions (report_id, suggestion_id, author_id, inserted, deleted, made_at,
         state)
       VALUES ($1,$2,$3,$4,$5,$6,'open') ON CONFLICT (report_id, suggestion_id) DO NOTHING`,
      [d.reportId, d.suggestionId, d.authorId, d.inserted, d.deleted, at],
    );
  else
    await tx.query(
      `INSERT INTO rm_half_term_report_suggestions (report_id, suggestion_id, author_id, inserted, deleted, made_at,
         state, resolved_by, resolved_at)
       VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$6)
       ON CONFLICT (report_id, suggestion_id) DO UPDATE
         SET state = EXCLUDED.state, resolved_by = EXCLUDED.resolved_by, resolved_at = EXCLUDED.resolved_at,
             inserted = EXCLUDED.inserted, deleted = EXCLUDED.deleted
         WHERE rm_half_term_report_suggestions.state = 'open'`,
      [
        d.reportId,
        d.suggestionId,
        d.authorId,
        d.inserted,
        d.deleted,
        at,
        e.type === 'HalfTermReportSuggestionAccepted' ? 'accepted' : 'rejected',
        e.data.by,
      ],
    );
  await writes.unresolved(d.reportId, d.open);
}
