import { describe, expect, it } from '@jest/globals';
import type { RecordedEvent } from '../platform/event-store/event-store.js';
import { RoomPolicy } from '../platform/live/room-policy.js';
import { canonicalJson, linkEvents, verifyChain } from './hash-chain.js';
import { incidentAudience, mayReadIncident, reportRefusal, reportScope } from './safeguarding.policy.js';
import { IncidentReporters } from './incident-reporters.js';
import { registerSafeguardingLiveRules } from './safeguarding-live.js';

const OAK = 'oak';
const ELM = 'elm';
const perms = (...p: string[]) => new Set(p);
const noLinks = new Set<string>();

describe('who may report', () => {
  const students = [{ id: 's1', customerId: OAK }];
  it.each([
    ['a super admin', perms('USER_IS_ADMIN'), null, noLinks, null],
    ['a teacher', perms('USER_IS_TEACHER'), null, noLinks, null],
    [
      'a partner with the all-students permission, own customer',
      perms('USER_IS_PARTNER', 'PARTNER_CAN_SUBMIT_SAFEGUARDING_INCIDENT_FOR_ALL_STUDENTS'),
      OAK,
      noLinks,
      null,
    ],
    [
      'a partner with the all-students permission, another customer',
      perms('USER_IS_PARTNER', 'PARTNER_CAN_SUBMIT_SAFEGUARDING_INCIDENT_FOR_ALL_STUDENTS'),
      ELM,
      noLinks,
      'You may not report an incident about student s1',
    ],
    [
      'a partner with the selected-students permission, linked student',
      perms('USER_IS_PARTNER', 'PARTNER_CAN_SUBMIT_SAFEGUARDING_INCIDENT_FOR_SELECTED_STUDENTS'),
      OAK,
      new Set(['s1']),
      null,
    ],
    [
      'a partner with the selected-students permission, student not linked',
      perms('USER_IS_PARTNER', 'PARTNER_CAN_SUBMIT_SAFEGUARDING_INCIDENT_FOR_SELECTED_STUDENTS'),
      OAK,
      noLinks,
      'You may not report an incident about student s1',
    ],
    [
      'a partner without a submit permission',
      perms('USER_IS_PARTNER', 'PARTNER_CAN_SEE_SAFEGUARDING_INCIDENT_REPORTS'),
      OAK,
      noLinks,
      'You do not have permission to report safeguarding incidents',
    ],
    [
      'a student',
      perms('USER_IS_STUDENT'),
      null,
      noLinks,
      'Only administrators, teachers and permitted partners report incidents',
    ],
  ])('%s', (_name, permissions, customerId, linkedStudentIds, expected) => {
    expect(reportRefusal({ userId: 'p1', permissions, customerId, linkedStudentIds }, students)).toBe(
      expected,
    );
  });
});

describe('the students one may report about (the list and the check share one scope)', () => {
  it.each([
    ['a teacher: every student', perms('USER_IS_TEACHER'), null, { all: true }],
    [
      'a partner with the all-students permission: their customer',
      perms('USER_IS_PARTNER', 'PARTNER_CAN_SUBMIT_SAFEGUARDING_INCIDENT_FOR_ALL_STUDENTS'),
      OAK,
      { all: false, customerId: OAK, linkedTo: null },
    ],
    [
      'a partner with the selected-students permission: the ones linked to them',
      perms('USER_IS_PARTNER', 'PARTNER_CAN_SUBMIT_SAFEGUARDING_INCIDENT_FOR_SELECTED_STUDENTS'),
      OAK,
      { all: false, customerId: OAK, linkedTo: 'p1' },
    ],
  ])('%s', (_name, permissions, customerId, expected) => {
    expect(reportScope({ userId: 'p1', permissions, customerId })).toEqual(expected);
  });
});

describe('who may read an incident', () => {
  const incident = { reporter_id: 'teacher', customer_ids: [OAK] };
  it.each([
    ['an admin without safeguarding access', 'a', perms('USER_IS_ADMIN'), null, null],
    [
      'an admin with safeguarding access',
      'a',
      perms('USER_IS_ADMIN', 'CAN_ACCESS_SAFEGUARDING'),
      null,
      'case',
    ],
    ['a lead', 'l', perms('USER_IS_TEACHER', 'CAN_LEAD_SAFEGUARDING'), null, 'case'],
    ['the reporter (no access of their own)', 'teacher', perms('USER_IS_TEACHER'), null, 'reporter'],
    ['another teacher', 't2', perms('USER_IS_TEACHER'), null, null],
    [
      'a partner who sees reports, own customer',
      'p',
      perms('USER_IS_PARTNER', 'PARTNER_CAN_SEE_SAFEGUARDING_INCIDENT_REPORTS'),
      OAK,
      'partner',
    ],
    [
      'a partner who sees reports, other customer',
      'p',
      perms('USER_IS_PARTNER', 'PARTNER_CAN_SEE_SAFEGUARDING_INCIDENT_REPORTS'),
      ELM,
      null,
    ],
    ['a partner without the permission', 'p', perms('USER_IS_PARTNER'), OAK, null],
    [
      'a partner holding an internal safeguarding name',
      'p',
      perms('USER_IS_PARTNER', 'CAN_ACCESS_SAFEGUARDING'),
      ELM,
      null,
    ],
  ] as const)('%s: %s view', (_name, userId, permissions, customerId, expected) => {
    // Which view (decision 0037): the case for safeguarding staff, the partner view, the reporter view.
    expect(incidentAudience({ userId, permissions, customerId }, incident)).toBe(expected);
    expect(mayReadIncident({ userId, permissions, customerId }, incident)).toBe(expected !== null);
  });
});

