/**
 * Safeguarding events (issue 6). Incident types live in `safeguarding-incident-type-{id}` streams,
 * incidents in `safeguarding-incident-{id}` (every event there carries a hash-chain link in its
 * metadata), and the record of who read an incident in `safeguarding-incident-views-{id}` so reads never
 * race the incident's expected revision.
 */

export const incidentTypeStream = (typeId: string) => `safeguarding-incident-type-${typeId}`;
export const incidentStream = (incidentId: string) => `safeguarding-incident-${incidentId}`;
export const incidentViewsStream = (incidentId: string) => `safeguarding-incident-views-${incidentId}`;

export type RiskLevel = 'low' | 'medium' | 'high';
export const RISK_LEVELS: readonly RiskLevel[] = ['low', 'medium', 'high'];

export type IncidentStatus =
  | 'reported'
  | 'acknowledged'
  | 'under_review'
  | 'actions'
  | 'partner_informed'
  | 'partner_feedback'
  | 'closed';
export const INCIDENT_STATUSES: readonly IncidentStatus[] = [
  'reported',
  'acknowledged',
  'under_review',
  'actions',
  'partner_informed',
  'partner_feedback',
  'closed',
];

/** Fields a correction may change (a correction is a new event; the original stays in the stream). */
export type CorrectableField = 'description' | 'immediate_action' | 'occurred_at' | 'lesson_id';
export const CORRECTABLE_FIELDS: readonly CorrectableField[] = [
  'description',
  'immediate_action',
  'occurred_at',
  'lesson_id',
];

// Incident types

export interface IncidentTypeCreatedData {
  typeId: string;
  name: string;
  guidance: string;
}
export interface IncidentTypeUpdatedData {
  typeId: string;
  name?: string;
  guidance?: string;
}
export interface IncidentTypeRetiredData {
  typeId: string;
}

export type IncidentTypeEvent =
  | { type: 'SafeguardingIncidentTypeCreated'; data: IncidentTypeCreatedData }
  | { type: 'SafeguardingIncidentTypeUpdated'; data: IncidentTypeUpdatedData }
  | { type: 'SafeguardingIncidentTypeRetired'; data: IncidentTypeRetiredData };

export const INCIDENT_TYPE_EVENT_TYPES: readonly IncidentTypeEvent['type'][] = [
  'SafeguardingIncidentTypeCreated',
  'SafeguardingIncidentTypeUpdated',
  'SafeguardingIncidentTypeRetired',
];

// Incidents

export interface IncidentStudent {
  studentId: string;
  /** The student's customer when reported (partners see incidents of their own customer's students). */
  customerId: string | null;
}

export interface IncidentReportedData {
  incidentId: string;
  reporterId: string;
  students: IncidentStudent[];
  typeIds: string[];
  /** When it happened (may be earlier than the report: backdated). */
  occurredAt: string;
  lessonId: string | null;
  description: string;
  immediateAction: string;
  leadToldVerbally: boolean;
  riskLevel: RiskLevel;
}
export interface IncidentAcknowledgedData {
  incidentId: string;
  leadId: string;
}
export interface IncidentReviewStartedData {
  incidentId: string;
  /** The lead assigned to review it. */
  leadId: string;
}
export interface IncidentActionAddedData {
  incidentId: string;
  actionId: string;
  description: string;
  assigneeId: string;
  dueDate: string;
  /** A referral to an external agency (children's services, police, ...), when the action is one. */
  referral: { agency: string; reference: string | null } | null;
}
export interface IncidentPartnerInformedData {
  incidentId: string;
  method: string;
  note: string;
}
export interface IncidentPartnerFeedbackData {
  incidentId: string;
  feedback: string;
  /** Set when the partner submitted it through a feedback link (docs/decisions/0030). */
  feedbackId?: string;
  viaLinkId?: string;
}
export interface IncidentClosedData {
  incidentId: string;
  outcome: string;
}
export interface IncidentReopenedData {
  incidentId: string;
  reason: string;
}
export interface IncidentRiskChangedData {
  incidentId: string;
  from: RiskLevel;
  to: RiskLevel;
  reason: string;
}
export interface IncidentCorrectedData {
  incidentId: string;
  field: CorrectableField;
  /** The new value (null clears `lesson_id`). */
  value: string | null;
  reason: string;
}
export interface IncidentEscalatedData {
  incidentId: string;
  /** Minutes it had been waiting for an acknowledgement. */
  minutesUnacknowledged: number;
  /** Lead user ids an e-mail was queued for. */
  leadsNotified: string[];
}

/** A lead took the incident on ("claimed by"); the same field the review's assigned lead sets. */
export interface IncidentClaimedData {
  incidentId: string;
  leadId: string;
}
/** The claim ended (by its holder, or another lead when the holder is away). */
export interface IncidentReleasedData {
  incidentId: string;
  /** The lead whose claim ended. */
  leadId: string;
}

export type IncidentEvent =
  | { type: 'SafeguardingIncidentReported'; data: IncidentReportedData }
  | { type: 'SafeguardingIncidentAcknowledged'; data: IncidentAcknowledgedData }
  | { type: 'SafeguardingIncidentReviewStarted'; data: IncidentReviewStartedData }
  | { type: 'SafeguardingIncidentActionAdded'; data: IncidentActionAddedData }
  | { type: 'SafeguardingIncidentPartnerInformed'; data: IncidentPartnerInformedData }
  | { type: 'SafeguardingIncidentPartnerFeedbackRecorded'; data: IncidentPartnerFeedbackData }
  | { type: 'SafeguardingIncidentClosed'; data: IncidentClosedData }
  | { type: 'SafeguardingIncidentReopened'; data: IncidentReopenedData }
  | { type: 'SafeguardingIncidentRiskLevelChanged'; data: IncidentRiskChangedData }
  | { type: 'SafeguardingIncidentCorrected'; data: IncidentCorrectedData }
  | { type: 'SafeguardingIncidentEscalated'; data: IncidentEscalatedData }
  | { type: 'SafeguardingIncidentClaimed'; data: IncidentClaimedData }
  | { type: 'SafeguardingIncidentReleased'; data: IncidentReleasedData };

export const INCIDENT_EVENT_TYPES: readonly IncidentEvent['type'][] = [
  'SafeguardingIncidentReported',
  'SafeguardingIncidentAcknowledged',
  'SafeguardingIncidentReviewStarted',
  'SafeguardingIncidentActionAdded',
  'SafeguardingIncidentPartnerInformed',
  'SafeguardingIncidentPartnerFeedbackRecorded',
  'SafeguardingIncidentClosed',
  'SafeguardingIncidentReopened',
  'SafeguardingIncidentRiskLevelChanged',
  'SafeguardingIncidentCorrected',
  'SafeguardingIncidentEscalated',
  'SafeguardingIncidentClaimed',
  'SafeguardingIncidentReleased',
];

// Reads

export type ViewedVia = 'details' | 'reporter' | 'partner' | 'chronology' | 'pdf';
export interface IncidentViewedData {
  incidentId: string;
  viewerId: string;
  via: ViewedVia;
}
export type IncidentViewEvent = { type: 'SafeguardingIncidentViewed'; data: IncidentViewedData };

/** The hash-chain link every incident event carries in its metadata. */
export interface ChainLink {
  /** sha256 (hex) of canonical JSON of { type, data, previous }. */
  chainHash: string;
  /** The previous event's chainHash ('' for the first event of the stream). */
  chainPrevious: string;
}
