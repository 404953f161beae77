import { describe, expect, it } from '@jest/globals';
import type { PlannedAbsenceEvent } from '@portal/projections';
import { thrownKind, type ErrorKind } from '../platform/domain/domain-error.js';
import {
  decidePlannedAbsence,
  evolvePlannedAbsence,
  initialPlannedAbsenceState,
  type PlannedAbsenceCommand,
  type PlannedAbsenceState,
} from './planned-absence.decider.js';

const ID = 'pa1';
const by = { id: 'p1', name: 'Pat Parent', position: 'Parent / Carer' };
const record = (over: Partial<Extract<PlannedAbsenceCommand, { type: 'RecordPlannedAbsence' }>> = {}) =>
  ({
    type: 'RecordPlannedAbsence',
    plannedAbsenceId: ID,
    studentId: 'ann',
    customerId: 'oak',
    from: '2026-10-12',
    to: '2026-10-14',
    today: '2026-10-07',
    absenceReason: 'medical',
    note: 'Hospital appointment',
    by,
    ...over,
  }) as PlannedAbsenceCommand;
const withdraw: PlannedAbsenceCommand = { type: 'WithdrawPlannedAbsence', plannedAbsenceId: ID };

const fold = (events: PlannedAbsenceEvent[]): PlannedAbsenceState =>
  events.reduce(evolvePlannedAbsence, initialPlannedAbsenceState());
const none = () => initialPlannedAbsenceState();
const recorded = () => fold(decidePlannedAbsence(record(), none()));
const withdrawn = () =>
  fold([...decidePlannedAbsence(record(), none()), ...decidePlannedAbsence(withdraw, recorded())]);

describe('planned absence decider', () => {
  it.each<[string, () => PlannedAbsenceState, PlannedAbsenceCommand, ErrorKind | undefined, string[]]>([
    ['record future days', none, record(), undefined, ['PlannedAbsenceRecorded']],
    [
      'record one day, today',
      none,
      record({ from: '2026-10-07', to: '2026-10-07' }),
      undefined,
      ['PlannedAbsenceRecorded'],
    ],
    [
      'record days that began yesterday and end tomorrow',
      none,
      record({ from: '2026-10-06', to: '2026-10-08' }),
      undefined,
      ['PlannedAbsenceRecorded'],
    ],
    ['end before the start', none, record({ from: '2026-10-14', to: '2026-10-12' }), 'invalid', []],
    ['end in the past', none, record({ from: '2026-10-01', to: '2026-10-06' }), 'invalid', []],
    ['record the same id again (a retry)', recorded, record({ to: '2026-10-20' }), undefined, []],
    ['withdraw', recorded, withdraw, undefined, ['PlannedAbsenceWithdrawn']],
    ['withdraw twice', withdrawn, withdraw, undefined, []],
    ['withdraw one that does not exist', none, withdraw, 'not_found', []],
  ])('%s', (_name, given, command, kind, types) => {
    expect(thrownKind(() => decidePlannedAbsence(command, given()))).toBe(kind);
    if (!kind) expect(decidePlannedAbsence(command, given()).map((e) => e.type)).toEqual(types);
  });

  it('names the field it refuses', () => {
    expect(() => decidePlannedAbsence(record({ to: '2026-10-01', from: '2026-10-01' }), none())).toThrow(
      /^to:/,
    );
  });

  it('records who gave it, the reason and the note, and a withdrawal names the student and school', () => {
    const [event] = decidePlannedAbsence(record(), none());
    expect(event).toEqual({
      type: 'PlannedAbsenceRecorded',
      data: {
        plannedAbsenceId: ID,
        studentId: 'ann',
        customerId: 'oak',
        from: '2026-10-12',
        to: '2026-10-14',
        absenceReason: 'medical',
        note: 'Hospital appointment',
        recordedBy: by,
      },
    });
    expect(decidePlannedAbsence(withdraw, recorded())).toEqual([
      {
        type: 'PlannedAbsenceWithdrawn',
        data: { plannedAbsenceId: ID, studentId: 'ann', customerId: 'oak' },
      },
    ]);
  });
});
