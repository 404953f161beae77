/**
 * Half-term reports (issue 17, decision 0057): report-submission timeframes (`reportTimeframe-{id}`)
 * and one report per timeframe × student × programme (`halfTermReport-{id}`), whose text is the
 * collaborative document `half-term-report:{id}` (its own `collab-half-term-report-{id}` stream).
 * Dates of a timeframe are local dates (`yyyy-MM-dd`) evaluated in its network's timezone.
 */

export type HalfTerm = 'autumn_1' | 'autumn_2' | 'spring_1' | 'spring_2' | 'summer_1' | 'summer_2';
export const HALF_TERMS: readonly HalfTerm[] = [
  'autumn_1',
  'autumn_2',
  'spring_1',
  'spring_2',
  'summer_1',
  'summer_2',
];

export interface TimeframeScope {
  customerIds: string[];
  programmeIds: string[];
  productIds: string[];
}

export interface TimeframeFields {
  name: string;
  /** `2026/27`: the academic year starts on 1 September (spec §9). */
  academicYear: string;
  halfTerm: HalfTerm;
  networkId: string | null;
  /** The zone the dates are evaluated in (the network's, resolved when written). */
  timezone: string;
  periodFrom: string;
  periodTo: string;
  opensAt: string;
  submitBy: string;
  qaBy: string;
  releaseAt: string;
  closesAt: string | null;
  scope: TimeframeScope;
  /**
   * Days before submit-by on which writers with reports still due are e-mailed (decision 0061);
   * 0 is the submit-by day itself. Absent in timeframes written before reminders existed.
   */
  reminderOffsets?: number[];
}

export type TimeframeEvent =
  | { type: 'ReportSubmissionTimeframeCreated'; data: TimeframeFields & { timeframeId: string } }
  | { type: 'ReportSubmissionTimeframeChanged'; data: TimeframeFields & { timeframeId: string } };

export const TIMEFRAME_EVENT_TYPES: readonly TimeframeEvent['type'][] = [
  'ReportSubmissionTimeframeCreated',
  'ReportSubmissionTimeframeChanged',
];

export const reportTimeframeStream = (timeframeId: string) => `reportTimeframe-${timeframeId}`;

export type ReportState =
  'draft' | 'submitted' | 'in_qa' | 'returned' | 'qa_approved' | 'in_lead_review' | 'published' | 'discarded';
export const REPORT_STATES: readonly ReportState[] = [
  'draft',
  'submitted',
  'in_qa',
  'returned',
  'qa_approved',
  'in_lead_review',
  'published',
  'discarded',
];

/** What every report event carries: enough for the live rooms and the document re-check. */
export interface ReportRef {
  reportId: string;
  timeframeId: string;
  customerId: string;
  /** Writer first, then co-writers (after the event). */
  writerIds: string[];
  /** The state after the event. */
  state: ReportState;
}

/** A sign-off: the snapshot of the text that was signed (decision 0057). */
export interface SignOff {
  /** SHA-256 (hex) of the canonical JSON `canonical`. */
  hash: string;
  /** The canonical JSON of the content at sign-off (frozen; `verify` recomputes its hash). */
  canonical: string;
  /** The document stream's revision the snapshot was built from (-1: empty document). */
  documentRevision: string;
}

export type HalfTermReportEvent =
  | {
      type: 'HalfTermReportCreated';
      data: ReportRef & {
        studentId: string;
        programmeId: string;
        /** Lessons per teacher in the period when generated (delivered, planned). */
        lessonCounts: { teacherId: string; delivered: number; planned: number }[];
      };
    }
  | {
      type: 'HalfTermReportAssignmentChanged';
      data: ReportRef & { qaReviewerId: string | null; leadReviewerId: string | null };
    }
  | { type: 'HalfTermReportSubmitted'; data: ReportRef & SignOff & { by: string } }
  | { type: 'HalfTermReportSubmissionWithdrawn'; data: ReportRef & { by: string } }
  | { type: 'HalfTermReportQaReviewClaimed'; data: ReportRef & { by: string } }
  | { type: 'HalfTermReportQaReviewReleased'; data: ReportRef & { by: string } }
  | { type: 'HalfTermReportChangesRequested'; data: ReportRef & { by: string; reason: string } }
  | { type: 'HalfTermReportQaApproved'; data: ReportRef & SignOff & { by: string } }
  | { type: 'HalfTermReportQaApprovalRevoked'; data: ReportRef & { by: string; reason: string } }
  | { type: 'HalfTermReportLeadReviewClaimed'; data: ReportRef & { by: string } }
  | { type: 'HalfTermReportLeadReviewReleased'; data: ReportRef & { by: string } }
  | {
      type: 'HalfTermReportReturnedToQa';
      /** Back in QA with the reviewer who approved it. */
      data: ReportRef & { by: string; reason: string; qaClaimedBy: string | null };
    }
  | { type: 'HalfTermReportReturnedToWriter'; data: ReportRef & { by: string; reason: string } }
  | {
      type: 'HalfTermReportPublished';
      data: ReportRef & SignOff & { by: string; revision: number; qaApprovedBy: string | null };
    }
  | {
      type: 'HalfTermReportPublicationRevoked';
      data: ReportRef & { by: string; reason: string; revokedRevision: number };
    }
  | {
      type: 'HalfTermReportDiscarded';
      data: ReportRef & { by: string; reason: string; previousState: ReportState };
    }
  | { type: 'HalfTermReportRestored'; data: ReportRef & { by: string } }
  | {
      type: 'HalfTermReportDeadlineExtended';
      /** A new submit-by (local date) for this one report, after the timeframe's (decision 0061). */
      data: ReportRef & { by: string; submitBy: string; reason: string };
    }
  | {
      type: 'HalfTermReportFactsRefreshed';
      /**
       * The fact blocks of the draft were rewritten from the read models (decision 0068): `position` is
       * the document stream's revision after the write (`-1`: empty), `changed` whether the text moved,
       * `facts` what the blocks say now.
       */
      data: ReportRef & {
        by: string;
        position: string;
        changed: boolean;
        facts: { kind: string; period: string; values: Record<string, unknown> }[];
      };
    }
  | {
      type: 'HalfTermReportDeadlineMissed';
      /** Still with its writers after `submitBy` (the timeframe's, or the report's extension). */
      data: ReportRef & { submitBy: string };
    };

