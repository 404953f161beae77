import {
  incidentStream,
  type CorrectableField,
  type IncidentEvent,
  type IncidentReportedData,
  type IncidentStatus,
  type RiskLevel,
} from '@portal/projections';
import { DomainError } from '../platform/domain/domain-error.js';
import type { Aggregate } from '../platform/event-store/aggregate.js';
import { chainLinks } from './hash-chain.js';

/** An incident's state as the workflow needs it, folded from its stream. */
export interface IncidentState {
  exists: boolean;
  status: IncidentStatus;
  riskLevel: RiskLevel;
  reporterId: string | null;
  assignedLeadId: string | null;
  escalated: boolean;
}

export const initialIncidentState: IncidentState = {
  exists: false,
  status: 'reported',
  riskLevel: 'low',
  reporterId: null,
  assignedLeadId: null,
  escalated: false,
};

export type IncidentCommand =
  | ({ type: 'ReportIncident'; now: string } & IncidentReportedData)
  | { type: 'AcknowledgeIncident'; incidentId: string; leadId: string }
  | { type: 'StartReview'; incidentId: string; leadId: string }
  | {
      type: 'AddAction';
      incidentId: string;
      actionId: string;
      description: string;
      assigneeId: string;
      dueDate: string;
      referral: { agency: string; reference: string | null } | null;
    }
  | { type: 'InformPartner'; incidentId: string; method: string; note: string }
  | {
      type: 'RecordPartnerFeedback';
      incidentId: string;
      feedback: string;
      /** Through a feedback link (docs/decisions/0030-partner-feedback-links.md). */
      via?: { feedbackId: string; linkId: string };
    }
  | { type: 'CloseIncident'; incidentId: string; outcome: string }
  | { type: 'ReopenIncident'; incidentId: string; reason: string }
  | { type: 'ChangeRiskLevel'; incidentId: string; to: RiskLevel; reason: string }
  | {
      type: 'CorrectIncident';
      incidentId: string;
      field: CorrectableField;
      value: string | null;
      reason: string;
    }
  | { type: 'ClaimIncident'; incidentId: string; leadId: string }
  | { type: 'ReleaseIncident'; incidentId: string; byLeadId: string }
  | {
      type: 'EscalateIncident';
      incidentId: string;
      minutesUnacknowledged: number;
      leadsNotified: string[];
    };

export function evolveIncident(state: IncidentState, event: IncidentEvent): IncidentState {
  switch (event.type) {
    case 'SafeguardingIncidentReported':
      return {
        ...state,
        exists: true,
        status: 'reported',
        riskLevel: event.data.riskLevel,
        reporterId: event.data.reporterId,
      };
    case 'SafeguardingIncidentAcknowledged':
      return { ...state, status: 'acknowledged' };
    case 'SafeguardingIncidentReviewStarted':
      return { ...state, status: 'under_review', assignedLeadId: event.data.leadId };
    case 'SafeguardingIncidentActionAdded':
      return { ...state, status: 'actions' };
    case 'SafeguardingIncidentPartnerInformed':
      return { ...state, status: 'partner_informed' };
    case 'SafeguardingIncidentPartnerFeedbackRecorded':
      return { ...state, status: 'partner_feedback' };
    case 'SafeguardingIncidentClosed':
      return { ...state, status: 'closed' };
    case 'SafeguardingIncidentReopened':
      return { ...state, status: 'under_review' };
    case 'SafeguardingIncidentRiskLevelChanged':
      return { ...state, riskLevel: event.data.to };
    case 'SafeguardingIncidentCorrected':
      return state;
    case 'SafeguardingIncidentEscalated':
      return { ...state, escalated: true };
    case 'SafeguardingIncidentClaimed':
      return { ...state, assignedLeadId: event.data.leadId };
    case 'SafeguardingIncidentReleased':
      return { ...state, assignedLeadId: null };
  }
}

export const foldIncident = (events: IncidentEvent[]) => events.reduce(evolveIncident, initialIncidentState);

/**
 * Which states each workflow step may start from (docs/decisions/0025-safeguarding-workflow-api.md).
 * Anything else is a 409 whose detail names the current state.
 */
export const ALLOWED_FROM: Record<
  Exclude<
    IncidentCommand['type'],
    'ReportIncident' | 'CorrectIncident' | 'ChangeRiskLevel' | 'ClaimIncident' | 'ReleaseIncident'
  >,
  readonly IncidentStatus[]
> = {
  AcknowledgeIncident: ['reported'],
  StartReview: ['acknowledged'],
  AddAction: ['under_review', 'actions'],
  InformPartner: ['under_review', 'actions'],
  RecordPartnerFeedback: ['partner_informed', 'partner_feedback'],
  CloseIncident: ['under_review', 'actions', 'partner_informed', 'partner_feedback'],
  ReopenIncident: ['closed'],
  EscalateIncident: ['reported'],
};

const VERB: Record<keyof typeof ALLOWED_FROM, string> = {
  AcknowledgeIncident: 'acknowledge',
  StartReview: 'start the review of',
  AddAction: 'add an action to',
  InformPartner: 'record that the partner was informed of',
  RecordPartnerFeedback: 'record partner feedback on',
  CloseIncident: 'close',
  ReopenIncident: 'reopen',
  EscalateIncident: 'escalate',
};

