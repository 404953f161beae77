import {
  termCalendarStream,
  type ClosureDay,
  type TermCalendarEvent,
  type TermDates,
} from '@portal/projections';
import { DomainError } from '../platform/domain/domain-error.js';
import type { Aggregate } from '../platform/event-store/aggregate.js';

/** A term calendar: a network's (or one partner school's) terms and closure days. */
export interface TermCalendarState {
  exists: boolean;
  networkId: string | null;
  customerId: string | null;
  name: string;
  terms: TermDates[];
  closures: ClosureDay[];
}

export type TermCalendarCommand =
  | {
      type: 'CreateTermCalendar';
      calendarId: string;
      networkId: string;
      customerId: string | null;
      name: string;
      terms: TermDates[];
      closures: ClosureDay[];
    }
  | {
      type: 'UpdateTermCalendar';
      calendarId: string;
      name?: string;
      terms?: TermDates[];
      closures?: ClosureDay[];
    };

export const initialTermCalendarState: TermCalendarState = {
  exists: false,
  networkId: null,
  customerId: null,
  name: '',
  terms: [],
  closures: [],
};

export function evolveTermCalendar(state: TermCalendarState, event: TermCalendarEvent): TermCalendarState {
  switch (event.type) {
    case 'TermCalendarCreated': {
      const { calendarId: _id, ...rest } = event.data;
      return { exists: true, ...rest };
    }
    case 'TermCalendarRenamed':
      return { ...state, name: event.data.name };
    case 'TermCalendarTermsChanged':
      return { ...state, terms: event.data.terms };
    case 'TermCalendarClosuresChanged':
      return { ...state, closures: event.data.closures };
  }
}

export const foldTermCalendar = (events: TermCalendarEvent[]) =>
  events.reduce(evolveTermCalendar, initialTermCalendarState);

const invalid = (detail: string) => new DomainError('invalid', detail);

/**
 * Terms as given (field names in the answer follow the request's positions, `terms.1.last_day`), checked
 * and returned in date order: each ends on or after its first day, and no two share a day.
 */
export function checkedTerms(terms: readonly TermDates[]): TermDates[] {
  terms.forEach((t, i) => {
    if (!t.name.trim()) throw invalid(`terms.${i}.name: a term needs a name`);
    if (t.lastDay < t.firstDay) throw invalid(`terms.${i}.last_day: must not be before first_day`);
  });
  const order = terms.map((t, i) => ({ t, i })).sort((a, b) => a.t.firstDay.localeCompare(b.t.firstDay));
  for (let k = 1; k < order.length; k++) {
    const before = order[k - 1]!;
    const at = order[k]!;
    if (at.t.firstDay <= before.t.lastDay)
      throw invalid(
        `terms.${at.i}.first_day: overlaps term ${before.i} (${before.t.name.trim()}, ${before.t.firstDay} to ${before.t.lastDay})`,
      );
  }
  return order.map(({ t }) => ({ name: t.name.trim(), firstDay: t.firstDay, lastDay: t.lastDay }));
}

/** Closures in date order, each date once (`closures.2.date` names the repeated one). */
export function checkedClosures(closures: readonly ClosureDay[]): ClosureDay[] {
  const seen = new Map<string, number>();
  closures.forEach((c, i) => {
    const first = seen.get(c.date);
    if (first !== undefined) throw invalid(`closures.${i}.date: ${c.date} is already closures.${first}`);
    seen.set(c.date, i);
  });
  return [...closures]
    .map((c) => ({ date: c.date, reason: c.reason.trim() }))
    .sort((a, b) => a.date.localeCompare(b.date));
}

const sameTerms = (a: readonly TermDates[], b: readonly TermDates[]) =>
  a.length === b.length &&
  a.every((t, i) => t.name === b[i]!.name && t.firstDay === b[i]!.firstDay && t.lastDay === b[i]!.lastDay);
const sameClosures = (a: readonly ClosureDay[], b: readonly ClosureDay[]) =>
  a.length === b.length && a.every((c, i) => c.date === b[i]!.date && c.reason === b[i]!.reason);

/**
 * The rules of a calendar: valid, non-overlapping terms and unique closure dates. The network and the
 * customer are fixed at creation; an update replaces the name, the terms or the closures it carries,
 * recording only what changed.
 */
export function decideTermCalendar(
  command: TermCalendarCommand,
  state: TermCalendarState,
): TermCalendarEvent[] {
  const calendarId = command.calendarId;
  switch (command.type) {
    case 'CreateTermCalendar': {
      const name = command.name.trim();
      if (!name) throw invalid('name: a calendar needs a name');
      const terms = checkedTerms(command.terms);
      const closures = checkedClosures(command.closures);
      if (state.exists) throw new DomainError('conflict', 'Term calendar already exists');
      return [
        {
          type: 'TermCalendarCreated',
          data: {
            calendarId,
            networkId: command.networkId,
            customerId: command.customerId,
            name,
            terms,
            closures,
          },
        },
      ];
    }
    case 'UpdateTermCalendar': {
      const name = command.name?.trim();
      if (name === '') throw invalid('name: a calendar needs a name');
      const terms = command.terms && checkedTerms(command.terms);
      const closures = command.closures && checkedClosures(command.closures);
      if (!state.exists) throw new DomainError('not_found', 'Term calendar not found');
      const events: TermCalendarEvent[] = [];
      if (name !== undefined && name !== state.name)
        events.push({ type: 'TermCalendarRenamed', data: { calendarId, name } });
      if (terms && !sameTerms(terms, state.terms))
        events.push({ type: 'TermCalendarTermsChanged', data: { calendarId, terms } });
      if (closures && !sameClosures(closures, state.closures))
        events.push({ type: 'TermCalendarClosuresChanged', data: { calendarId, closures } });
      return events;
    }
  }
}

export const termCalendarAggregate: Aggregate<TermCalendarState, TermCalendarCommand, TermCalendarEvent> = {
  stream: termCalendarStream,
  idOf: (command) => command.calendarId,
  initialState: () => initialTermCalendarState,
  evolve: evolveTermCalendar,
  decide: decideTermCalendar,
};
