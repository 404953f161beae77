import { describe, expect, it } from '@jest/globals';
import type { IncidentEvent, IncidentTypeEvent } from '@portal/projections';
import { decideIncident, foldIncident, type IncidentCommand } from './incident.decider.js';
import { decideIncidentType, foldIncidentType, type IncidentTypeCommand } from './incident-type.decider.js';
import { DomainError } from '../platform/domain/domain-error.js';

const ID = '11111111-1111-4111-8111-111111111111';
const LEAD = '22222222-2222-4222-8222-222222222222';
const TEACHER = '33333333-3333-4333-8333-333333333333';
const STUDENT = '44444444-4444-4444-8444-444444444444';
const TYPE = '55555555-5555-4555-8555-555555555555';
const ACTION = '66666666-6666-4666-8666-666666666666';

const reportedData = {
  incidentId: ID,
  reporterId: TEACHER,
  students: [{ studentId: STUDENT, customerId: null }],
  typeIds: [TYPE],
  occurredAt: '2026-11-01T09:00:00.000Z',
  lessonId: null,
  description: 'Bruise on the arm',
  immediateAction: 'Spoke to the student',
  leadToldVerbally: true,
  riskLevel: 'medium' as const,
};
const reported: IncidentEvent = { type: 'SafeguardingIncidentReported', data: reportedData };
const acknowledged: IncidentEvent = {
  type: 'SafeguardingIncidentAcknowledged',
  data: { incidentId: ID, leadId: LEAD },
};
const reviewing: IncidentEvent = {
  type: 'SafeguardingIncidentReviewStarted',
  data: { incidentId: ID, leadId: LEAD },
};
const action: IncidentEvent = {
  type: 'SafeguardingIncidentActionAdded',
  data: {
    incidentId: ID,
    actionId: ACTION,
    description: 'Refer to children’s services',
    assigneeId: LEAD,
    dueDate: '2026-11-05',
    referral: { agency: 'Children’s services', reference: null },
  },
};
const informed: IncidentEvent = {
  type: 'SafeguardingIncidentPartnerInformed',
  data: { incidentId: ID, method: 'phone', note: 'Spoke to the DSL' },
};
const feedback: IncidentEvent = {
  type: 'SafeguardingIncidentPartnerFeedbackRecorded',
  data: { incidentId: ID, feedback: 'Known to the school' },
};
const closed: IncidentEvent = {
  type: 'SafeguardingIncidentClosed',
  data: { incidentId: ID, outcome: 'Resolved' },
};
const reopened: IncidentEvent = {
  type: 'SafeguardingIncidentReopened',
  data: { incidentId: ID, reason: 'New info' },
};

const report: IncidentCommand = { type: 'ReportIncident', now: '2026-11-02T10:00:00.000Z', ...reportedData };
const ack: IncidentCommand = { type: 'AcknowledgeIncident', incidentId: ID, leadId: LEAD };
const review: IncidentCommand = { type: 'StartReview', incidentId: ID, leadId: LEAD };
const addAction: IncidentCommand = {
  type: 'AddAction',
  incidentId: ID,
  actionId: ACTION,
  description: 'Refer to children’s services',
  assigneeId: LEAD,
  dueDate: '2026-11-05',
  referral: { agency: 'Children’s services', reference: null },
};
const inform: IncidentCommand = {
  type: 'InformPartner',
  incidentId: ID,
  method: 'phone',
  note: 'Spoke to the DSL',
};
const recordFeedback: IncidentCommand = {
  type: 'RecordPartnerFeedback',
  incidentId: ID,
  feedback: 'Known to the school',
};
const close: IncidentCommand = { type: 'CloseIncident', incidentId: ID, outcome: 'Resolved' };
const reopen: IncidentCommand = { type: 'ReopenIncident', incidentId: ID, reason: 'New info' };
const escalate: IncidentCommand = {
  type: 'EscalateIncident',
  incidentId: ID,
  minutesUnacknowledged: 16,
  leadsNotified: [LEAD],
};

const OTHER_LEAD = '77777777-7777-4777-8777-777777777777';
const claim: IncidentCommand = { type: 'ClaimIncident', incidentId: ID, leadId: LEAD };
const release: IncidentCommand = { type: 'ReleaseIncident', incidentId: ID, byLeadId: LEAD };
const claimed: IncidentEvent = {
  type: 'SafeguardingIncidentClaimed',
  data: { incidentId: ID, leadId: LEAD },
};
const released: IncidentEvent = {
  type: 'SafeguardingIncidentReleased',
  data: { incidentId: ID, leadId: LEAD },
};