const event = (stream: string, type: string, data: unknown, revision = 0n): RecordedEvent => ({
  id: 'x',
  stream,
  revision,
  position: 1n,
  type,
  data,
  metadata: { actorId: null, occurredAt: '2026-11-01T00:00:00Z' },
  createdAt: new Date(),
});

describe('safeguarding live rules', () => {
  const policy = new RoomPolicy();
  registerSafeguardingLiveRules(policy, new IncidentReporters());

  it('puts only users with safeguarding access in the safeguarding rooms', () => {
    expect(policy.rooms({ userId: 'u', permissions: perms('USER_IS_ADMIN'), customerId: null })).toEqual([
      'user:u',
    ]);
    expect(
      policy.rooms({
        userId: 'u',
        permissions: perms('USER_IS_TEACHER', 'CAN_ACCESS_SAFEGUARDING'),
        customerId: null,
      }),
    ).toEqual(['user:u', 'safeguarding']);
    expect(
      policy.rooms({
        userId: 'u',
        permissions: perms('USER_IS_TEACHER', 'CAN_LEAD_SAFEGUARDING'),
        customerId: null,
      }),
    ).toEqual(['user:u', 'safeguarding', 'safeguarding-leads']);
    expect(
      policy.rooms({
        userId: 'u',
        permissions: perms('USER_IS_PARTNER', 'CAN_LEAD_SAFEGUARDING'),
        customerId: 'c',
      }),
    ).toEqual(['user:u']);
  });

  it('sends a report as a summary without free text, views to leads only', () => {
    const reported = policy.audience(
      event('safeguarding-incident-1', 'SafeguardingIncidentReported', {
        incidentId: '1',
        reporterId: 'r',
        description: 'secret',
        immediateAction: 'secret',
        riskLevel: 'high',
        occurredAt: 't',
        typeIds: ['t1'],
        students: [{ studentId: 's', customerId: 'c' }],
      }),
    );
    expect(reported).toEqual([
      {
        room: 'safeguarding',
        data: {
          incidentId: '1',
          status: 'reported',
          riskLevel: 'high',
          occurredAt: 't',
          typeIds: ['t1'],
          studentCount: 1,
        },
      },
    ]);
    expect(JSON.stringify(reported)).not.toContain('secret');
    // The reporter follows each later stage of their concern in their own room: the stage only.
    expect(
      policy.audience(
        event('safeguarding-incident-1', 'SafeguardingIncidentClosed', {
          incidentId: '1',
          outcome: 'secret',
        }),
      ),
    ).toEqual([
      { room: 'safeguarding', data: { incidentId: '1', status: 'closed' } },
      { room: 'user:r', data: { incidentId: '1', status: 'closed' } },
    ]);
    expect(
      policy.audience(
        event('safeguarding-incident-1', 'SafeguardingIncidentEscalated', {
          incidentId: '1',
          minutesUnacknowledged: 15,
        }),
      ),
    ).toEqual([
      { room: 'safeguarding', data: { incidentId: '1', escalated: true, minutesUnacknowledged: 15 } },
    ]);
    expect(
      policy.audience(
        event('safeguarding-incident-views-1', 'SafeguardingIncidentViewed', {
          incidentId: '1',
          viewerId: 'v',
          via: 'details',
        }),
      ),
    ).toEqual([{ room: 'safeguarding-leads', data: { incidentId: '1', viewerId: 'v', via: 'details' } }]);
  });
});

describe('hash chain', () => {
  it('canonical JSON sorts keys at every level', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { z: 1, y: 2 }], c: null } })).toBe(
      '{"a":{"c":null,"d":[1,{"y":2,"z":1}]},"b":1}',
    );
  });

  it('verifies an intact chain and finds the first broken link', () => {
    const events = [
      { type: 'A', data: { n: 1 } },
      { type: 'B', data: { n: 2 } },
      { type: 'C', data: { n: 3 } },
    ];
    const links = linkEvents(events, '');
    const recorded = events.map((e, i) => ({
      ...event('s', e.type, e.data, BigInt(i)),
      metadata: { actorId: null, occurredAt: 't', ...links[i] },
    }));
    expect(verifyChain(recorded)).toEqual({ valid: true, events: 3 });
    recorded[1] = { ...recorded[1]!, data: { n: 99 } };
    expect(verifyChain(recorded)).toEqual({ valid: false, events: 3, broken_at: 1 });
  });
});
