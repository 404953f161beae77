import { expect } from '@jest/globals';
import { safeguardingProjection, type ProjectionEvent } from '@portal/projections';
import { describeFoldInBatches, record } from '../platform/testing/projection-contract.js';

/**
 * Decision 0088: a batch of safeguarding events folds the incidents it reports in memory and writes
 * their rows and chronology lines once; the steps of incidents reported before the batch go to SQL.
 * Whatever the batch boundaries, the rows must be those of event-by-event apply. The history walks
 * every step (actions, referrals, partner steps, risk, corrections that move the report's lines,
 * escalation, claims, closing and reopening), a student listed twice, ids in capitals, a step before
 * its incident's report, a second report, a read receipt, and an incident reported before the batch.
 */
const id = (n: number) => `abcdef00-0000-4000-8000-${String(n).padStart(12, '0')}`;
const [OLD, A, C] = [id(1), id(2), id(3)];
const [S1, S2, S3] = [id(11), id(12), id(13)];
const [TYPE, LEAD, TEACHER, OAK] = [id(21), id(22), id(23), id(24)];
const incident = (incidentId: string) => `safeguarding-incident-${incidentId}`;
const reported = (incidentId: string, students: string[], occurredAt = '2026-10-31T12:00:00.000Z') => ({
  incidentId,
  reporterId: TEACHER,
  students: students.map((studentId) => ({ studentId, customerId: OAK })),
  typeIds: [TYPE],
  occurredAt,
  lessonId: id(30),
  description: `Report ${incidentId.slice(-1)}`,
  immediateAction: 'Stayed with the student',
  leadToldVerbally: true,
  riskLevel: 'medium',
});

const history: ProjectionEvent[] = record([
  [
    `safeguarding-incident-type-${TYPE}`,
    'SafeguardingIncidentTypeCreated',
    { typeId: TYPE, name: 'Neglect', guidance: '' },
  ],
  [incident(OLD), 'SafeguardingIncidentReported', reported(OLD, [S3])],
  [incident(OLD), 'SafeguardingIncidentAcknowledged', { incidentId: OLD, leadId: LEAD }],
  // Before its report: no row, no line.
  [incident(C), 'SafeguardingIncidentClaimed', { incidentId: C, leadId: LEAD }],
  // S1 twice (once in capitals): one line per student and step.
  [incident(A), 'SafeguardingIncidentReported', reported(A.toUpperCase(), [S1.toUpperCase(), S2, S1])],
  [incident(A), 'SafeguardingIncidentAcknowledged', { incidentId: A, leadId: LEAD.toUpperCase() }],
  [incident(A), 'SafeguardingIncidentReviewStarted', { incidentId: A, leadId: LEAD }],
  [
    incident(A),
    'SafeguardingIncidentActionAdded',
    {
      incidentId: A,
      actionId: 'x1',
      description: 'Call home',
      assigneeId: LEAD,
      dueDate: '2026-11-05',
      referral: null,
    },
  ],
  [
    incident(A),
    'SafeguardingIncidentActionAdded',
    {
      incidentId: A,
      actionId: 'x2',
      description: 'Refer',
      assigneeId: LEAD,
      dueDate: '2026-11-06',
      referral: { agency: "Children's services", reference: null },
    },
  ],
  [
    `safeguarding-incident-views-${A}`,
    'SafeguardingIncidentViewed',
    { incidentId: A, viewerId: LEAD, via: 'details' },
  ],
  [
    incident(OLD),
    'SafeguardingIncidentRiskLevelChanged',
    { incidentId: OLD, from: 'medium', to: 'high', reason: 'More' },
  ],
  [incident(A), 'SafeguardingIncidentPartnerInformed', { incidentId: A, method: 'phone', note: 'Head told' }],
  [
    incident(A),
    'SafeguardingIncidentPartnerFeedbackRecorded',
    { incidentId: A, feedback: 'Thanks', viaLinkId: 'l1' },
  ],
  [
    incident(A),
    'SafeguardingIncidentCorrected',
    { incidentId: A, field: 'occurred_at', value: '2026-10-30T09:00:00.000Z', reason: 'Wrong day' },
  ],
  [
    incident(A),
    'SafeguardingIncidentCorrected',
    { incidentId: A, field: 'lesson_id', value: null, reason: 'No lesson' },
  ],
  [incident(C), 'SafeguardingIncidentReported', reported(C, [S3], '2026-09-01T08:00:00.000Z')],
  [incident(C), 'SafeguardingIncidentReported', reported(C, [S1], '2026-09-02T08:00:00.000Z')], // keeps the row
  [
    incident(C),
    'SafeguardingIncidentEscalated',
    { incidentId: C, minutesUnacknowledged: 30, leadsNotified: [LEAD] },
  ],
  [incident(C), 'SafeguardingIncidentClaimed', { incidentId: C, leadId: LEAD }],
  [incident(C), 'SafeguardingIncidentReleased', { incidentId: C, leadId: LEAD }],
  [incident(A), 'SafeguardingIncidentClosed', { incidentId: A, outcome: 'Resolved' }],
  [incident(A), 'SafeguardingIncidentReopened', { incidentId: A, reason: 'New concern' }],
  [incident(OLD), 'SafeguardingIncidentClosed', { incidentId: OLD, outcome: 'Done' }],
]);

describeFoldInBatches('safeguarding incidents', 'portal_incident_fold', safeguardingProjection, history, {
  title: 'event by event, the history sets every incident step and its chronology',
  async check(sql) {
    const { rows } = await sql.query<Record<string, unknown>>(
      `SELECT id::text, status, risk_level, lesson_id, occurred_at, assigned_lead_id::text AS lead, escalated_at IS NOT NULL AS escalated,
            jsonb_array_length(actions) AS actions, jsonb_array_length(partner_feedback) AS feedback, student_ids
       FROM rm_sg_incidents ORDER BY id`,
    );
    expect(rows).toEqual([
      expect.objectContaining({ id: OLD, status: 'closed', risk_level: 'high' }),
      expect.objectContaining({
        id: A,
        status: 'under_review',
        lesson_id: null,
        occurred_at: new Date('2026-10-30T09:00:00.000Z'),
        lead: LEAD,
        actions: 2,
        feedback: 1,
        student_ids: [S1.toUpperCase(), S2, S1],
      }),
      expect.objectContaining({ id: C, status: 'reported', lead: null, escalated: true, student_ids: [S3] }),
    ]);
    const lines = await sql.query<{ student: string; kind: string; at: Date }>(
      `SELECT student_id::text AS student, kind, occurred_at AS at FROM rm_sg_chronology
      WHERE incident_id = $1 ORDER BY position, student_id`,
      [A],
    );
    // 11 steps of A for two students; its report's lines moved to the corrected time.
    expect(lines.rows).toHaveLength(22);
    expect(lines.rows.filter((l) => l.kind === 'reported')).toEqual([
      { student: S1, kind: 'reported', at: new Date('2026-10-30T09:00:00.000Z') },
      { student: S2, kind: 'reported', at: new Date('2026-10-30T09:00:00.000Z') },
    ]);
  },
});
