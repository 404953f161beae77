import {
  halfTermReportStream,
  reportTimeframeStream,
  type HalfTermReportEvent,
  type ReportRef,
  type ReportState,
  type SignOff,
  type TimeframeEvent,
  type TimeframeFields,
} from '@portal/projections';
import { DomainError } from '../platform/domain/domain-error.js';
import type { Aggregate } from '../platform/event-store/aggregate.js';
import { uuidV5 } from '../platform/uuid.js';

/**
 * Report-submission timeframes and the half-term report workflow (issue 17, decision 0057), pure.
 * A report: draft → submitted → in_qa → qa_approved → in_lead_review → published (a numbered, locked
 * revision), with returned, withdraw, discard/restore and revocations. Permission names are checked
 * by the policy before a command reaches here; the decider holds the rules of state and identity:
 * the wrong state is 409 naming the state, a reviewer of their own report, or someone who does not
 * hold the claim, is 403, and a sign-off whose hash is not the current text's is 409.
 */

/* ----------------------------------------------------------------------------------- timeframes */

export interface TimeframeState {
  exists: boolean;
  fields: TimeframeFields | null;
}

export type TimeframeCommand =
  | { type: 'CreateTimeframe'; timeframeId: string; fields: TimeframeFields }
  | { type: 'ChangeTimeframe'; timeframeId: string; fields: TimeframeFields };

/** 422 naming the field when the dates are out of order (spec: opens ≤ submit-by ≤ QA-by ≤ release). */
export function checkTimeframe(f: TimeframeFields): void {
  if (!f.name.trim()) throw new DomainError('invalid', 'name: give the timeframe a name');
  if (f.periodTo < f.periodFrom)
    throw new DomainError('invalid', 'period_to: must not be before period_from');
  if (f.submitBy < f.opensAt) throw new DomainError('invalid', 'submit_by: must not be before opens_at');
  if (f.qaBy < f.submitBy) throw new DomainError('invalid', 'qa_by: must not be before submit_by');
  if (f.releaseAt < f.qaBy) throw new DomainError('invalid', 'release_at: must not be before qa_by');
  if (f.closesAt !== null && f.closesAt < f.submitBy)
    throw new DomainError('invalid', 'closes_at: must not be before submit_by');
}

export function decideTimeframe(command: TimeframeCommand, state: TimeframeState): TimeframeEvent[] {
  checkTimeframe(command.fields);
  const data = { timeframeId: command.timeframeId, ...command.fields, name: command.fields.name.trim() };
  if (command.type === 'CreateTimeframe') {
    if (state.exists) throw new DomainError('conflict', 'The timeframe exists already');
    return [{ type: 'ReportSubmissionTimeframeCreated', data }];
  }
  if (!state.exists) throw new DomainError('not_found', 'Report submission timeframe not found');
  if (JSON.stringify(state.fields) === JSON.stringify(command.fields)) return [];
  return [{ type: 'ReportSubmissionTimeframeChanged', data }];
}

export const timeframeAggregate: Aggregate<TimeframeState, TimeframeCommand, TimeframeEvent> = {
  stream: reportTimeframeStream,
  idOf: (command) => command.timeframeId,
  initialState: () => ({ exists: false, fields: null }),
  evolve: (_state, event) => {
    const { timeframeId: _id, ...fields } = event.data;
    return { exists: true, fields };
  },
  decide: decideTimeframe,
};

/* -------------------------------------------------------------------------------------- reports */

/** Namespace of report ids: uuid v5 of `timeframeId|studentId|programmeId` (generation is idempotent). */
export const REPORT_NAMESPACE = 'a7e3c2d1-4b5f-4e6a-9c8d-1f2e3d4c5b60';
export const reportIdOf = (timeframeId: string, studentId: string, programmeId: string) =>
  uuidV5(`${timeframeId}|${studentId}|${programmeId}`, REPORT_NAMESPACE);

export interface ReportDeciderState {
  exists: boolean;
  timeframeId: string;
  customerId: string;
  state: ReportState;
  writerIds: string[];
  qaReviewerId: string | null;
  leadReviewerId: string | null;
  qaClaimedBy: string | null;
  leadClaimedBy: string | null;
  qaApprovedBy: string | null;
  revision: number;
  /** The state a discarded report is restored to. */
  restoreTo: ReportState | null;
  /** This report's own submit-by (local date), when extended past the timeframe's. */
  extendedSubmitBy: string | null;
  /** The submit-by last recorded as missed (a deadline is missed once). */
  missedSubmitBy: string | null;
}