export type HalfTermReportEventType = HalfTermReportEvent['type'];

export const HALF_TERM_REPORT_EVENT_TYPES: readonly HalfTermReportEventType[] = [
  'HalfTermReportCreated',
  'HalfTermReportAssignmentChanged',
  'HalfTermReportSubmitted',
  'HalfTermReportSubmissionWithdrawn',
  'HalfTermReportQaReviewClaimed',
  'HalfTermReportQaReviewReleased',
  'HalfTermReportChangesRequested',
  'HalfTermReportQaApproved',
  'HalfTermReportQaApprovalRevoked',
  'HalfTermReportLeadReviewClaimed',
  'HalfTermReportLeadReviewReleased',
  'HalfTermReportReturnedToQa',
  'HalfTermReportReturnedToWriter',
  'HalfTermReportPublished',
  'HalfTermReportPublicationRevoked',
  'HalfTermReportDiscarded',
  'HalfTermReportRestored',
  'HalfTermReportDeadlineExtended',
  'HalfTermReportDeadlineMissed',
  'HalfTermReportFactsRefreshed',
];

export const halfTermReportStream = (reportId: string) => `halfTermReport-${reportId}`;

/** The collaborative document kind of a report's text (`half-term-report:{id}`). */
export const HALF_TERM_REPORT_DOCUMENT_KIND = 'half-term-report';

/** A partner opened or downloaded a published report: the provider's read receipt (`halfTermReportViews-{id}`). */
export interface ReportViewedData {
  reportId: string;
  customerId: string;
  viewerId: string;
  revision: number;
  via: 'view' | 'pdf';
}
export type ReportViewEvent = { type: 'HalfTermReportViewedByPartner'; data: ReportViewedData };
export const REPORT_VIEW_EVENT_TYPES: readonly ReportViewEvent['type'][] = ['HalfTermReportViewedByPartner'];
export const halfTermReportViewsStream = (reportId: string) => `halfTermReportViews-${reportId}`;

/**
 * The report's text as the collaboration server saw it change (decision 0060), in its own stream
 * `halfTermReportText-{id}` (so it never races the workflow's commands): suggestions made, accepted and
 * rejected (derived by diffing the suggestion ids of each persisted batch, with the text), and updates
 * the server refused (kept with their bytes: never silently lost). `open` is the number of unresolved
 * suggestions after the change.
 */
export interface SuggestionEventData {
  reportId: string;
  suggestionId: string;
  /** The user who made the suggestion (from its id). */
  authorId: string | null;
  inserted: string;
  deleted: string;
  open: number;
  /** Writers and claimers when it happened (they hear it live). */
  audience?: string[];
}
export interface RefusedEditData {
  reportId: string;
  by: string;
  /** `direct_edit` (suggest-only user changed the text), `foreign_suggestion`, `formatting`, `sections`, `read_only`. */
  reason: string;
  /** The refused Yjs update, base64 (an administrator can still apply it). */
  update: string;
  /** What the update would have changed, as plain text (with every suggestion accepted). */
  removed: string;
  inserted: string;
}
/**
 * A QA reviewer or QA lead edited the text directly (not as a suggestion) while reviewing it (brief §2;
 * decision 0067): logged once per reviewer and claim, at the first direct edit.
 */
export interface DirectEditDuringReviewData {
  reportId: string;
  by: string;
  /** The review state: `in_qa` or `in_lead_review`. */
  state: 'in_qa' | 'in_lead_review';
  /** What the first direct edit changed, as plain text. */
  removed: string;
  inserted: string;
  /** The writers (they hear it live; their open report shows it in its timeline). */
  audience?: string[];
}
export type ReportTextEvent =
  | { type: 'HalfTermReportSuggestionMade'; data: SuggestionEventData }
  | {
      type: 'HalfTermReportSuggestionAccepted';
      data: SuggestionEventData & { by: string | null; actors: string[] };
    }
  | {
      type: 'HalfTermReportSuggestionRejected';
      data: SuggestionEventData & { by: string | null; actors: string[] };
    }
  | { type: 'HalfTermReportEditRefused'; data: RefusedEditData }
  | { type: 'HalfTermReportDirectEditDuringReview'; data: DirectEditDuringReviewData };
export const REPORT_TEXT_EVENT_TYPES: readonly ReportTextEvent['type'][] = [
  'HalfTermReportSuggestionMade',
  'HalfTermReportSuggestionAccepted',
  'HalfTermReportSuggestionRejected',
  'HalfTermReportEditRefused',
  'HalfTermReportDirectEditDuringReview',
];
export const halfTermReportTextStream = (reportId: string) => `halfTermReportText-${reportId}`;
