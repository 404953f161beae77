import { describe, expect, it } from '@jest/globals';
import type { EnrolmentEvent } from '@portal/projections';
import { thrownKind } from '../platform/domain/domain-error.js';
import {
  decideEnrolment,
  evolveEnrolment,
  initialEnrolmentState,
  type EnrolmentCommand,
} from './enrolment.decider.js';

const E = '11111111-1111-4111-8111-111111111111';
const ids = {
  enrolmentId: E,
  studentId: '22222222-2222-4222-8222-222222222222',
  programmeId: '33333333-3333-4333-8333-333333333333',
  customerId: '44444444-4444-4444-8444-444444444444',
};
const details = {
  startDate: '2026-09-07',
  endDate: null,
  placementType: 'MAIN' as const,
  setting: 'HOME' as const,
  reasonForPlacement: 'SEMH' as const,
};
const enrolled: EnrolmentEvent = { type: 'StudentEnrolled', data: { ...ids, status: 'active', ...details } };
const fold = (events: EnrolmentEvent[]) => events.reduce(evolveEnrolment, initialEnrolmentState());
const run = (given: EnrolmentEvent[], c: EnrolmentCommand) => decideEnrolment(c, fold(given));
const enrol = (other: string | null = null): EnrolmentCommand => ({
  type: 'Enrol',
  ...ids,
  status: 'active',
  details,
  otherOpenEnrolmentId: other,
});
const withdraw: EnrolmentCommand = {
  type: 'Withdraw',
  enrolmentId: E,
  reason: 'Moved school',
  on: '2026-12-18',
};

describe('enrolments', () => {
  it('enrols with the placement fields', () => {
    expect(run([], enrol())).toEqual([enrolled]);
  });

  it('refuses a second open enrolment of the student in the programme (409)', () => {
    expect(thrownKind(() => run([], enrol('99999999-9999-4999-8999-999999999999')))).toBe('conflict');
  });

  it('refuses an end before the start, naming end_date', () => {
    expect(() =>
      run([], { ...enrol(), details: { ...details, endDate: '2026-09-01' } } as EnrolmentCommand),
    ).toThrow(/end_date/);
  });

  it('pauses and resumes through a details change, recording only what changed', () => {
    const paused = run([enrolled], {
      type: 'ChangeEnrolment',
      enrolmentId: E,
      changes: { setting: 'HOME' },
      status: 'paused',
    });
    expect(paused).toEqual([{ type: 'EnrolmentDetailsChanged', data: { ...ids, status: 'paused' } }]);
    expect(fold([enrolled, ...paused]).status).toBe('paused');
    expect(
      run([enrolled], { type: 'ChangeEnrolment', enrolmentId: E, changes: { setting: 'HOME' } }),
    ).toEqual([]);
  });

  it('withdraws with a reason; a withdrawn or ended enrolment never changes again (409)', () => {
    const events = run([enrolled], withdraw);
    expect(events).toEqual([
      { type: 'StudentWithdrawnFromEnrolment', data: { ...ids, reason: 'Moved school', on: '2026-12-18' } },
    ]);
    const after = [enrolled, ...events];
    expect(fold(after)).toMatchObject({ status: 'withdrawn', details: { endDate: '2026-12-18' } });
    expect(thrownKind(() => run(after, withdraw))).toBe('conflict');
    expect(thrownKind(() => run(after, { type: 'End', enrolmentId: E, on: '2027-01-01' }))).toBe('conflict');
    expect(
      thrownKind(() =>
        run(after, { type: 'ChangeEnrolment', enrolmentId: E, changes: { setting: 'MIXED' } }),
      ),
    ).toBe('conflict');
  });

  it('ends on a day not before the start', () => {
    expect(run([enrolled], { type: 'End', enrolmentId: E, on: '2027-07-16' })[0]!.type).toBe(
      'EnrolmentEnded',
    );
    expect(thrownKind(() => run([enrolled], { type: 'End', enrolmentId: E, on: '2026-09-01' }))).toBe(
      'invalid',
    );
    expect(thrownKind(() => run([], withdraw))).toBe('not_found');
  });
});