export const initialReportState = (): ReportDeciderState => ({
  exists: false,
  timeframeId: '',
  customerId: '',
  state: 'draft',
  writerIds: [],
  qaReviewerId: null,
  leadReviewerId: null,
  qaClaimedBy: null,
  leadClaimedBy: null,
  qaApprovedBy: null,
  revision: 1,
  restoreTo: null,
  extendedSubmitBy: null,
  missedSubmitBy: null,
});

export interface LessonCount {
  teacherId: string;
  delivered: number;
  planned: number;
}

/** A sign-off as the controller computed it from the document now, and the hash the signer saw. */
export interface SignOffInput {
  expectedHash: string;
  current: SignOff;
  /** Suggestions still open in the text now (decision 0060): signing needs none. */
  unresolvedSuggestions?: number;
}

type By = { reportId: string; by: string };
export type ReportCommand =
  | {
      type: 'CreateReport';
      reportId: string;
      timeframeId: string;
      studentId: string;
      programmeId: string;
      customerId: string;
      lessonCounts: LessonCount[];
    }
  | (By & {
      type: 'ChangeAssignment';
      writerIds?: string[];
      qaReviewerId?: string | null;
      leadReviewerId?: string | null;
    })
  | (By & { type: 'Submit'; signOff: SignOffInput; writingOpen: boolean; hasText: boolean })
  | (By & { type: 'Withdraw' })
  | (By & { type: 'QaClaim' })
  | (By & { type: 'QaRelease'; override: boolean })
  | (By & { type: 'QaRequestChanges'; reason: string })
  | (By & { type: 'QaApprove'; signOff: SignOffInput })
  | (By & { type: 'QaRevokeApproval'; reason: string; isLead: boolean })
  | (By & { type: 'LeadClaim' })
  | (By & { type: 'LeadRelease'; override: boolean })
  | (By & { type: 'LeadReturn'; to: 'qa' | 'writer'; reason: string })
  | (By & { type: 'Publish'; signOff: SignOffInput })
  | (By & { type: 'RevokePublication'; reason: string })
  | (By & { type: 'Discard'; reason: string })
  | (By & { type: 'Restore' })
  | (By & {
      type: 'RefreshFacts';
      /** Whether the refresher may refresh any report they see (an administrator), not only their own. */
      override: boolean;
      /** The document stream's revision after the facts were written, and what they say. */
      position: string;
      changed: boolean;
      facts: { kind: string; period: string; values: Record<string, unknown> }[];
    })
  | (By & { type: 'ExtendDeadline'; submitBy: string; reason: string; timeframeSubmitBy: string })
  | { type: 'MarkDeadlineMissed'; reportId: string; today: string; timeframeSubmitBy: string };

export type ReportCommandType = ReportCommand['type'];

/** Deadline commands (decision 0061): not workflow steps, decided before the state table. */
export type DeadlineCommandType = 'ExtendDeadline' | 'MarkDeadlineMissed';

/** The report's submit-by: its extension, else the timeframe's. */
export const effectiveSubmitBy = (
  s: Pick<ReportDeciderState, 'extendedSubmitBy'>,
  timeframeSubmitBy: string,
) =>
  s.extendedSubmitBy !== null && s.extendedSubmitBy > timeframeSubmitBy
    ? s.extendedSubmitBy
    : timeframeSubmitBy;

/** Still with its writers: what a deadline applies to. */
const WITH_WRITERS: readonly ReportState[] = ['draft', 'returned'];

/** The states each workflow command may start from (the table the unit test walks). */
export const ALLOWED_FROM: Record<
  Exclude<ReportCommandType, 'CreateReport' | 'ChangeAssignment' | DeadlineCommandType>,
  ReportState[]
> = {
  Submit: ['draft', 'returned'],
  Withdraw: ['submitted'],
  QaClaim: ['submitted'],
  QaRelease: ['in_qa'],
  QaRequestChanges: ['in_qa'],
  QaApprove: ['in_qa'],
  QaRevokeApproval: ['qa_approved'],
  LeadClaim: ['qa_approved'],
  LeadRelease: ['in_lead_review'],
  LeadReturn: ['in_lead_review'],
  Publish: ['in_lead_review'],
  RevokePublication: ['published'],
  Discard: ['draft', 'submitted', 'in_qa', 'returned', 'qa_approved', 'in_lead_review'],
  Restore: ['discarded'],
  // Facts are refreshed while drafting only: from submission on, the signed snapshot freezes them.
  RefreshFacts: ['draft'],
};