function requireFrom(command: keyof typeof ALLOWED_FROM, state: IncidentState) {
  if (!ALLOWED_FROM[command].includes(state.status))
    throw new DomainError(
      'conflict',
      `Cannot ${VERB[command]} an incident that is ${state.status} (allowed from: ${ALLOWED_FROM[command].join(', ')})`,
    );
}

/** Small clock skew allowed for "when it happened" (a report may be backdated, never in the future). */
const FUTURE_TOLERANCE_MS = 5 * 60_000;

/** The safeguarding workflow's rules: pure, given the folded stream and a command, the new events. */
export function decideIncident(command: IncidentCommand, state: IncidentState): IncidentEvent[] {
  if (command.type === 'ReportIncident') {
    if (state.exists) throw new DomainError('conflict', 'Incident already exists');
    if (Date.parse(command.occurredAt) > Date.parse(command.now) + FUTURE_TOLERANCE_MS)
      throw new DomainError('invalid', 'occurred_at must not be in the future');
    const { type: _type, now: _now, ...data } = command;
    return [{ type: 'SafeguardingIncidentReported', data }];
  }
  if (!state.exists) throw new DomainError('not_found', 'Incident not found');
  const incidentId = command.incidentId;
  switch (command.type) {
    case 'AcknowledgeIncident':
      requireFrom(command.type, state);
      return [{ type: 'SafeguardingIncidentAcknowledged', data: { incidentId, leadId: command.leadId } }];
    case 'StartReview':
      requireFrom(command.type, state);
      return [{ type: 'SafeguardingIncidentReviewStarted', data: { incidentId, leadId: command.leadId } }];
    case 'AddAction':
      requireFrom(command.type, state);
      return [
        {
          type: 'SafeguardingIncidentActionAdded',
          data: {
            incidentId,
            actionId: command.actionId,
            description: command.description,
            assigneeId: command.assigneeId,
            dueDate: command.dueDate,
            referral: command.referral,
          },
        },
      ];
    case 'InformPartner':
      requireFrom(command.type, state);
      return [
        {
          type: 'SafeguardingIncidentPartnerInformed',
          data: { incidentId, method: command.method, note: command.note },
        },
      ];
    case 'RecordPartnerFeedback':
      requireFrom(command.type, state);
      return [
        {
          type: 'SafeguardingIncidentPartnerFeedbackRecorded',
          data: command.via
            ? {
                incidentId,
                feedback: command.feedback,
                feedbackId: command.via.feedbackId,
                viaLinkId: command.via.linkId,
              }
            : { incidentId, feedback: command.feedback },
        },
      ];
    case 'CloseIncident':
      requireFrom(command.type, state);
      return [{ type: 'SafeguardingIncidentClosed', data: { incidentId, outcome: command.outcome } }];
    case 'ReopenIncident':
      requireFrom(command.type, state);
      return [{ type: 'SafeguardingIncidentReopened', data: { incidentId, reason: command.reason } }];
    case 'ChangeRiskLevel':
      if (state.status === 'closed')
        throw new DomainError('conflict', 'Cannot change the risk level of an incident that is closed');
      if (!command.reason.trim())
        throw new DomainError('invalid', 'reason is required to change the risk level');
      if (command.to === state.riskLevel)
        throw new DomainError('conflict', `Risk level is already ${state.riskLevel}`);
      return [
        {
          type: 'SafeguardingIncidentRiskLevelChanged',
          data: { incidentId, from: state.riskLevel, to: command.to, reason: command.reason },
        },
      ];
    case 'CorrectIncident':
      if (!command.reason.trim()) throw new DomainError('invalid', 'reason is required for a correction');
      if (command.field !== 'lesson_id' && !command.value)
        throw new DomainError('invalid', `value is required to correct ${command.field}`);
      return [
        {
          type: 'SafeguardingIncidentCorrected',
          data: { incidentId, field: command.field, value: command.value, reason: command.reason },
        },
      ];
    case 'ClaimIncident':
      if (state.status === 'closed')
        throw new DomainError('conflict', 'Cannot claim an incident that is closed');
      if (state.assignedLeadId === command.leadId)
        throw new DomainError('conflict', 'You have already claimed this incident');
      if (state.assignedLeadId !== null)
        throw new DomainError(
          'conflict',
          'Cannot claim an incident that is claimed by another lead (it must be released first)',
        );
      return [{ type: 'SafeguardingIncidentClaimed', data: { incidentId, leadId: command.leadId } }];
    case 'ReleaseIncident':
      if (state.status === 'closed')
        throw new DomainError('conflict', 'Cannot release an incident that is closed');
      if (state.assignedLeadId === null)
        throw new DomainError('conflict', 'Cannot release an incident that is not claimed');
      return [{ type: 'SafeguardingIncidentReleased', data: { incidentId, leadId: state.assignedLeadId } }];
    case 'EscalateIncident':
      requireFrom(command.type, state);
      if (state.escalated) throw new DomainError('conflict', 'Incident is already escalated');
      return [
        {
          type: 'SafeguardingIncidentEscalated',
          data: {
            incidentId,
            minutesUnacknowledged: command.minutesUnacknowledged,
            leadsNotified: command.leadsNotified,
          },
        },
      ];
  }
}

/** The incident aggregate: every event is linked into the stream's hash chain (decision 0026). */
export const incidentAggregate: Aggregate<IncidentState, IncidentCommand, IncidentEvent> = {
  stream: incidentStream,
  idOf: (command) => command.incidentId,
  initialState: () => initialIncidentState,
  evolve: evolveIncident,
  decide: decideIncident,
  linkMetadata: chainLinks,
};
