import { expect } from '@jest/globals';
import { halfTermReportsProjection, type ProjectionEvent } from '@portal/projections';
import { describeFoldInBatches, record } from '../platform/testing/projection-contract.js';

/**
 * Decision 0088: a batch of half-term-report events folds the reports it creates in memory and writes
 * their rows once, and inserts all of its timeline lines together; the writes of reports that existed
 * before the batch go to SQL. Whatever the batch boundaries, the rows must be those of event-by-event
 * apply. The history walks the workflow from creation to publication and its revocation, suggestions
 * (the unversioned count of open ones), a direct edit, a read receipt, deadlines, a second creation,
 * events before a report's creation, ids in capitals, and a report created before the batch.
 */
const id = (n: number) => `abcdef00-0000-4000-8000-${String(n).padStart(12, '0')}`;
const [TIMEFRAME, OLD, ANN, BEN] = [id(1), id(2), id(3), id(4)];
const [WRITER, QA, LEAD, PARTNER] = [id(11), id(12), id(13), id(14)];
const report = (reportId: string) => `halfTermReport-${reportId}`;
const text = (reportId: string) => `halfTermReportText-${reportId}`;
const ref = (reportId: string, state: string, writerIds = [WRITER]) => ({
  reportId,
  timeframeId: TIMEFRAME,
  customerId: id(90),
  writerIds,
  state,
});
const created = (reportId: string, studentId: string) => ({
  ...ref(reportId, 'draft'),
  studentId,
  programmeId: id(91),
  lessonCounts: [{ teacherId: WRITER, delivered: 3, planned: 4 }],
});
const signOff = (hash: string) => ({ hash, canonical: `{"h":"${hash}"}`, documentRevision: '7' });
const suggestion = (reportId: string, suggestionId: string, open: number) => ({
  reportId,
  suggestionId,
  authorId: QA,
  inserted: 'better',
  deleted: 'good',
  open,
});

