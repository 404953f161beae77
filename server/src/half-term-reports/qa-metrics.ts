import type { SuggestionForMetrics, TimelineForMetrics } from '@portal/projections';

export interface ReviewerMetrics {
  reviewer_id: string;
  /** QA claims made. */
  claims: number;
  approvals: number;
  changes_requested: number;
  /** Mean minutes from submission to this reviewer's claim. */
  minutes_to_claim: number | null;
  /** Mean minutes from claim to approval or a request for changes. */
  minutes_to_decide: number | null;
}

export interface WriterMetrics {
  writer_id: string;
  reports: number;
  submissions: number;
  /** Times a report came back to its writers (changes requested, returned by a lead). */
  rework_cycles: number;
  /** Submit-by dates missed (HalfTermReportDeadlineMissed, decision 0061). */
  deadlines_missed: number;
}

const mean = (values: number[]) =>
  values.length ? Math.round(values.reduce((a, b) => a + b, 0) / values.length) : null;
const minutes = (from: Date, to: Date) => (new Date(to).getTime() - new Date(from).getTime()) / 60_000;

/**
 * QA metrics from the workflow events of a timeframe (decision 0057), pure: per QA reviewer the claims,
 * approvals, requests for changes, time to claim and time to decide; per writer (the report's first
 * writer) the reports, submissions and rework cycles.
 */
export function qaMetrics(rows: readonly TimelineForMetrics[]): {
  reviewers: ReviewerMetrics[];
  writers: WriterMetrics[];
} {
  const reviewers = new Map<string, { m: ReviewerMetrics; toClaim: number[]; toDecide: number[] }>();
  const writers = new Map<string, WriterMetrics & { seen: Set<string> }>();
  const submittedAt = new Map<string, Date>();
  const claimedAt = new Map<string, Date>();
  const reviewer = (id: string) => {
    let r = reviewers.get(id);
    if (!r) {
      r = {
        m: {
          reviewer_id: id,
          claims: 0,
          approvals: 0,
          changes_requested: 0,
          minutes_to_claim: null,
          minutes_to_decide: null,
        },
        toClaim: [],
        toDecide: [],
      };
      reviewers.set(id, r);
    }
    return r;
  };
  for (const e of rows) {
    if (e.writer_id) {
      let w = writers.get(e.writer_id);
      if (!w) {
        w = {
          writer_id: e.writer_id,
          reports: 0,
          submissions: 0,
          rework_cycles: 0,
          deadlines_missed: 0,
          seen: new Set(),
        };
        writers.set(e.writer_id, w);
      }
      if (!w.seen.has(e.report_id)) {
        w.seen.add(e.report_id);
        w.reports++;
      }
      if (e.type === 'HalfTermReportSubmitted') w.submissions++;
      if (e.type === 'HalfTermReportChangesRequested' || e.type === 'HalfTermReportReturnedToWriter')
        w.rework_cycles++;
      if (e.type === 'HalfTermReportDeadlineMissed') w.deadlines_missed++;
    }
    if (e.type === 'HalfTermReportSubmitted') submittedAt.set(e.report_id, e.at);
    if (!e.by) continue;
    if (e.type === 'HalfTermReportQaReviewClaimed') {
      const r = reviewer(e.by);
      r.m.claims++;
      const since = submittedAt.get(e.report_id);
      if (since) r.toClaim.push(minutes(since, e.at));
      claimedAt.set(e.report_id, e.at);
    }
    if (e.type === 'HalfTermReportQaApproved' || e.type === 'HalfTermReportChangesRequested') {
      const r = reviewer(e.by);
      if (e.type === 'HalfTermReportQaApproved') r.m.approvals++;
      else r.m.changes_requested++;
      const since = claimedAt.get(e.report_id);
      if (since) r.toDecide.push(minutes(since, e.at));
      claimedAt.delete(e.report_id);
    }
  }
  return {
    reviewers: [...reviewers.values()].map(({ m, toClaim, toDecide }) => ({
      ...m,
      minutes_to_claim: mean(toClaim),
      minutes_to_decide: mean(toDecide),
    })),
    writers: [...writers.values()].map(({ seen: _seen, ...w }) => w),
  };
}

export interface SuggestionAuthorMetrics {
  author_id: string;
  suggestions: number;
  accepted: number;
  rejected: number;
  open: number;
  /** Accepted out of resolved (null: none resolved yet). */
  acceptance_rate: number | null;
}

const rate = (accepted: number, rejected: number) =>
  accepted + rejected ? Math.round((accepted / (accepted + rejected)) * 1000) / 1000 : null;

/**
 * Suggestion metrics of a timeframe (decision 0060), pure: suggestions per report (over the reports
 * that had any review or writing, i.e. `reports`), the acceptance rate (accepted / resolved), and the
 * same per author (QA reviewers, leads and writers alike).
 */
export function suggestionMetrics(
  rows: readonly SuggestionForMetrics[],
  reports: number,
): {
  total: number;
  per_report: number | null;
  acceptance_rate: number | null;
  authors: SuggestionAuthorMetrics[];
} {
  const authors = new Map<string, SuggestionAuthorMetrics>();
  let accepted = 0;
  let rejected = 0;
  for (const s of rows) {
    if (s.state === 'accepted') accepted++;
    if (s.state === 'rejected') rejected++;
    if (!s.author_id) continue;
    let a = authors.get(s.author_id);
    if (!a) {
      a = {
        author_id: s.author_id,
        suggestions: 0,
        accepted: 0,
        rejected: 0,
        open: 0,
        acceptance_rate: null,
      };
      authors.set(s.author_id, a);
    }
    a.suggestions++;
    a[s.state === 'open' ? 'open' : s.state]++;
  }
  return {
    total: rows.length,
    per_report: reports ? Math.round((rows.length / reports) * 100) / 100 : null,
    acceptance_rate: rate(accepted, rejected),
    authors: [...authors.values()].map((a) => ({ ...a, acceptance_rate: rate(a.accepted, a.rejected) })),
  };
}
