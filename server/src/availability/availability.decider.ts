import { availabilityStream, type AvailabilityEvent, type AvailabilitySlot } from '@portal/projections';
import { DomainError } from '../platform/domain/domain-error.js';
import type { Aggregate } from '../platform/event-store/aggregate.js';

/** Spec §9: the working day runs from 07:00 (420) to 21:00 (1260). */
export const WORKING_DAY_START = 420;
export const WORKING_DAY_END = 1260;
export const MAX_SLOTS = 100;
export const DAY_NAMES = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

/** The lists already set, by `${type}|${week ?? ''}`. */
export type AvailabilityState = ReadonlyMap<string, AvailabilitySlot[]>;

export interface SetAvailability {
  type: 'SetAvailability';
  userId: string;
  availabilityType: string;
  week: string | null;
  availabilities: AvailabilitySlot[];
}

export const availabilityKey = (type: string, week: string | null) => `${type}|${week ?? ''}`;

export const evolveAvailability = (state: AvailabilityState, e: AvailabilityEvent): AvailabilityState =>
  new Map(state).set(availabilityKey(e.data.type, e.data.week), e.data.availabilities);

export const foldAvailability = (events: AvailabilityEvent[]): AvailabilityState =>
  events.reduce(evolveAvailability, new Map<string, AvailabilitySlot[]>() as AvailabilityState);

const sameSlots = (a: AvailabilitySlot[], b: AvailabilitySlot[]) =>
  a.length === b.length &&
  a.every(
    (s, i) =>
      s.dayOfWeek === b[i]!.dayOfWeek &&
      s.startMinute === b[i]!.startMinute &&
      s.endMinute === b[i]!.endMinute,
  );

/**
 * Replaces one list: every slot within the working day, ending after it starts, no two slots of a day
 * overlapping. Slots are stored sorted by day and start; setting the same list again writes nothing.
 */
export function decideAvailability(command: SetAvailability, state: AvailabilityState): AvailabilityEvent[] {
  const slots = command.availabilities;
  if (slots.length > MAX_SLOTS)
    throw new DomainError('invalid', `availabilities: at most ${MAX_SLOTS} entries`);
  slots.forEach((s, i) => {
    const field = `availabilities.${i}`;
    if (!Number.isInteger(s.dayOfWeek) || s.dayOfWeek < 0 || s.dayOfWeek > 6)
      throw new DomainError('invalid', `${field}.day_of_week: must be 0 (Monday) to 6 (Sunday)`);
    if (s.startMinute < WORKING_DAY_START || s.startMinute >= WORKING_DAY_END)
      throw new DomainError(
        'invalid',
        `${field}.start_minute: must be within the working day (${WORKING_DAY_START} to ${WORKING_DAY_END - 1})`,
      );
    if (s.endMinute <= s.startMinute || s.endMinute > WORKING_DAY_END)
      throw new DomainError(
        'invalid',
        `${field}.end_minute: must be after start_minute and at most ${WORKING_DAY_END}`,
      );
  });
  const order = slots
    .map((s, i) => ({ s, i }))
    .sort((a, b) => a.s.dayOfWeek - b.s.dayOfWeek || a.s.startMinute - b.s.startMinute);
  for (let k = 1; k < order.length; k++) {
    const prev = order[k - 1]!;
    const cur = order[k]!;
    if (cur.s.dayOfWeek === prev.s.dayOfWeek && cur.s.startMinute < prev.s.endMinute)
      throw new DomainError(
        'invalid',
        `availabilities.${Math.max(cur.i, prev.i)}: overlaps availabilities.${Math.min(cur.i, prev.i)} on ${DAY_NAMES[cur.s.dayOfWeek]}`,
      );
  }
  const sorted = order.map(({ s }) => ({
    dayOfWeek: s.dayOfWeek,
    startMinute: s.startMinute,
    endMinute: s.endMinute,
  }));
  const current = state.get(availabilityKey(command.availabilityType, command.week));
  if (current && sameSlots(current, sorted)) return [];
  return [
    {
      type: 'AvailabilitySet',
      data: {
        userId: command.userId,
        type: command.availabilityType,
        week: command.week,
        availabilities: sorted,
      },
    },
  ];
}

/** The Monday (yyyy-MM-dd, UTC) of the week that contains `at`. */
export function mondayOf(at: Date): string {
  const day = (at.getUTCDay() + 6) % 7; // 0 = Monday
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate() - day))
    .toISOString()
    .slice(0, 10);
}

/** One user's availability lists: stream `user-availability-{userId}`. */
export const availabilityAggregate: Aggregate<AvailabilityState, SetAvailability, AvailabilityEvent> = {
  stream: availabilityStream,
  idOf: (command) => command.userId,
  initialState: () => new Map(),
  evolve: evolveAvailability,
  decide: decideAvailability,
};
