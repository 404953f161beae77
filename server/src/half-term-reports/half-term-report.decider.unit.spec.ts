import { describe, expect, it } from '@jest/globals';
import {
  REPORT_STATES,
  type HalfTermReportEvent,
  type ReportState,
  type TimeframeFields,
} from '@portal/projections';
import { DomainError, thrownKind } from '../platform/domain/domain-error.js';
import {
  ALLOWED_FROM,
  decideReport,
  decideTimeframe,
  evolveReport,
  initialReportState,
  reportIdOf,
  writersFrom,
  type DeadlineCommandType,
  type ReportCommand,
  type ReportDeciderState,
} from './half-term-report.decider.js';

const R = '11111111-1111-4111-8111-111111111111';
const WRITER = 'writer';
const CO = 'co-writer';
const QA = 'qa';
const LEAD = 'lead';
const HASH = 'a'.repeat(64);
const signOff = (expectedHash = HASH) => ({
  expectedHash,
  current: { hash: HASH, canonical: '{}', documentRevision: '3' },
});

/** A report in `state`, claimed and approved by the usual people for that state. */
function inState(state: ReportState): ReportDeciderState {
  const base: ReportDeciderState = {
    ...initialReportState(),
    exists: true,
    timeframeId: 't',
    customerId: 'c',
    writerIds: [WRITER, CO],
    state,
  };
  const qaDone = ['qa_approved', 'in_lead_review', 'published'].includes(state);
  return {
    ...base,
    qaClaimedBy: state === 'in_qa' ? QA : null,
    qaApprovedBy: qaDone ? QA : null,
    leadClaimedBy: state === 'in_lead_review' ? LEAD : null,
    restoreTo: state === 'discarded' ? 'submitted' : null,
  };
}

type Workflow = Exclude<ReportCommand['type'], 'CreateReport' | 'ChangeAssignment' | DeadlineCommandType>;

/** Each workflow command, by the person who would rightly send it. */
const COMMANDS: { [K in Workflow]: Extract<ReportCommand, { type: K }> } = {
  Submit: { type: 'Submit', reportId: R, by: WRITER, signOff: signOff(), writingOpen: true, hasText: true },
  Withdraw: { type: 'Withdraw', reportId: R, by: CO },
  QaClaim: { type: 'QaClaim', reportId: R, by: QA },
  QaRelease: { type: 'QaRelease', reportId: R, by: QA, override: false },
  QaRequestChanges: { type: 'QaRequestChanges', reportId: R, by: QA, reason: 'Say more about maths' },
  QaApprove: { type: 'QaApprove', reportId: R, by: QA, signOff: signOff() },
  QaRevokeApproval: { type: 'QaRevokeApproval', reportId: R, by: QA, reason: 'Typo', isLead: false },
  LeadClaim: { type: 'LeadClaim', reportId: R, by: LEAD },
  LeadRelease: { type: 'LeadRelease', reportId: R, by: LEAD, override: false },
  LeadReturn: { type: 'LeadReturn', reportId: R, by: LEAD, to: 'writer', reason: 'Too short' },
  Publish: { type: 'Publish', reportId: R, by: LEAD, signOff: signOff() },
  RevokePublication: { type: 'RevokePublication', reportId: R, by: LEAD, reason: 'Wrong student name' },
  Discard: { type: 'Discard', reportId: R, by: 'admin', reason: 'Student left' },
  Restore: { type: 'Restore', reportId: R, by: 'admin' },
  RefreshFacts: {
    type: 'RefreshFacts',
    reportId: R,
    by: WRITER,
    override: false,
    position: '7',
    changed: true,
    facts: [{ kind: 'attendance', period: '2026-09-01/2026-10-23', values: { percent: 90 } }],
  },
};