const STATE_WORDS: Record<ReportState, string> = {
  draft: 'a draft',
  submitted: 'submitted',
  in_qa: 'in QA review',
  returned: 'returned to its writers',
  qa_approved: 'QA approved',
  in_lead_review: 'in QA lead review',
  published: 'published',
  discarded: 'discarded',
};

/** The writer: most lessons delivered in the period, then most planned, then the smallest id. */
export function writersFrom(counts: readonly LessonCount[]): string[] {
  const merged = new Map<string, LessonCount>();
  for (const c of counts) {
    const m = merged.get(c.teacherId) ?? { teacherId: c.teacherId, delivered: 0, planned: 0 };
    merged.set(c.teacherId, { ...m, delivered: m.delivered + c.delivered, planned: m.planned + c.planned });
  }
  return [...merged.values()]
    .sort(
      (a, b) =>
        b.delivered - a.delivered ||
        b.planned - a.planned ||
        (a.teacherId < b.teacherId ? -1 : a.teacherId > b.teacherId ? 1 : 0),
    )
    .map((c) => c.teacherId);
}

const reason = (text: string): string => {
  const trimmed = text.trim();
  if (!trimmed) throw new DomainError('invalid', 'reason: say why');
  return trimmed;
};

function requireSignOff(input: SignOffInput): SignOff {
  const open = input.unresolvedSuggestions ?? 0;
  if (open > 0)
    throw new DomainError(
      'conflict',
      `${open} suggestion${open === 1 ? ' is' : 's are'} still open: accept or reject ${open === 1 ? 'it' : 'each'} before signing`,
      'unresolved_suggestions',
    );
  if (input.expectedHash !== input.current.hash)
    throw new DomainError(
      'conflict',
      `The text changed since you read it: it now has hash ${input.current.hash.slice(0, 12)}…; read it again before signing`,
      'hash_mismatch',
    );
  return input.current;
}

