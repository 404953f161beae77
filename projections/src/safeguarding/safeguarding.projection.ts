import {
  defineProjection,
  FOLD_FROM,
  guardedSet,
  type ProjectionEvent,
  type ProjectionTx,
} from '../projection.js';
import {
  Append,
  IncidentFold,
  sqlIncidentWrites,
  type IncidentSet,
  type IncidentWrites,
} from './incident-writes.js';
import {
  INCIDENT_EVENT_TYPES,
  INCIDENT_TYPE_EVENT_TYPES,
  type IncidentEvent,
  type IncidentTypeEvent,
  type IncidentViewEvent,
} from './safeguarding-events.js';

/**
 * Safeguarding read models: incident types, incidents (one row each, for the triage board's filters),
 * the per-student chronology (one row per incident step per student, sorted by when it happened, so a
 * backdated report sits in its place) and the views log.
 */
export interface IncidentTypeRow {
  id: string;
  name: string;
  guidance: string;
  retired: boolean;
  created_at: Date;
  updated_at: Date;
  version: string;
}

export interface IncidentActionRow {
  id: string;
  description: string;
  assignee_id: string;
  due_date: string;
  referral: { agency: string; reference: string | null } | null;
  added_by: string | null;
  added_at: string;
}

export interface IncidentStepRow {
  at: string;
  by: string | null;
  text: string;
}

export interface IncidentRow {
  id: string;
  status: string;
  risk_level: string;
  reporter_id: string;
  student_ids: string[];
  customer_ids: string[];
  type_ids: string[];
  occurred_at: Date;
  reported_at: Date;
  lesson_id: string | null;
  description: string;
  immediate_action: string;
  lead_told_verbally: boolean;
  acknowledged_at: Date | null;
  acknowledged_by: string | null;
  assigned_lead_id: string | null;
  escalated_at: Date | null;
  closed_at: Date | null;
  actions: IncidentActionRow[];
  partner_informed: IncidentStepRow[];
  partner_feedback: IncidentStepRow[];
  updated_at: Date;
  version: string;
  /** Global position of the incident's last event. */
  position: string;
}

export interface ChronologyRow {
  position: string;
  student_id: string;
  incident_id: string;
  occurred_at: Date;
  kind: string;
  summary: string;
  actor_id: string | null;
}

export interface IncidentViewRow {
  position: string;
  incident_id: string;
  viewer_id: string;
  via: string;
  viewed_at: Date;
}

const SAFEGUARDING_EVENT_TYPES = [
  ...INCIDENT_TYPE_EVENT_TYPES,
  ...INCIDENT_EVENT_TYPES,
  'SafeguardingIncidentViewed',
] as const;

type AnyEvent = IncidentTypeEvent | IncidentEvent | IncidentViewEvent;

/** The chronology line of an incident step ("Reported", "Risk raised to high: ..."). */
export function chronologyEntry(e: IncidentEvent): { kind: string; summary: string } {
  switch (e.type) {
    case 'SafeguardingIncidentReported':
      return { kind: 'reported', summary: e.data.description };
    case 'SafeguardingIncidentAcknowledged':
      return { kind: 'acknowledged', summary: 'Acknowledged by a safeguarding lead' };
    case 'SafeguardingIncidentReviewStarted':
      return { kind: 'under_review', summary: 'Review started' };
    case 'SafeguardingIncidentActionAdded':
      return {
        kind: e.data.referral ? 'referral' : 'action',
        summary: e.data.referral
          ? `Referral to ${e.data.referral.agency}: ${e.data.description} (due ${e.data.dueDate})`
          : `${e.data.description} (due ${e.data.dueDate})`,
      };
    case 'SafeguardingIncidentPartnerInformed':
      return { kind: 'partner_informed', summary: `Partner informed (${e.data.method}): ${e.data.note}` };
    case 'SafeguardingIncidentPartnerFeedbackRecorded':
      return {
        kind: 'partner_feedback',
        summary: e.data.viaLinkId ? `Via feedback link: ${e.data.feedback}` : e.data.feedback,
      };
    case 'SafeguardingIncidentClosed':
      return { kind: 'closed', summary: e.data.outcome };
    case 'SafeguardingIncidentReopened':
      return { kind: 'reopened', summary: e.data.reason };
    case 'SafeguardingIncidentRiskLevelChanged':
      return { kind: 'risk_changed', summary: `Risk ${e.data.from} → ${e.data.to}: ${e.data.reason}` };
    case 'SafeguardingIncidentCorrected':
      return { kind: 'corrected', summary: `Corrected ${e.data.field}: ${e.data.reason}` };
    case 'SafeguardingIncidentEscalated':
      return {
        kind: 'escalated',
        summary: `Escalated: not acknowledged within ${e.data.minutesUnacknowledged} minutes`,
      };
    case 'SafeguardingIncidentClaimed':
      return { kind: 'claimed', summary: 'Claimed by a safeguarding lead' };
    case 'SafeguardingIncidentReleased':
      return { kind: 'released', summary: 'Claim released' };
  }
}