const rows: Array<{
  name: string;
  given: IncidentEvent[];
  when: IncidentCommand;
  then: IncidentEvent[] | string;
}> = [
  { name: 'reporting records the report', given: [], when: report, then: [reported] },
  {
    name: 'a backdated report is fine',
    given: [],
    when: { ...report, occurredAt: '2025-01-01T00:00:00.000Z' },
    then: [{ ...reported, data: { ...reportedData, occurredAt: '2025-01-01T00:00:00.000Z' } }],
  },
  {
    name: 'a report in the future is refused',
    given: [],
    when: { ...report, occurredAt: '2026-11-03T10:00:00.000Z' },
    then: 'invalid occurred_at must not be in the future',
  },
  {
    name: 'reporting twice conflicts',
    given: [reported],
    when: report,
    then: 'conflict Incident already exists',
  },
  {
    name: 'a step on an unknown incident is not found',
    given: [],
    when: ack,
    then: 'not_found Incident not found',
  },
  { name: 'a lead acknowledges a new report', given: [reported], when: ack, then: [acknowledged] },
  {
    name: 'acknowledging twice names the state',
    given: [reported, acknowledged],
    when: ack,
    then: 'conflict Cannot acknowledge an incident that is acknowledged (allowed from: reported)',
  },
  {
    name: 'review starts after acknowledgement',
    given: [reported, acknowledged],
    when: review,
    then: [reviewing],
  },
  {
    name: 'review cannot skip acknowledgement',
    given: [reported],
    when: review,
    then: 'conflict Cannot start the review of an incident that is reported (allowed from: acknowledged)',
  },
  {
    name: 'actions are added under review',
    given: [reported, acknowledged, reviewing],
    when: addAction,
    then: [action],
  },
  {
    name: 'several actions may be added',
    given: [reported, acknowledged, reviewing, action],
    when: addAction,
    then: [action],
  },
  {
    name: 'no action before review',
    given: [reported],
    when: addAction,
    then: 'conflict Cannot add an action to an incident that is reported (allowed from: under_review, actions)',
  },
  {
    name: 'partner informed after actions',
    given: [reported, acknowledged, reviewing, action],
    when: inform,
    then: [informed],
  },
  {
    name: 'partner feedback after the partner was informed',
    given: [reported, acknowledged, reviewing, action, informed],
    when: recordFeedback,
    then: [feedback],
  },
  {
    name: 'no feedback before the partner was informed',
    given: [reported, acknowledged, reviewing],
    when: recordFeedback,
    then: 'conflict Cannot record partner feedback on an incident that is under_review (allowed from: partner_informed, partner_feedback)',
  },
  {
    name: 'closing after feedback',
    given: [reported, acknowledged, reviewing, action, informed, feedback],
    when: close,
    then: [closed],
  },
  {
    name: 'a new report cannot be closed',
    given: [reported],
    when: close,
    then: 'conflict Cannot close an incident that is reported (allowed from: under_review, actions, partner_informed, partner_feedback)',
  },
  {
    name: 'a closed incident reopens',
    given: [reported, acknowledged, reviewing, closed],
    when: reopen,
    then: [reopened],
  },
  {
    name: 'an open incident cannot be reopened',
    given: [reported],
    when: reopen,
    then: 'conflict Cannot reopen an incident that is reported (allowed from: closed)',
  },
  {
    name: 'a reopened incident is under review again (actions allowed)',
    given: [reported, acknowledged, reviewing, closed, reopened],
    when: addAction,
    then: [action],
  },
  {
    name: 'changing the risk level records from, to and reason',
    given: [reported],
    when: { type: 'ChangeRiskLevel', incidentId: ID, to: 'high', reason: 'Disclosure' },
    then: [
      {
        type: 'SafeguardingIncidentRiskLevelChanged',
        data: { incidentId: ID, from: 'medium', to: 'high', reason: 'Disclosure' },
      },
    ],
  },
  {
    name: 'changing the risk level needs a reason',
    given: [reported],
    when: { type: 'ChangeRiskLevel', incidentId: ID, to: 'high', reason: '  ' },
    then: 'invalid reason is required to change the risk level',
  },
  {
    name: 'the same risk level is a conflict',
    given: [reported],
    when: { type: 'ChangeRiskLevel', incidentId: ID, to: 'medium', reason: 'x' },
    then: 'conflict Risk level is already medium',
  },
  {
    name: 'a closed incident keeps its risk level',
    given: [reported, acknowledged, reviewing, closed],
    when: { type: 'ChangeRiskLevel', incidentId: ID, to: 'low', reason: 'x' },
    then: 'conflict Cannot change the risk level of an incident that is closed',
  },
  {
    name: 'a correction is a new event',
    given: [reported],
    when: {
      type: 'CorrectIncident',
      incidentId: ID,
      field: 'description',
      value: 'Bruise on the left arm',
      reason: 'Typo',
    },
    then: [
      {
        type: 'SafeguardingIncidentCorrected',
        data: { incidentId: ID, field: 'description', value: 'Bruise on the left arm', reason: 'Typo' },
      },
    ],
  },
  {
    name: 'a correction needs a reason',
    given: [reported],
    when: { type: 'CorrectIncident', incidentId: ID, field: 'description', value: 'x', reason: '' },
    then: 'invalid reason is required for a correction',
  },
  {
    name: 'an unacknowledged report escalates',
    given: [reported],
    when: escalate,
    then: [
      {
        type: 'SafeguardingIncidentEscalated',
        data: { incidentId: ID, minutesUnacknowledged: 16, leadsNotified: [LEAD] },
      },
    ],
  },
  {
    name: 'an incident escalates once',
    given: [
      reported,
      {
        type: 'SafeguardingIncidentEscalated',
        data: { incidentId: ID, minutesUnacknowledged: 16, leadsNotified: [] },
      },
    ],
    when: escalate,
    then: 'conflict Incident is already escalated',
  },
  {
    name: 'an acknowledged incident does not escalate',
    given: [reported, acknowledged],
    when: escalate,
    then: 'conflict Cannot escalate an incident that is acknowledged (allowed from: reported)',
  },
  { name: 'a lead claims a new report', given: [reported], when: claim, then: [claimed] },
  {
    name: 'a lead claims an incident under review with nobody assigned',
    given: [reported, acknowledged, { ...reviewing, data: { incidentId: ID, leadId: LEAD } }, released],
    when: { ...claim, leadId: OTHER_LEAD },
    then: [{ type: 'SafeguardingIncidentClaimed', data: { incidentId: ID, leadId: OTHER_LEAD } }],
  },
  {
    name: 'claiming twice is a conflict',
    given: [reported, claimed],
    when: claim,
    then: 'conflict You have already claimed this incident',
  },
  {
    name: 'an incident claimed by another lead is not taken over',
    given: [reported, claimed],
    when: { ...claim, leadId: OTHER_LEAD },
    then: 'conflict Cannot claim an incident that is claimed by another lead (it must be released first)',
  },
  {
    name: 'the lead assigned by the review holds the claim',
    given: [reported, acknowledged, reviewing],
    when: { ...claim, leadId: OTHER_LEAD },
    then: 'conflict Cannot claim an incident that is claimed by another lead (it must be released first)',
  },
  {
    name: 'a closed incident cannot be claimed',
    given: [reported, acknowledged, reviewing, released, closed],
    when: claim,
    then: 'conflict Cannot claim an incident that is closed',
  },
  { name: 'the holder releases a claim', given: [reported, claimed], when: release, then: [released] },
  {
    name: 'another lead may release a claim (the event names whose claim ended)',
    given: [reported, claimed],
    when: { ...release, byLeadId: OTHER_LEAD },
    then: [released],
  },
  {
    name: 'releasing an unclaimed incident is a conflict',
    given: [reported],
    when: release,
    then: 'conflict Cannot release an incident that is not claimed',
  },
  {
    name: 'a claim can be taken again after a release',
    given: [reported, claimed, released],
    when: { ...claim, leadId: OTHER_LEAD },
    then: [{ type: 'SafeguardingIncidentClaimed', data: { incidentId: ID, leadId: OTHER_LEAD } }],
  },
];