const history: ProjectionEvent[] = record([
  [
    `reportTimeframe-${TIMEFRAME}`,
    'ReportSubmissionTimeframeCreated',
    {
      timeframeId: TIMEFRAME,
      name: 'Autumn 1',
      academicYear: '2026/27',
      halfTerm: 'autumn-1',
      networkId: null,
      timezone: 'Europe/London',
      periodFrom: '2026-09-01',
      periodTo: '2026-10-23',
      opensAt: '2026-10-12',
      submitBy: '2026-10-19',
      qaBy: '2026-10-26',
      releaseAt: '2026-11-02',
      closesAt: null,
      scope: { customerIds: [], programmeIds: [] },
    },
  ],
  [report(OLD), 'HalfTermReportCreated', created(OLD, id(21))],
  [report(OLD), 'HalfTermReportSubmitted', { ...ref(OLD, 'submitted'), ...signOff('h0'), by: WRITER }],
  // Before their report's creation: no row to change.
  [text(BEN), 'HalfTermReportSuggestionMade', suggestion(BEN, 's0', 1)],
  [
    report(BEN),
    'HalfTermReportAssignmentChanged',
    { ...ref(BEN, 'draft'), qaReviewerId: QA, leadReviewerId: null },
  ],
  [report(ANN), 'HalfTermReportCreated', created(ANN.toUpperCase(), id(22))],
  [
    report(ANN),
    'HalfTermReportAssignmentChanged',
    { ...ref(ANN, 'draft', [WRITER, id(15)]), qaReviewerId: QA.toUpperCase(), leadReviewerId: LEAD },
  ],
  [
    report(ANN),
    'HalfTermReportDeadlineExtended',
    { ...ref(ANN, 'draft'), by: LEAD, submitBy: '2026-10-21', reason: 'Ill' },
  ],
  [report(ANN), 'HalfTermReportSubmitted', { ...ref(ANN, 'submitted'), ...signOff('h1'), by: WRITER }],
  [report(OLD), 'HalfTermReportQaReviewClaimed', { ...ref(OLD, 'in_qa'), by: QA }],
  [report(ANN), 'HalfTermReportQaReviewClaimed', { ...ref(ANN, 'in_qa'), by: QA }],
  [text(ANN), 'HalfTermReportSuggestionMade', suggestion(ANN, 's1', 1)],
  [text(ANN), 'HalfTermReportSuggestionMade', suggestion(ANN, 's2', 2)],
  [
    text(ANN),
    'HalfTermReportDirectEditDuringReview',
    { reportId: ANN, by: QA, state: 'in_qa', removed: 'a', inserted: 'b' },
  ],
  [report(ANN), 'HalfTermReportChangesRequested', { ...ref(ANN, 'draft'), by: QA, reason: 'Say more' }],
  [
    text(ANN),
    'HalfTermReportSuggestionAccepted',
    { ...suggestion(ANN, 's1', 1), by: WRITER, actors: [WRITER] },
  ],
  [report(ANN), 'HalfTermReportSubmitted', { ...ref(ANN, 'submitted'), ...signOff('h2'), by: WRITER }],
  [report(ANN), 'HalfTermReportQaApproved', { ...ref(ANN, 'qa_approved'), ...signOff('h2'), by: QA }],
  [report(ANN), 'HalfTermReportLeadReviewClaimed', { ...ref(ANN, 'in_lead_review'), by: LEAD }],
  [report(BEN), 'HalfTermReportCreated', created(BEN, id(23))],
  [report(BEN), 'HalfTermReportCreated', { ...created(BEN, id(24)), state: 'submitted' }], // keeps the row
  [report(BEN), 'HalfTermReportDeadlineMissed', { ...ref(BEN, 'draft'), submitBy: '2026-10-19' }],
  [
    report(ANN),
    'HalfTermReportPublished',
    { ...ref(ANN, 'published'), ...signOff('h2'), by: LEAD, revision: 1, qaApprovedBy: QA },
  ],
  [
    `halfTermReportViews-${ANN}`,
    'HalfTermReportViewedByPartner',
    { reportId: ANN, customerId: id(90), viewerId: PARTNER, revision: 1, via: 'pdf' },
  ],
  [
    report(ANN),
    'HalfTermReportPublicationRevoked',
    { ...ref(ANN, 'in_lead_review'), by: LEAD, reason: 'Wrong name', revokedRevision: 1 },
  ],
  [
    report(BEN),
    'HalfTermReportFactsRefreshed',
    { ...ref(BEN, 'draft', [WRITER, id(16)]), by: WRITER, position: '3', changed: true, facts: [] },
  ],
  [
    text(BEN),
    'HalfTermReportSuggestionRejected',
    { ...suggestion(BEN, 's0', 0), by: WRITER, actors: [WRITER] },
  ],
  [report(OLD), 'HalfTermReportQaApproved', { ...ref(OLD, 'qa_approved'), ...signOff('h0'), by: QA }],
]);

describeFoldInBatches('half-term reports', 'portal_report_fold', halfTermReportsProjection, history, {
  title: 'event by event, the history sets the report rows, their timelines and revisions',
  async check(sql) {
    const { rows } = await sql.query<Record<string, unknown>>(
      `SELECT id::text, state, writer_ids, qa_reviewer_id::text AS qa, content_hash, qa_approved_by::text AS approved,
            lead_claimed_by::text AS lead, revision, published_revision, unresolved_suggestions AS open,
            extended_submit_by, missed_submit_by, student_id::text AS student
       FROM rm_half_term_reports ORDER BY id`,
    );
    expect(rows).toEqual([
      expect.objectContaining({ id: OLD, state: 'qa_approved', content_hash: 'h0', approved: QA }),
      {
        id: ANN,
        state: 'in_lead_review',
        writer_ids: [WRITER],
        qa: QA,
        content_hash: 'h2',
        approved: QA,
        lead: LEAD,
        revision: 2,
        published_revision: null,
        open: 1,
        extended_submit_by: '2026-10-21',
        missed_submit_by: null,
        student: id(22),
      },
      expect.objectContaining({
        id: BEN,
        state: 'draft',
        writer_ids: [WRITER, id(16)],
        qa: null,
        open: 0,
        missed_submit_by: '2026-10-19',
        student: id(23),
      }),
    ]);
    const timeline = await sql.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM rm_half_term_report_timeline WHERE report_id = $1`,
      [ANN],
    );
    expect(timeline.rows[0]!.n).toBe(12); // its workflow events and the direct edit
    const revoked = await sql.query(`SELECT revoked_reason FROM rm_half_term_report_revisions`);
    expect(revoked.rows).toEqual([{ revoked_reason: 'Wrong name' }]);
  },
});