export function decideReport(command: ReportCommand, s: ReportDeciderState): HalfTermReportEvent[] {
  if (command.type === 'CreateReport') {
    if (s.exists) return [];
    return [
      {
        type: 'HalfTermReportCreated',
        data: {
          reportId: command.reportId,
          timeframeId: command.timeframeId,
          customerId: command.customerId,
          writerIds: writersFrom(command.lessonCounts),
          state: 'draft',
          studentId: command.studentId,
          programmeId: command.programmeId,
          lessonCounts: command.lessonCounts,
        },
      },
    ];
  }
  if (!s.exists) throw new DomainError('not_found', 'Half-term report not found');
  const ref = (state: ReportState, writerIds = s.writerIds): ReportRef => ({
    reportId: command.reportId,
    timeframeId: s.timeframeId,
    customerId: s.customerId,
    writerIds,
    state,
  });
  if (command.type === 'MarkDeadlineMissed') {
    const due = effectiveSubmitBy(s, command.timeframeSubmitBy);
    if (!WITH_WRITERS.includes(s.state) || command.today <= due || s.missedSubmitBy === due) return [];
    return [{ type: 'HalfTermReportDeadlineMissed', data: { ...ref(s.state), submitBy: due } }];
  }
  const by = command.by;
  const isWriter = s.writerIds.includes(by);

  if (command.type === 'ExtendDeadline') {
    if (!WITH_WRITERS.includes(s.state))
      throw new DomainError(
        'conflict',
        `The report is ${STATE_WORDS[s.state]}: only a report still with its writers gets a new submit-by`,
        `state_${s.state}`,
      );
    if (!/^\d{4}-\d{2}-\d{2}$/.test(command.submitBy))
      throw new DomainError('invalid', 'submit_by: a date (yyyy-MM-dd)');
    if (command.submitBy <= command.timeframeSubmitBy)
      throw new DomainError(
        'invalid',
        `submit_by: must be after the timeframe's submit-by (${command.timeframeSubmitBy})`,
      );
    if (command.submitBy === s.extendedSubmitBy) return [];
    return [
      {
        type: 'HalfTermReportDeadlineExtended',
        data: { ...ref(s.state), by, submitBy: command.submitBy, reason: reason(command.reason) },
      },
    ];
  }

  if (command.type === 'ChangeAssignment') {
    if (s.state === 'discarded') throw new DomainError('conflict', 'The report is discarded');
    const writerIds = command.writerIds ? [...new Set(command.writerIds)] : s.writerIds;
    const qa = command.qaReviewerId === undefined ? s.qaReviewerId : command.qaReviewerId;
    const lead = command.leadReviewerId === undefined ? s.leadReviewerId : command.leadReviewerId;
    if (qa && writerIds.includes(qa))
      throw new DomainError('invalid', 'qa_reviewer_id: a writer may not review their own report');
    if (lead && writerIds.includes(lead))
      throw new DomainError('invalid', 'lead_reviewer_id: a writer may not review their own report');
    if (
      JSON.stringify(writerIds) === JSON.stringify(s.writerIds) &&
      qa === s.qaReviewerId &&
      lead === s.leadReviewerId
    )
      return [];
    return [
      {
        type: 'HalfTermReportAssignmentChanged',
        data: { ...ref(s.state, writerIds), qaReviewerId: qa, leadReviewerId: lead },
      },
    ];
  }

  if (!ALLOWED_FROM[command.type].includes(s.state))
    throw new DomainError('conflict', `The report is ${STATE_WORDS[s.state]}`, `state_${s.state}`);
  const notOwn = () => {
    if (isWriter) throw new DomainError('forbidden', 'You may not review your own report', 'own_report');
  };
  const writerOnly = () => {
    if (!isWriter) throw new DomainError('forbidden', 'Only the report’s writers may do this');
  };

  switch (command.type) {
    case 'Submit': {
      writerOnly();
      if (!command.writingOpen)
        throw new DomainError('conflict', 'The timeframe is not open for submissions', 'timeframe_closed');
      if (!command.hasText) throw new DomainError('invalid', 'content: the report has no text yet');
      const signOff = requireSignOff(command.signOff);
      return [{ type: 'HalfTermReportSubmitted', data: { ...ref('submitted'), ...signOff, by } }];
    }
    case 'Withdraw':
      writerOnly();
      return [{ type: 'HalfTermReportSubmissionWithdrawn', data: { ...ref('draft'), by } }];
    case 'QaClaim':
      notOwn();
      return [{ type: 'HalfTermReportQaReviewClaimed', data: { ...ref('in_qa'), by } }];
    case 'QaRelease':
      if (s.qaClaimedBy !== by && !command.override)
        throw new DomainError('forbidden', 'Only the reviewer who claimed the report may release it');
      return [{ type: 'HalfTermReportQaReviewReleased', data: { ...ref('submitted'), by } }];
    case 'QaRequestChanges':
      if (s.qaClaimedBy !== by)
        throw new DomainError('forbidden', 'Only the reviewer who claimed the report may request changes');
      return [
        {
          type: 'HalfTermReportChangesRequested',
          data: { ...ref('returned'), by, reason: reason(command.reason) },
        },
      ];
    case 'QaApprove': {
      if (s.qaClaimedBy !== by)
        throw new DomainError('forbidden', 'Only the reviewer who claimed the report may approve it');
      notOwn();
      const signOff = requireSignOff(command.signOff);
      return [{ type: 'HalfTermReportQaApproved', data: { ...ref('qa_approved'), ...signOff, by } }];
    }
    case 'QaRevokeApproval':
      notOwn();
      if (s.qaApprovedBy !== by && !command.isLead)
        throw new DomainError(
          'forbidden',
          'Only the approving reviewer or a QA lead may revoke the approval',
        );
      return [
        {
          type: 'HalfTermReportQaApprovalRevoked',
          data: { ...ref('in_qa'), by, reason: reason(command.reason) },
        },
      ];
    case 'LeadClaim':
      notOwn();
      if (s.qaApprovedBy === by)
        throw new DomainError(
          'forbidden',
          'You approved this report in QA: another QA lead must review it',
          'four_eyes',
        );
      return [{ type: 'HalfTermReportLeadReviewClaimed', data: { ...ref('in_lead_review'), by } }];
    case 'LeadRelease':
      if (s.leadClaimedBy !== by && !command.override)
        throw new DomainError('forbidden', 'Only the QA lead who claimed the report may release it');
      return [{ type: 'HalfTermReportLeadReviewReleased', data: { ...ref('qa_approved'), by } }];
    case 'LeadReturn': {
      if (s.leadClaimedBy !== by)
        throw new DomainError('forbidden', 'Only the QA lead who claimed the report may return it');
      const why = reason(command.reason);
      return command.to === 'qa'
        ? [
            {
              type: 'HalfTermReportReturnedToQa',
              data: { ...ref('in_qa'), by, reason: why, qaClaimedBy: s.qaApprovedBy },
            },
          ]
        : [{ type: 'HalfTermReportReturnedToWriter', data: { ...ref('returned'), by, reason: why } }];
    }
    case 'Publish': {
      if (s.leadClaimedBy !== by)
        throw new DomainError('forbidden', 'Only the QA lead who claimed the report may publish it');
      notOwn();
      const signOff = requireSignOff(command.signOff);
      return [
        {
          type: 'HalfTermReportPublished',
          data: { ...ref('published'), ...signOff, by, revision: s.revision, qaApprovedBy: s.qaApprovedBy },
        },
      ];
    }
    case 'RevokePublication':
      notOwn();
      return [
        {
          type: 'HalfTermReportPublicationRevoked',
          data: { ...ref('in_lead_review'), by, reason: reason(command.reason), revokedRevision: s.revision },
        },
      ];
    case 'Discard':
      return [
        {
          type: 'HalfTermReportDiscarded',
          data: { ...ref('discarded'), by, reason: reason(command.reason), previousState: s.state },
        },
      ];
    case 'Restore':
      return [{ type: 'HalfTermReportRestored', data: { ...ref(s.restoreTo ?? 'draft'), by } }];
    case 'RefreshFacts':
      if (!isWriter && !command.override)
        throw new DomainError('forbidden', 'Only the report’s writers may refresh its facts');
      if (!command.changed) return [];
      return [
        {
          type: 'HalfTermReportFactsRefreshed',
          data: {
            ...ref('draft'),
            by,
            position: command.position,
            changed: command.changed,
            facts: command.facts,
          },
        },
      ];
  }
}

