import { describe, expect, it } from '@jest/globals';
import { thrownKind } from '../platform/domain/domain-error.js';
import type { AvailabilityEvent, AvailabilitySlot } from '@portal/projections';
import {
  decideAvailability,
  foldAvailability,
  mondayOf,
  type SetAvailability,
} from './availability.decider.js';

const userId = '00000000-0000-4000-8000-000000000001';
const slot = (dayOfWeek: number, startMinute: number, endMinute: number): AvailabilitySlot => ({
  dayOfWeek,
  startMinute,
  endMinute,
});
const set = (availabilities: AvailabilitySlot[], week: string | null = null): SetAvailability => ({
  type: 'SetAvailability',
  userId,
  availabilityType: 'default',
  week,
  availabilities,
});
const setEvent = (availabilities: AvailabilitySlot[], week: string | null = null): AvailabilityEvent => ({
  type: 'AvailabilitySet',
  data: { userId, type: 'default', week, availabilities },
});

type Row = [string, AvailabilityEvent[], SetAvailability, AvailabilityEvent[] | RegExp];
const table: Row[] = [
  [
    'set a recurring week, stored sorted by day and start',
    [],
    set([slot(2, 600, 720), slot(0, 900, 960), slot(0, 420, 480)]),
    [setEvent([slot(0, 420, 480), slot(0, 900, 960), slot(2, 600, 720)])],
  ],
  ['the whole working day', [], set([slot(6, 420, 1260)]), [setEvent([slot(6, 420, 1260)])]],
  ['an empty list clears', [setEvent([slot(1, 420, 480)])], set([]), [setEvent([])]],
  ['the same list again writes nothing', [setEvent([slot(1, 420, 480)])], set([slot(1, 420, 480)]), []],
  [
    'one week differs from the recurring list',
    [setEvent([slot(1, 420, 480)])],
    set([slot(1, 420, 480)], '2030-01-07'),
    [setEvent([slot(1, 420, 480)], '2030-01-07')],
  ],
  [
    'touching slots are fine',
    [],
    set([slot(3, 420, 480), slot(3, 480, 540)]),
    [setEvent([slot(3, 420, 480), slot(3, 480, 540)])],
  ],
  ['before the working day', [], set([slot(0, 419, 480)]), /^availabilities\.0\.start_minute/],
  ['after the working day', [], set([slot(0, 1200, 1261)]), /^availabilities\.0\.end_minute/],
  ['ends before it starts', [], set([slot(0, 600, 600)]), /^availabilities\.0\.end_minute/],
  ['day out of range', [], set([slot(7, 600, 660)]), /^availabilities\.0\.day_of_week/],
  [
    'overlapping slots on one day',
    [],
    set([slot(4, 600, 700), slot(1, 600, 700), slot(4, 650, 760)]),
    /^availabilities\.2: overlaps availabilities\.0 on Friday$/,
  ],
  [
    'too many slots',
    [],
    set(Array.from({ length: 101 }, (_, i) => slot(i % 7, 420 + i, 421 + i))),
    /at most 100/,
  ],
];

describe('availability decider: given events, when command, then events or error', () => {
  it.each(table)('%s', (_name, given, command, then) => {
    const state = foldAvailability(given);
    if (Array.isArray(then)) {
      expect(decideAvailability(command, state)).toEqual(then);
      return;
    }
    expect(thrownKind(() => decideAvailability(command, state))).toBe('invalid');
    expect(() => decideAvailability(command, state)).toThrow(then);
  });
});

describe('the week of a moment (teachers without availability: "this week")', () => {
  it.each([
    ['2030-01-07T00:00:00Z', '2030-01-07'], // a Monday
    ['2030-01-09T15:30:00Z', '2030-01-07'],
    ['2030-01-13T23:59:59Z', '2030-01-07'], // Sunday still belongs to the week before
    ['2030-01-01T08:00:00Z', '2029-12-31'], // across a year end
  ])('%s → %s', (at, monday) => {
    expect(mondayOf(new Date(at))).toBe(monday);
  });
});