/** Where each command leads when it is allowed. */
const TO: Record<Workflow, ReportState> = {
  Submit: 'submitted',
  Withdraw: 'draft',
  QaClaim: 'in_qa',
  QaRelease: 'submitted',
  QaRequestChanges: 'returned',
  QaApprove: 'qa_approved',
  QaRevokeApproval: 'in_qa',
  LeadClaim: 'in_lead_review',
  LeadRelease: 'qa_approved',
  LeadReturn: 'returned',
  Publish: 'published',
  RevokePublication: 'in_lead_review',
  Discard: 'discarded',
  Restore: 'submitted',
  RefreshFacts: 'draft',
};

const cases = (Object.keys(COMMANDS) as Workflow[]).flatMap((command) =>
  REPORT_STATES.map((state) => [command, state] as const),
);

describe('half-term report workflow (every state × command)', () => {
  it.each(cases)('%s from %s', (command, state) => {
    const run = () => decideReport(COMMANDS[command], inState(state));
    if (ALLOWED_FROM[command].includes(state)) {
      const events = run();
      expect(events).toHaveLength(1);
      expect(events[0]!.data.state).toBe(TO[command]);
    } else {
      let error: unknown;
      try {
        run();
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(DomainError);
      expect((error as DomainError).kind).toBe('conflict');
      // The 409 names the state the report is in.
      expect((error as DomainError).code).toBe(`state_${state}`);
    }
  });

  it('allows exactly the documented starting states', () => {
    expect(ALLOWED_FROM.Submit).toEqual(['draft', 'returned']);
    expect(ALLOWED_FROM.RevokePublication).toEqual(['published']);
    expect(ALLOWED_FROM.Discard).not.toContain('published');
  });
});

describe('half-term report rules', () => {
  const kind = (command: ReportCommand, state: ReportDeciderState) =>
    thrownKind(() => decideReport(command, state));

  it('refreshes facts in a draft only, for its writers (or an administrator), and only when they moved', () => {
    const [event] = decideReport(COMMANDS.RefreshFacts, inState('draft'));
    expect(event).toMatchObject({
      type: 'HalfTermReportFactsRefreshed',
      data: { by: WRITER, position: '7', changed: true, facts: COMMANDS.RefreshFacts.facts },
    });
    // Frozen from submission on: the signed snapshot holds them.
    for (const state of ['returned', 'submitted', 'in_qa', 'published'] as const)
      expect(kind(COMMANDS.RefreshFacts, inState(state))).toBe('conflict');
    expect(kind({ ...COMMANDS.RefreshFacts, by: QA }, inState('draft'))).toBe('forbidden');
    expect(
      decideReport({ ...COMMANDS.RefreshFacts, by: 'admin', override: true }, inState('draft')),
    ).toHaveLength(1);
    expect(decideReport({ ...COMMANDS.RefreshFacts, changed: false }, inState('draft'))).toEqual([]);
  });

  it('refuses a reviewer of their own report (QA claim, lead claim, approve, publish)', () => {
    expect(kind({ ...COMMANDS.QaClaim, by: CO }, inState('submitted'))).toBe('forbidden');
    expect(kind({ ...COMMANDS.LeadClaim, by: WRITER }, inState('qa_approved'))).toBe('forbidden');
    const ownQa = { ...inState('in_qa'), qaClaimedBy: WRITER };
    expect(kind({ ...COMMANDS.QaApprove, by: WRITER }, ownQa)).toBe('forbidden');
  });

  it('keeps four eyes: the QA approver may not lead-review the same report', () => {
    expect(kind({ ...COMMANDS.LeadClaim, by: QA }, inState('qa_approved'))).toBe('forbidden');
  });

  it('lets only the claimer approve, request changes, return and publish', () => {
    expect(kind({ ...COMMANDS.QaApprove, by: 'other-qa' }, inState('in_qa'))).toBe('forbidden');
    expect(kind({ ...COMMANDS.QaRequestChanges, by: 'other-qa' }, inState('in_qa'))).toBe('forbidden');
    expect(kind({ ...COMMANDS.Publish, by: 'other-lead' }, inState('in_lead_review'))).toBe('forbidden');
    expect(kind({ ...COMMANDS.LeadReturn, by: 'other-lead' }, inState('in_lead_review'))).toBe('forbidden');
    // Releasing someone else's claim needs the override (administrators).
    expect(kind({ ...COMMANDS.QaRelease, by: 'other-qa' }, inState('in_qa'))).toBe('forbidden');
    expect(
      decideReport({ ...COMMANDS.QaRelease, by: 'admin', override: true }, inState('in_qa')),
    ).toHaveLength(1);
  });

  it('lets only writers submit and withdraw', () => {
    expect(kind({ ...COMMANDS.Submit, by: QA }, inState('draft'))).toBe('forbidden');
    expect(kind({ ...COMMANDS.Withdraw, by: QA }, inState('submitted'))).toBe('forbidden');
  });

  it('refuses a sign-off whose hash is not the current text’s (409 hash_mismatch)', () => {
    for (const [command, state] of [
      [{ ...COMMANDS.Submit, signOff: signOff('b'.repeat(64)) }, 'draft'],
      [{ ...COMMANDS.QaApprove, signOff: signOff('b'.repeat(64)) }, 'in_qa'],
      [{ ...COMMANDS.Publish, signOff: signOff('b'.repeat(64)) }, 'in_lead_review'],
    ] as const) {
      try {
        decideReport(command, inState(state));
        throw new Error('expected a refusal');
      } catch (e) {
        expect((e as DomainError).kind).toBe('conflict');
        expect((e as DomainError).code).toBe('hash_mismatch');
      }
    }
  });

  it('refuses submit, QA approval and publication while a suggestion is open (409 unresolved_suggestions)', () => {
    for (const [command, state] of [
      [{ ...COMMANDS.Submit, signOff: { ...signOff(), unresolvedSuggestions: 2 } }, 'draft'],
      [{ ...COMMANDS.QaApprove, signOff: { ...signOff(), unresolvedSuggestions: 1 } }, 'in_qa'],
      [{ ...COMMANDS.Publish, signOff: { ...signOff(), unresolvedSuggestions: 1 } }, 'in_lead_review'],
    ] as const) {
      try {
        decideReport(command, inState(state));
        throw new Error('expected a refusal');
      } catch (e) {
        expect((e as DomainError).kind).toBe('conflict');
        expect((e as DomainError).code).toBe('unresolved_suggestions');
      }
    }
    const resolved = { ...COMMANDS.Publish, signOff: { ...signOff(), unresolvedSuggestions: 0 } };
    expect(decideReport(resolved, inState('in_lead_review'))).toHaveLength(1);
  });

  it('records the signed hash, canonical text and document revision', () => {
    const [published] = decideReport(COMMANDS.Publish, inState('in_lead_review'));
    expect(published).toEqual({
      type: 'HalfTermReportPublished',
      data: expect.objectContaining({
        hash: HASH,
        canonical: '{}',
        documentRevision: '3',
        revision: 1,
        by: LEAD,
      }),
    });
  });

  it('refuses submitting an empty report, or outside the timeframe', () => {
    expect(kind({ ...COMMANDS.Submit, hasText: false }, inState('draft'))).toBe('invalid');
    expect(kind({ ...COMMANDS.Submit, writingOpen: false }, inState('draft'))).toBe('conflict');
  });

  it('needs a reason to request changes, return, revoke and discard', () => {
    expect(kind({ ...COMMANDS.QaRequestChanges, reason: ' ' }, inState('in_qa'))).toBe('invalid');
    expect(kind({ ...COMMANDS.Discard, reason: '' }, inState('draft'))).toBe('invalid');
  });

  it('revoking a publication opens the next revision; publishing again numbers it', () => {
    let s = inState('in_lead_review');
    const apply = (command: ReportCommand) => {
      const events: HalfTermReportEvent[] = decideReport(command, s);
      s = events.reduce(evolveReport, s);
      return events;
    };
    apply(COMMANDS.Publish);
    expect(s.state).toBe('published');
    apply(COMMANDS.RevokePublication);
    expect(s).toMatchObject({ state: 'in_lead_review', revision: 2, leadClaimedBy: LEAD });
    const [again] = apply(COMMANDS.Publish);
    expect(again!.data).toMatchObject({ revision: 2 });
  });

  it('restores a discarded report to where it was, unclaimed', () => {
    let s = inState('in_qa');
    for (const command of [COMMANDS.Discard, COMMANDS.Restore])
      s = decideReport(command, s).reduce(evolveReport, s);
    expect(s).toMatchObject({ state: 'submitted', qaClaimedBy: null });
  });

  it('a lead returning to QA hands the report back to the approving reviewer', () => {
    const [event] = decideReport({ ...COMMANDS.LeadReturn, to: 'qa' }, inState('in_lead_review'));
    expect(event).toMatchObject({
      type: 'HalfTermReportReturnedToQa',
      data: { state: 'in_qa', qaClaimedBy: QA },
    });
  });

  it('assignment: a field left out is unchanged; a writer may not be a reviewer', () => {
    const s = { ...inState('draft'), qaReviewerId: QA };
    const [changed] = decideReport(
      { type: 'ChangeAssignment', reportId: R, by: 'admin', leadReviewerId: LEAD },
      s,
    );
    expect(changed!.data).toMatchObject({ writerIds: [WRITER, CO], qaReviewerId: QA, leadReviewerId: LEAD });
    expect(decideReport({ type: 'ChangeAssignment', reportId: R, by: 'admin', qaReviewerId: QA }, s)).toEqual(
      [],
    );
    expect(kind({ type: 'ChangeAssignment', reportId: R, by: 'admin', qaReviewerId: WRITER }, s)).toBe(
      'invalid',
    );
  });
});

describe('report generation rules', () => {
  it('makes the teacher who delivered most lessons the writer, the others co-writers', () => {
    expect(
      writersFrom([
        { teacherId: 'b', delivered: 2, planned: 0 },
        { teacherId: 'a', delivered: 5, planned: 1 },
        { teacherId: 'c', delivered: 2, planned: 3 },
      ]),
    ).toEqual(['a', 'c', 'b']);
  });

  it('gives the same report id for the same timeframe × student × programme', () => {
    expect(reportIdOf('t', 's', 'p')).toBe(reportIdOf('t', 's', 'p'));
    expect(reportIdOf('t', 's', 'p')).not.toBe(reportIdOf('t', 's', 'q'));
  });

  it('creating an existing report changes nothing (idempotent generate)', () => {
    const create: ReportCommand = {
      type: 'CreateReport',
      reportId: R,
      timeframeId: 't',
      studentId: 's',
      programmeId: 'p',
      customerId: 'c',
      lessonCounts: [{ teacherId: WRITER, delivered: 1, planned: 0 }],
    };
    const events = decideReport(create, initialReportState());
    expect(events[0]!.data).toMatchObject({ state: 'draft', writerIds: [WRITER] });
    expect(decideReport(create, events.reduce(evolveReport, initialReportState()))).toEqual([]);
  });
});

describe('timeframe rules', () => {
  const fields: TimeframeFields = {
    name: 'Autumn 1 2026/27',
    academicYear: '2026/27',
    halfTerm: 'autumn_1',
    networkId: null,
    timezone: 'Europe/London',
    periodFrom: '2026-09-01',
    periodTo: '2026-10-23',
    opensAt: '2026-10-12',
    submitBy: '2026-10-23',
    qaBy: '2026-10-30',
    releaseAt: '2026-11-06',
    closesAt: null,
    scope: { customerIds: [], programmeIds: [], productIds: [] },
  };
  const refusal = (over: Partial<TimeframeFields>) => {
    try {
      decideTimeframe(
        { type: 'CreateTimeframe', timeframeId: 't', fields: { ...fields, ...over } },
        { exists: false, fields: null },
      );
      return null;
    } catch (e) {
      return (e as DomainError).detail;
    }
  };

  it.each<[Partial<TimeframeFields>, string]>([
    [{ submitBy: '2026-10-11' }, 'submit_by'],
    [{ periodTo: '2026-08-31' }, 'period_to'],
    [{ qaBy: '2026-10-22' }, 'qa_by'],
    [{ releaseAt: '2026-10-29' }, 'release_at'],
    [{ closesAt: '2026-10-22' }, 'closes_at'],
    [{ name: '  ' }, 'name'],
  ])('refuses %p naming %s', (over, field) => {
    expect(refusal(over)).toMatch(new RegExp(`^${field}:`));
  });

  it('accepts dates in order, and an unchanged change is no event', () => {
    expect(refusal({})).toBeNull();
    expect(
      decideTimeframe({ type: 'ChangeTimeframe', timeframeId: 't', fields }, { exists: true, fields }),
    ).toEqual([]);
  });
});

describe('per-report deadlines (decision 0061)', () => {
  const extend = (submitBy: string, by = 'admin'): ReportCommand => ({
    type: 'ExtendDeadline',
    reportId: R,
    by,
    submitBy,
    reason: 'Teacher was ill',
    timeframeSubmitBy: '2026-10-20',
  });
  const missed = (today: string): ReportCommand => ({
    type: 'MarkDeadlineMissed',
    reportId: R,
    today,
    timeframeSubmitBy: '2026-10-20',
  });
  const after = (s: ReportDeciderState, events: HalfTermReportEvent[]) => events.reduce(evolveReport, s);

  it('extends a report still with its writers past the timeframe’s submit-by, once per date', () => {
    for (const state of ['draft', 'returned'] as const) {
      const events = decideReport(extend('2026-10-27'), inState(state));
      expect(events).toEqual([
        {
          type: 'HalfTermReportDeadlineExtended',
          data: expect.objectContaining({
            submitBy: '2026-10-27',
            reason: 'Teacher was ill',
            state,
            by: 'admin',
          }),
        },
      ]);
      expect(decideReport(extend('2026-10-27'), after(inState(state), events))).toEqual([]);
    }
    for (const state of REPORT_STATES.filter((st) => st !== 'draft' && st !== 'returned'))
      expect(thrownKind(() => decideReport(extend('2026-10-27'), inState(state)))).toBe('conflict');
    expect(thrownKind(() => decideReport(extend('2026-10-20'), inState('draft')))).toBe('invalid');
    expect(thrownKind(() => decideReport(extend('27.10.2026'), inState('draft')))).toBe('invalid');
    const blank = { ...extend('2026-10-27'), reason: ' ' } as ReportCommand;
    expect(thrownKind(() => decideReport(blank, inState('draft')))).toBe('invalid');
  });

  it('records a missed deadline once, only after the (extended) submit-by, only for reports with their writers', () => {
    expect(decideReport(missed('2026-10-20'), inState('draft'))).toEqual([]);
    const first = decideReport(missed('2026-10-21'), inState('draft'));
    expect(first).toEqual([
      { type: 'HalfTermReportDeadlineMissed', data: expect.objectContaining({ submitBy: '2026-10-20' }) },
    ]);
    expect(decideReport(missed('2026-10-22'), after(inState('draft'), first))).toEqual([]);
    expect(decideReport(missed('2026-10-21'), inState('submitted'))).toEqual([]);
    // An extension moves the deadline: not missed until it passes, then missed again for the new date.
    const extended = after(
      after(inState('draft'), first),
      decideReport(extend('2026-10-27'), inState('draft')),
    );
    expect(decideReport(missed('2026-10-25'), extended)).toEqual([]);
    expect(decideReport(missed('2026-10-28'), extended)).toEqual([
      { type: 'HalfTermReportDeadlineMissed', data: expect.objectContaining({ submitBy: '2026-10-27' }) },
    ]);
  });
});