/** A discarded claim is not kept: restoring an in-review report puts it back in its queue unclaimed. */
const UNCLAIMED: Partial<Record<ReportState, ReportState>> = {
  in_qa: 'submitted',
  in_lead_review: 'qa_approved',
};

export function evolveReport(s: ReportDeciderState, e: HalfTermReportEvent): ReportDeciderState {
  const next: ReportDeciderState = { ...s, state: e.data.state, writerIds: e.data.writerIds };
  switch (e.type) {
    case 'HalfTermReportCreated':
      return { ...next, exists: true, timeframeId: e.data.timeframeId, customerId: e.data.customerId };
    case 'HalfTermReportAssignmentChanged':
      return { ...next, qaReviewerId: e.data.qaReviewerId, leadReviewerId: e.data.leadReviewerId };
    case 'HalfTermReportQaReviewClaimed':
      return { ...next, qaClaimedBy: e.data.by };
    case 'HalfTermReportQaReviewReleased':
    case 'HalfTermReportChangesRequested':
      return { ...next, qaClaimedBy: null };
    case 'HalfTermReportQaApproved':
      return { ...next, qaApprovedBy: e.data.by };
    case 'HalfTermReportQaApprovalRevoked':
      return { ...next, qaApprovedBy: null, qaClaimedBy: e.data.by };
    case 'HalfTermReportLeadReviewClaimed':
      return { ...next, leadClaimedBy: e.data.by };
    case 'HalfTermReportLeadReviewReleased':
      return { ...next, leadClaimedBy: null };
    case 'HalfTermReportReturnedToQa':
      return { ...next, leadClaimedBy: null, qaApprovedBy: null, qaClaimedBy: e.data.qaClaimedBy };
    case 'HalfTermReportReturnedToWriter':
      return { ...next, leadClaimedBy: null, qaApprovedBy: null, qaClaimedBy: null };
    case 'HalfTermReportPublished':
      return { ...next, leadClaimedBy: null };
    case 'HalfTermReportPublicationRevoked':
      return { ...next, leadClaimedBy: e.data.by, revision: e.data.revokedRevision + 1 };
    case 'HalfTermReportDiscarded':
      return {
        ...next,
        qaClaimedBy: null,
        leadClaimedBy: null,
        restoreTo: UNCLAIMED[e.data.previousState] ?? e.data.previousState,
      };
    case 'HalfTermReportRestored':
      return { ...next, restoreTo: null };
    case 'HalfTermReportDeadlineExtended':
      return { ...next, extendedSubmitBy: e.data.submitBy };
    case 'HalfTermReportDeadlineMissed':
      return { ...next, missedSubmitBy: e.data.submitBy };
    default:
      return next;
  }
}

export const reportAggregate: Aggregate<ReportDeciderState, ReportCommand, HalfTermReportEvent> = {
  stream: halfTermReportStream,
  idOf: (command) => command.reportId,
  initialState: initialReportState,
  evolve: evolveReport,
  decide: decideReport,
};