function outcome(run: () => unknown): unknown {
  try {
    return run();
  } catch (e) {
    if (e instanceof DomainError) return `${e.kind} ${e.detail}`;
    throw e;
  }
}

describe('incident decider (given / when / then)', () => {
  it.each(rows)('$name', ({ given, when, then }) => {
    expect(outcome(() => decideIncident(when, foldIncident(given)))).toEqual(then);
  });
});

const created: IncidentTypeEvent = {
  type: 'SafeguardingIncidentTypeCreated',
  data: { typeId: TYPE, name: 'Neglect', guidance: 'Look for ...' },
};
const retired: IncidentTypeEvent = { type: 'SafeguardingIncidentTypeRetired', data: { typeId: TYPE } };
const typeRows: Array<{
  name: string;
  given: IncidentTypeEvent[];
  when: IncidentTypeCommand;
  then: IncidentTypeEvent[] | string;
}> = [
  {
    name: 'creating a type',
    given: [],
    when: { type: 'CreateIncidentType', typeId: TYPE, name: 'Neglect', guidance: 'Look for ...' },
    then: [created],
  },
  {
    name: 'renaming keeps the guidance',
    given: [created],
    when: { type: 'UpdateIncidentType', typeId: TYPE, name: 'Neglect (physical)', guidance: 'Look for ...' },
    then: [{ type: 'SafeguardingIncidentTypeUpdated', data: { typeId: TYPE, name: 'Neglect (physical)' } }],
  },
  {
    name: 'an update that changes nothing writes nothing',
    given: [created],
    when: { type: 'UpdateIncidentType', typeId: TYPE, name: 'Neglect' },
    then: [],
  },
  { name: 'retiring', given: [created], when: { type: 'RetireIncidentType', typeId: TYPE }, then: [retired] },
  {
    name: 'retiring twice writes nothing',
    given: [created, retired],
    when: { type: 'RetireIncidentType', typeId: TYPE },
    then: [],
  },
  {
    name: 'a retired type cannot be edited',
    given: [created, retired],
    when: { type: 'UpdateIncidentType', typeId: TYPE, name: 'X' },
    then: 'conflict Incident type is retired',
  },
  {
    name: 'an unknown type is not found',
    given: [],
    when: { type: 'RetireIncidentType', typeId: TYPE },
    then: 'not_found Incident type not found',
  },
];

describe('incident type decider (given / when / then)', () => {
  it.each(typeRows)('$name', ({ given, when, then }) => {
    expect(outcome(() => decideIncidentType(when, foldIncidentType(given)))).toEqual(then);
  });
});
