import { describe, expect, it } from '@jest/globals';
import { qaMetrics, suggestionMetrics } from './qa-metrics.js';

const at = (minute: number) => new Date(Date.UTC(2026, 10, 25, 9, minute));
const row = (report_id: string, type: string, by: string | null, minute: number, writer_id = 'w') => ({
  report_id,
  writer_id,
  type: `HalfTermReport${type}`,
  by,
  at: at(minute),
});

describe('QA metrics from the workflow events', () => {
  it('measures time to claim and to decide per reviewer, and rework per writer', () => {
    const { reviewers, writers } = qaMetrics([
      row('r1', 'Created', null, 0),
      row('r1', 'Submitted', 'w', 10),
      row('r1', 'QaReviewClaimed', 'q', 20),
      row('r1', 'ChangesRequested', 'q', 50),
      row('r1', 'Submitted', 'w', 60),
      row('r1', 'QaReviewClaimed', 'q', 62),
      row('r1', 'QaApproved', 'q', 72),
      row('r2', 'Created', null, 0, 'v'),
      row('r2', 'DeadlineMissed', null, 2, 'v'),
      row('r2', 'Submitted', 'v', 5, 'v'),
      row('r2', 'QaReviewClaimed', 'p', 35, 'v'),
      row('r2', 'QaApproved', 'p', 40, 'v'),
      row('r2', 'ReturnedToWriter', 'lead', 45, 'v'),
    ]);
    expect(reviewers).toEqual([
      {
        reviewer_id: 'q',
        claims: 2,
        approvals: 1,
        changes_requested: 1,
        minutes_to_claim: 6,
        minutes_to_decide: 20,
      },
      {
        reviewer_id: 'p',
        claims: 1,
        approvals: 1,
        changes_requested: 0,
        minutes_to_claim: 30,
        minutes_to_decide: 5,
      },
    ]);
    expect(writers).toEqual([
      { writer_id: 'w', reports: 1, submissions: 2, rework_cycles: 1, deadlines_missed: 0 },
      { writer_id: 'v', reports: 1, submissions: 1, rework_cycles: 1, deadlines_missed: 1 },
    ]);
  });

  it('is empty without events', () => {
    expect(qaMetrics([])).toEqual({ reviewers: [], writers: [] });
  });
});

describe('suggestion metrics', () => {
  it('counts suggestions per report and the acceptance rate over resolved ones, per author', () => {
    const s = (report_id: string, author_id: string, state: 'open' | 'accepted' | 'rejected') => ({
      report_id,
      author_id,
      writer_id: 'w',
      state,
    });
    const m = suggestionMetrics(
      [s('r1', 'q', 'accepted'), s('r1', 'q', 'accepted'), s('r1', 'q', 'rejected'), s('r2', 'w', 'open')],
      2,
    );
    expect(m).toMatchObject({ total: 4, per_report: 2, acceptance_rate: 0.667 });
    expect(m.authors).toEqual([
      { author_id: 'q', suggestions: 3, accepted: 2, rejected: 1, open: 0, acceptance_rate: 0.667 },
      { author_id: 'w', suggestions: 1, accepted: 0, rejected: 0, open: 1, acceptance_rate: null },
    ]);
    expect(suggestionMetrics([], 0)).toMatchObject({ total: 0, per_report: null, acceptance_rate: null });
  });
});
