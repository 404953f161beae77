import { describe, expect, it } from '@jest/globals';
import type { GroupEvent } from '@portal/projections';
import { thrownKind, type ErrorKind } from '../platform/domain/domain-error.js';
import {
  decideGroup,
  evolveGroup,
  initialGroupState,
  membersFrom,
  type GroupCommand,
} from './group.decider.js';

const G = '11111111-1111-4111-8111-111111111111';
const P = '22222222-2222-4222-8222-222222222222';
const C = '33333333-3333-4333-8333-333333333333';
const T1 = '44444444-4444-4444-8444-444444444441';
const T2 = '44444444-4444-4444-8444-444444444442';
const S1 = '55555555-5555-4555-8555-555555555551';
const S2 = '55555555-5555-4555-8555-555555555552';
const base = { groupId: G, programmeId: P, customerId: C, teacherIds: [T1] };
const created: GroupEvent = {
  type: 'GroupCreated',
  data: { ...base, name: 'Group A', teachers: [{ teacherId: T1, role: 'lead' }], sourceGroupId: null },
};
const added = (studentId: string, from: string): GroupEvent => ({
  type: 'StudentAddedToGroup',
  data: { ...base, studentId, from },
});
const removed = (studentId: string, to: string): GroupEvent => ({
  type: 'StudentRemovedFromGroup',
  data: { ...base, studentId, to, reason: null },
});
const fold = (events: GroupEvent[]) => events.reduce(evolveGroup, initialGroupState());
const add = (studentId: string, from: string, maxGroupSize: number | null = null): GroupCommand => ({
  type: 'AddStudent',
  groupId: G,
  studentId,
  from,
  maxGroupSize,
});
const remove = (studentId: string, to: string): GroupCommand => ({
  type: 'RemoveStudent',
  groupId: G,
  studentId,
  to,
});

describe('group membership over time', () => {
  const rows: { name: string; given: GroupEvent[]; when: GroupCommand; then: GroupEvent[] | ErrorKind }[] = [
    {
      name: 'adding a student opens a membership',
      given: [created],
      when: add(S1, '2026-09-07'),
      then: [added(S1, '2026-09-07')],
    },
    {
      name: 'adding a current member again is a conflict',
      given: [created, added(S1, '2026-09-07')],
      when: add(S1, '2026-10-01'),
      then: 'conflict',
    },
    {
      name: 'removing closes the open membership on its last day',
      given: [created, added(S1, '2026-09-07')],
      when: remove(S1, '2026-10-23'),
      then: [removed(S1, '2026-10-23')],
    },
    {
      name: 'a last day before the first day is refused, naming to',
      given: [created, added(S1, '2026-09-07')],
      when: remove(S1, '2026-09-06'),
      then: 'invalid',
    },
    {
      name: 'removing a non-member is not found',
      given: [created],
      when: remove(S1, '2026-10-23'),
      then: 'not_found',
    },
    {
      name: 'removing twice is not found (the membership is already closed)',
      given: [created, added(S1, '2026-09-07'), removed(S1, '2026-10-23')],
      when: remove(S1, '2026-10-30'),
      then: 'not_found',
    },
    {
      name: 're-adding after the last day opens a new membership',
      given: [created, added(S1, '2026-09-07'), removed(S1, '2026-10-23')],
      when: add(S1, '2026-11-02'),
      then: [added(S1, '2026-11-02')],
    },
    {
      name: 're-adding inside the closed period would rewrite the past: conflict',
      given: [created, added(S1, '2026-09-07'), removed(S1, '2026-10-23')],
      when: add(S1, '2026-10-23'),
      then: 'conflict',
    },
    {
      name: 'a full group refuses one more student',
      given: [created, added(S1, '2026-09-07')],
      when: add(S2, '2026-09-07', 1),
      then: 'conflict',
    },
    {
      name: 'a student who left before the day does not count towards the size',
      given: [created, added(S1, '2026-09-07'), removed(S1, '2026-09-30')],
      when: add(S2, '2026-10-01', 1),
      then: [added(S2, '2026-10-01')],
    },
    { name: 'a missing group is not found', given: [], when: add(S1, '2026-09-07'), then: 'not_found' },
  ];
  it.each(rows)('$name', ({ given, when, then }) => {
    if (typeof then === 'string') expect(thrownKind(() => decideGroup(when, fold(given)))).toBe(then);
    else expect(decideGroup(when, fold(given))).toEqual(then);
  });

  it('keeps every period of a student who left and came back', () => {
    const state = fold([
      created,
      added(S1, '2026-09-07'),
      removed(S1, '2026-10-23'),
      added(S1, '2026-11-02'),
    ]);
    expect(state.memberships[S1]).toEqual([
      { from: '2026-09-07', to: '2026-10-23' },
      { from: '2026-11-02', to: null },
    ]);
    expect(membersFrom(state, '2026-10-24')).toEqual([S1]);
  });
});

describe('group teachers', () => {
  const set = (teachers: { teacherId: string; role: 'lead' | 'assistant' }[]): GroupCommand => ({
    type: 'SetTeachers',
    groupId: G,
    teachers,
  });

  it('records the new set, routed to the old and the new teachers', () => {
    const events = decideGroup(set([{ teacherId: T2, role: 'lead' }]), fold([created]));
    expect(events).toEqual([
      {
        type: 'GroupTeachersChanged',
        data: { ...base, teacherIds: [T1, T2], teachers: [{ teacherId: T2, role: 'lead' }] },
      },
    ]);
  });

  it('refuses two leads and a teacher twice (422), and writes nothing for the same set', () => {
    expect(
      thrownKind(() =>
        decideGroup(
          set([
            { teacherId: T1, role: 'lead' },
            { teacherId: T2, role: 'lead' },
          ]),
          fold([created]),
        ),
      ),
    ).toBe('invalid');
    expect(
      thrownKind(() =>
        decideGroup(
          set([
            { teacherId: T1, role: 'lead' },
            { teacherId: T1, role: 'assistant' },
          ]),
          fold([created]),
        ),
      ),
    ).toBe('invalid');
    expect(decideGroup(set([{ teacherId: T1, role: 'lead' }]), fold([created]))).toEqual([]);
  });

  it('refuses two leads at creation too', () => {
    const create: GroupCommand = {
      type: 'CreateGroup',
      groupId: G,
      programmeId: P,
      customerId: C,
      name: 'A',
      sourceGroupId: null,
      teachers: [
        { teacherId: T1, role: 'lead' },
        { teacherId: T2, role: 'lead' },
      ],
    };
    expect(thrownKind(() => decideGroup(create, fold([])))).toBe('invalid');
  });
});