export const safeguardingProjection = defineProjection({
  name: 'safeguarding',
  version: 1,
  tables: ['rm_sg_incident_types', 'rm_sg_incidents', 'rm_sg_chronology', 'rm_sg_views'],
  schema: [
    `CREATE TABLE IF NOT EXISTS rm_sg_incident_types (
       id          uuid PRIMARY KEY,
       name        text NOT NULL,
       guidance    text NOT NULL,
       retired     boolean NOT NULL DEFAULT false,
       created_at  timestamptz NOT NULL,
       updated_at  timestamptz NOT NULL,
       version     bigint NOT NULL
     )`,
    `CREATE TABLE IF NOT EXISTS rm_sg_incidents (
       id                 uuid PRIMARY KEY,
       status             text NOT NULL,
       risk_level         text NOT NULL,
       reporter_id        uuid NOT NULL,
       student_ids        jsonb NOT NULL,
       customer_ids       jsonb NOT NULL,
       type_ids           jsonb NOT NULL,
       occurred_at        timestamptz NOT NULL,
       reported_at        timestamptz NOT NULL,
       lesson_id          text,
       description        text NOT NULL,
       immediate_action   text NOT NULL,
       lead_told_verbally boolean NOT NULL,
       acknowledged_at    timestamptz,
       acknowledged_by    uuid,
       assigned_lead_id   uuid,
       escalated_at       timestamptz,
       closed_at          timestamptz,
       actions            jsonb NOT NULL DEFAULT '[]',
       partner_informed   jsonb NOT NULL DEFAULT '[]',
       partner_feedback   jsonb NOT NULL DEFAULT '[]',
       updated_at         timestamptz NOT NULL,
       version            bigint NOT NULL,
       position           bigint NOT NULL
     )`,
    `CREATE INDEX IF NOT EXISTS rm_sg_incidents_reported ON rm_sg_incidents (reported_at DESC, id)`,
    `CREATE INDEX IF NOT EXISTS rm_sg_incidents_waiting ON rm_sg_incidents (reported_at)
       WHERE status = 'reported' AND escalated_at IS NULL`,
    `CREATE TABLE IF NOT EXISTS rm_sg_chronology (
       position     bigint NOT NULL,
       student_id   uuid NOT NULL,
       incident_id  uuid NOT NULL,
       occurred_at  timestamptz NOT NULL,
       kind         text NOT NULL,
       summary      text NOT NULL,
       actor_id     uuid,
       PRIMARY KEY (position, student_id)
     )`,
    `CREATE INDEX IF NOT EXISTS rm_sg_chronology_student ON rm_sg_chronology (student_id, occurred_at, position)`,
    `CREATE TABLE IF NOT EXISTS rm_sg_views (
       position     bigint PRIMARY KEY,
       incident_id  uuid NOT NULL,
       viewer_id    uuid NOT NULL,
       via          text NOT NULL,
       viewed_at    timestamptz NOT NULL
     )`,
    `CREATE INDEX IF NOT EXISTS rm_sg_views_incident ON rm_sg_views (incident_id, position)`,
  ],
  handles: SAFEGUARDING_EVENT_TYPES,
  apply: (event, tx) => applyEvent(event, tx, sqlIncidentWrites(tx)),
  // A rebuild's batches fold the incidents they report (decision 0088); a live batch goes event by event.
  async applyBatch(events, tx) {
    if (events.length < FOLD_FROM) {
      const writes = sqlIncidentWrites(tx);
      for (const e of events) await applyEvent(e, tx, writes);
      return;
    }
    const fold = await IncidentFold.start(events, tx);
    for (const e of events) await applyEvent(e, tx, fold);
    await fold.write();
  },
});

