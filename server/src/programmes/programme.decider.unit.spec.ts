import { describe, expect, it } from '@jest/globals';
import type { ProgrammeEvent, ProgrammeStatus } from '@portal/projections';
import { DomainError, thrownKind, type ErrorKind } from '../platform/domain/domain-error.js';
import {
  decideProgramme,
  evolveProgramme,
  initialProgrammeState,
  transitionsFrom,
  type ProgrammeCommand,
  type ProgrammeTransition,
} from './programme.decider.js';

const ID = '11111111-1111-4111-8111-111111111111';
const CUSTOMER = '22222222-2222-4222-8222-222222222222';
const details = {
  title: 'Maths GCSE recovery',
  productId: null,
  subjectId: null,
  yearGroupId: null,
  kind: 'lesson' as const,
  startDate: '2026-09-07',
  endDate: '2027-07-16' as string | null,
  timezone: 'Europe/London',
};
const created: ProgrammeEvent = {
  type: 'ProgrammeCreated',
  data: { programmeId: ID, networkId: null, customerId: CUSTOMER, sourceProgrammeId: null, ...details },
};
const status = (type: Exclude<ProgrammeEvent['type'], 'ProgrammeCreated' | 'ProgrammeDetailsChanged'>) =>
  ({ type, data: { programmeId: ID, customerId: CUSTOMER, reason: null } }) as ProgrammeEvent;
const IN: Record<ProgrammeStatus, ProgrammeEvent[]> = {
  draft: [created],
  active: [created, status('ProgrammeActivated')],
  paused: [created, status('ProgrammeActivated'), status('ProgrammePaused')],
  completed: [created, status('ProgrammeActivated'), status('ProgrammeCompleted')],
  cancelled: [created, status('ProgrammeActivated'), status('ProgrammeCancelled')],
};
const fold = (events: ProgrammeEvent[]) => events.reduce(evolveProgramme, initialProgrammeState());
const run = (given: ProgrammeEvent[], command: ProgrammeCommand) => decideProgramme(command, fold(given));
const move = (transition: ProgrammeTransition): ProgrammeCommand => ({
  type: 'ChangeProgrammeStatus',
  programmeId: ID,
  transition,
});

describe('programme state machine', () => {
  // Every (state, transition) pair: the event it records, or the 409 it answers.
  const table: [ProgrammeStatus, ProgrammeTransition, ProgrammeEvent['type'] | ErrorKind][] = [
    ['draft', 'activate', 'ProgrammeActivated'],
    ['draft', 'pause', 'conflict'],
    ['draft', 'resume', 'conflict'],
    ['draft', 'complete', 'conflict'],
    ['draft', 'cancel', 'conflict'],
    ['active', 'activate', 'conflict'],
    ['active', 'pause', 'ProgrammePaused'],
    ['active', 'resume', 'conflict'],
    ['active', 'complete', 'ProgrammeCompleted'],
    ['active', 'cancel', 'ProgrammeCancelled'],
    ['paused', 'activate', 'conflict'],
    ['paused', 'pause', 'conflict'],
    ['paused', 'resume', 'ProgrammeResumed'],
    ['paused', 'complete', 'conflict'],
    ['paused', 'cancel', 'ProgrammeCancelled'],
    ['completed', 'activate', 'conflict'],
    ['completed', 'resume', 'conflict'],
    ['completed', 'cancel', 'conflict'],
    ['cancelled', 'activate', 'conflict'],
    ['cancelled', 'resume', 'conflict'],
    ['cancelled', 'complete', 'conflict'],
  ];
  it.each(table)('%s + %s → %s', (from, transition, expected) => {
    if (expected === 'conflict') {
      expect(thrownKind(() => run(IN[from], move(transition)))).toBe('conflict');
      return;
    }
    const events = run(IN[from], move(transition));
    expect(events.map((e) => e.type)).toEqual([expected]);
    expect(events[0]!.data).toMatchObject({ programmeId: ID, customerId: CUSTOMER });
  });

  it('names the current state in the refusal', () => {
    try {
      run(IN.completed, move('pause'));
      throw new Error('no refusal');
    } catch (e) {
      expect(e).toBeInstanceOf(DomainError);
      expect((e as DomainError).detail).toMatch(/completed/);
    }
  });

  it('lists the transitions each state allows (the screen shows these actions)', () => {
    expect(transitionsFrom('draft')).toEqual(['activate']);
    expect(transitionsFrom('active')).toEqual(['pause', 'complete', 'cancel']);
    expect(transitionsFrom('paused')).toEqual(['resume', 'cancel']);
    expect(transitionsFrom('completed')).toEqual([]);
    expect(transitionsFrom('cancelled')).toEqual([]);
  });

  it('a status change on a missing programme is not found', () => {
    expect(thrownKind(() => run([], move('activate')))).toBe('not_found');
  });
});

describe('programme creation and details', () => {
  const create = (over: Partial<typeof details> = {}): ProgrammeCommand => ({
    type: 'CreateProgramme',
    programmeId: ID,
    networkId: null,
    customerId: CUSTOMER,
    sourceProgrammeId: null,
    details: { ...details, ...over },
  });

  it('records a new programme as a draft, with its source', () => {
    expect(run([], create())).toEqual([created]);
    expect(fold([created]).status).toBe('draft');
  });

  it('refuses an end before the start, naming end_date', () => {
    expect(() => run([], create({ endDate: '2026-09-06' }))).toThrow(/end_date/);
    expect(thrownKind(() => run([], create({ endDate: '2026-09-06' })))).toBe('invalid');
    expect(run([], create({ endDate: null }))).toHaveLength(1);
  });

  it('creating twice is a conflict', () => {
    expect(thrownKind(() => run([created], create()))).toBe('conflict');
  });

  it('records only the fields that changed, and nothing when nothing did', () => {
    const change = (changes: Partial<typeof details>): ProgrammeCommand => ({
      type: 'ChangeProgrammeDetails',
      programmeId: ID,
      changes,
    });
    expect(run([created], change({ title: 'Maths GCSE', timezone: 'Europe/London' }))).toEqual([
      {
        type: 'ProgrammeDetailsChanged',
        data: { programmeId: ID, customerId: CUSTOMER, title: 'Maths GCSE' },
      },
    ]);
    expect(run([created], change({ title: details.title }))).toEqual([]);
    // A new start after the stored end is checked against the merged timeframe.
    expect(thrownKind(() => run([created], change({ startDate: '2027-08-01' })))).toBe('invalid');
    expect(thrownKind(() => run(IN.cancelled, change({ title: 'x' })))).toBe('conflict');
    expect(thrownKind(() => run([], change({ title: 'x' })))).toBe('not_found');
  });
});
