import type {
  IncidentEvent,
  IncidentLiveSummary,
  IncidentStatus,
  IncidentViewedData,
  LiveSummaries,
} from '@portal/projections';
import type { RecordedEvent } from '../platform/event-store/event-store.js';
import { LiveRooms, type Delivery, type LiveActor, type RoomPolicy } from '../platform/live/room-policy.js';
import type { IncidentReporters } from './incident-reporters.js';
import { hasSafeguardingAccess, isSafeguardingLead } from '../identity/policy/policy.js';

/** Live rooms of the safeguarding area (docs/decisions/0027-safeguarding-live-and-escalation.md). */
export const SAFEGUARDING_ROOMS = {
  /** Internal users with safeguarding access (leads too): the triage board. */
  access: 'safeguarding',
  /** Safeguarding leads only: the views log. */
  leads: 'safeguarding-leads',
} as const;

const STATUS_AFTER: Partial<Record<IncidentEvent['type'], IncidentStatus>> = {
  SafeguardingIncidentReported: 'reported',
  SafeguardingIncidentAcknowledged: 'acknowledged',
  SafeguardingIncidentReviewStarted: 'under_review',
  SafeguardingIncidentActionAdded: 'actions',
  SafeguardingIncidentPartnerInformed: 'partner_informed',
  SafeguardingIncidentPartnerFeedbackRecorded: 'partner_feedback',
  SafeguardingIncidentClosed: 'closed',
  SafeguardingIncidentReopened: 'under_review',
};

export function safeguardingRooms(actor: LiveActor): string[] {
  const rooms: string[] = [];
  if (hasSafeguardingAccess(actor.permissions)) rooms.push(SAFEGUARDING_ROOMS.access);
  if (isSafeguardingLead(actor.permissions)) rooms.push(SAFEGUARDING_ROOMS.leads);
  return rooms;
}

/**
 * Who hears about safeguarding events, and what: a small summary (ids, status, risk, when), never the
 * description or any free text. Nothing goes to partners, customers or the admins room; the reporter
 * hears the stage of their own concern. One rule per stream kind of the shared registry (decision 0044).
 */
export function incidentAudience(
  event: RecordedEvent,
  incidentId: string,
  reporters?: IncidentReporters,
): Delivery<LiveSummaries['incident']>[] {
  // The fields some incident event types carry (each read only for its own type below).
  const data = (event.data ?? {}) as Partial<{
    riskLevel: string;
    occurredAt: string;
    typeIds: string[];
    students: unknown[];
    to: string;
    minutesUnacknowledged: number;
    leadId: string;
  }>;
  const summary: IncidentLiveSummary = { incidentId };
  const status = STATUS_AFTER[event.type as IncidentEvent['type']];
  if (status) summary.status = status;
  switch (event.type) {
    case 'SafeguardingIncidentReported':
      summary.riskLevel = data.riskLevel;
      summary.occurredAt = data.occurredAt;
      summary.typeIds = data.typeIds;
      summary.studentCount = Array.isArray(data.students) ? data.students.length : 0;
      break;
    case 'SafeguardingIncidentRiskLevelChanged':
      summary.riskLevel = data.to;
      break;
    case 'SafeguardingIncidentEscalated':
      summary.escalated = true;
      summary.minutesUnacknowledged = data.minutesUnacknowledged;
      break;
    case 'SafeguardingIncidentReviewStarted':
    case 'SafeguardingIncidentClaimed':
      summary.assignedLeadId = data.leadId;
      break;
    case 'SafeguardingIncidentReleased':
      summary.assignedLeadId = null;
      break;
  }
  const deliveries: Delivery<LiveSummaries['incident']>[] = [
    { room: SAFEGUARDING_ROOMS.access, data: summary },
  ];
  // The reporter follows their concern (issue 18): its stage, nothing else (a socket that also has
  // access gets the board's summary above, the first delivery for it). Not their own report itself.
  reporters?.noteEvent(event);
  const reporterId = reporters?.reporterOf(incidentId);
  if (reporterId && status && event.type !== 'SafeguardingIncidentReported')
    deliveries.push({ room: LiveRooms.user(reporterId), data: { incidentId, status } });
  return deliveries;
}

/** Who viewed an incident: the views log is for leads only. */
export function incidentViewsAudience(
  event: RecordedEvent,
  incidentId: string,
): Delivery<LiveSummaries['incidentViews']>[] {
  const data = event.data as IncidentViewedData;
  return [{ room: SAFEGUARDING_ROOMS.leads, data: { incidentId, viewerId: data.viewerId, via: data.via } }];
}

/** Feedback links (issued, opened, revoked, used) are managed by leads: which link of which incident. */
export function feedbackLinksAudience(
  event: RecordedEvent,
  incidentId: string,
): Delivery<LiveSummaries['feedbackLinks']>[] {
  // Every feedback-link event names its link.
  const data = event.data as { linkId: string };
  return [{ room: SAFEGUARDING_ROOMS.leads, data: { incidentId, linkId: data.linkId } }];
}

export function registerSafeguardingLiveRules(policy: RoomPolicy, reporters: IncidentReporters): void {
  policy
    .addRooms(safeguardingRooms)
    .forStream('incident', (event, id) => incidentAudience(event, id, reporters))
    .forStream('incidentType', (_event, typeId) => [{ room: SAFEGUARDING_ROOMS.access, data: { typeId } }])
    .forStream('incidentViews', incidentViewsAudience)
    .forStream('feedbackLinks', feedbackLinksAudience);
}