async function applyEvent(event: ProjectionEvent, tx: ProjectionTx, writes: IncidentWrites): Promise<void> {
  const e = { type: event.type, data: event.data } as AnyEvent;
  const at = event.metadata.occurredAt;
  const revision = event.revision.toString();
  const by = event.metadata.actorId ?? null;
  switch (e.type) {
    case 'SafeguardingIncidentTypeCreated':
      await tx.query(
        `INSERT INTO rm_sg_incident_types (id, name, guidance, created_at, updated_at, version)
         VALUES ($1, $2, $3, $4, $4, $5::bigint) ON CONFLICT (id) DO NOTHING`,
        [e.data.typeId, e.data.name, e.data.guidance, at, revision],
      );
      return;
    case 'SafeguardingIncidentTypeUpdated':
      await guardedSet(tx, 'rm_sg_incident_types', e.data.typeId, revision, {
        ...(e.data.name != null ? { name: e.data.name } : {}),
        ...(e.data.guidance != null ? { guidance: e.data.guidance } : {}),
        updated_at: at,
      });
      return;
    case 'SafeguardingIncidentTypeRetired':
      await guardedSet(tx, 'rm_sg_incident_types', e.data.typeId, revision, {
        retired: true,
        updated_at: at,
      });
      return;
    case 'SafeguardingIncidentViewed':
      await tx.query(
        `INSERT INTO rm_sg_views (position, incident_id, viewer_id, via, viewed_at)
         VALUES ($1::bigint, $2, $3, $4, $5) ON CONFLICT (position) DO NOTHING`,
        [event.position.toString(), e.data.incidentId, e.data.viewerId, e.data.via, at],
      );
      return;
    default:
      break;
  }
  const incident = e;
  const line = {
    position: event.position.toString(),
    occurred_at: at,
    ...chronologyEntry(incident),
    actor_id: by,
  };
  if (incident.type === 'SafeguardingIncidentReported') {
    const d = incident.data;
    await writes.report(
      {
        id: d.incidentId,
        risk_level: d.riskLevel,
        reporter_id: d.reporterId,
        student_ids: d.students.map((s) => s.studentId),
        customer_ids: [...new Set(d.students.flatMap((s) => (s.customerId ? [s.customerId] : [])))],
        type_ids: d.typeIds,
        occurred_at: d.occurredAt,
        reported_at: at,
        lesson_id: d.lessonId,
        description: d.description,
        immediate_action: d.immediateAction,
        lead_told_verbally: d.leadToldVerbally,
        version: revision,
        position: event.position.toString(),
      },
      // The report's line sits where it happened (a backdated report in its place).
      { ...line, occurred_at: d.occurredAt },
    );
    return;
  }
  /** The step's line, then `set` on the incident row once, stamped with when and its last event. */
  const step = (set: IncidentSet, moveReportedTo: string | null = null) =>
    writes.step(
      incident.data.incidentId,
      event.revision,
      line,
      { ...set, updated_at: at, position: event.position.toString() },
      moveReportedTo,
    );
  switch (incident.type) {
    case 'SafeguardingIncidentAcknowledged':
      await step({ status: 'acknowledged', acknowledged_at: at, acknowledged_by: incident.data.leadId });
      break;
    case 'SafeguardingIncidentReviewStarted':
      await step({ status: 'under_review', assigned_lead_id: incident.data.leadId });
      break;
    case 'SafeguardingIncidentActionAdded': {
      const d = incident.data;
      const action: IncidentActionRow = {
        id: d.actionId,
        description: d.description,
        assignee_id: d.assigneeId,
        due_date: d.dueDate,
        referral: d.referral,
        added_by: by,
        added_at: at,
      };
      await step({ status: 'actions', actions: new Append(action) });
      break;
    }
    case 'SafeguardingIncidentPartnerInformed': {
      const entry: IncidentStepRow = { at, by, text: `${incident.data.method}: ${incident.data.note}` };
      await step({ status: 'partner_informed', partner_informed: new Append(entry) });
      break;
    }
    case 'SafeguardingIncidentPartnerFeedbackRecorded': {
      const entry: IncidentStepRow = { at, by, text: incident.data.feedback };
      await step({ status: 'partner_feedback', partner_feedback: new Append(entry) });
      break;
    }
    case 'SafeguardingIncidentClosed':
      await step({ status: 'closed', closed_at: at });
      break;
    case 'SafeguardingIncidentReopened':
      await step({ status: 'under_review', closed_at: null });
      break;
    case 'SafeguardingIncidentRiskLevelChanged':
      await step({ risk_level: incident.data.to });
      break;
    case 'SafeguardingIncidentCorrected': {
      const column = {
        description: 'description',
        immediate_action: 'immediate_action',
        occurred_at: 'occurred_at',
        lesson_id: 'lesson_id',
      }[incident.data.field];
      // A corrected time also moves the report's chronology lines (if the update applies).
      const moved = incident.data.field === 'occurred_at' && incident.data.value ? incident.data.value : null;
      await step({ [column]: incident.data.value }, moved);
      break;
    }
    case 'SafeguardingIncidentEscalated':
      await step({ escalated_at: at });
      break;
    case 'SafeguardingIncidentClaimed':
      await step({ assigned_lead_id: incident.data.leadId });
      break;
    case 'SafeguardingIncidentReleased':
      await step({ assigned_lead_id: null });
      break;
  }
}
