import { describe, expect, it } from '@jest/globals';
import type { TermCalendarEvent } from '@portal/projections';
import { DomainError, type ErrorKind } from '../platform/domain/domain-error.js';
import { decideTermCalendar, foldTermCalendar, type TermCalendarCommand } from './term-calendar.decider.js';

const ID = '11111111-1111-4111-8111-111111111111';
const NET = '22222222-2222-4222-8222-222222222222';
const autumn = { name: 'Autumn', firstDay: '2026-09-02', lastDay: '2026-12-18' };
const spring = { name: 'Spring', firstDay: '2027-01-05', lastDay: '2027-03-26' };
const create = (
  over: Partial<Extract<TermCalendarCommand, { type: 'CreateTermCalendar' }>> = {},
): TermCalendarCommand => ({
  type: 'CreateTermCalendar',
  calendarId: ID,
  networkId: NET,
  customerId: null,
  name: '2026/27',
  terms: [autumn, spring],
  closures: [{ date: '2026-10-26', reason: 'Half term' }],
  ...over,
});
const createdData = {
  calendarId: ID,
  networkId: NET,
  customerId: null,
  name: '2026/27',
  terms: [autumn, spring],
  closures: [{ date: '2026-10-26', reason: 'Half term' }],
};
const created: TermCalendarEvent = { type: 'TermCalendarCreated', data: createdData };

const rows: {
  name: string;
  given: TermCalendarEvent[];
  when: TermCalendarCommand;
  then: TermCalendarEvent[] | [ErrorKind, string];
}[] = [
  { name: 'creates a calendar', given: [], when: create(), then: [created] },
  {
    name: 'keeps terms and closures in date order whatever order they came in',
    given: [],
    when: create({
      terms: [spring, autumn],
      closures: [
        { date: '2026-10-27', reason: 'Half term' },
        { date: '2026-10-26', reason: 'Half term' },
      ],
    }),
    then: [
      {
        type: 'TermCalendarCreated' as const,
        data: {
          ...createdData,
          closures: [
            { date: '2026-10-26', reason: 'Half term' },
            { date: '2026-10-27', reason: 'Half term' },
          ],
        },
      },
    ],
  },
  {
    name: 'a term ending before it starts names the field',
    given: [],
    when: create({ terms: [autumn, { ...spring, lastDay: '2027-01-04' }] }),
    then: ['invalid', 'terms.1.last_day: must not be before first_day'],
  },
  {
    name: 'a one-day term is fine',
    given: [],
    when: create({ terms: [{ name: 'Day', firstDay: '2026-09-02', lastDay: '2026-09-02' }], closures: [] }),
    then: [
      {
        type: 'TermCalendarCreated' as const,
        data: {
          ...createdData,
          terms: [{ name: 'Day', firstDay: '2026-09-02', lastDay: '2026-09-02' }],
          closures: [],
        },
      },
    ],
  },
  {
    name: 'overlapping terms name the later one (sharing one day overlaps)',
    given: [],
    when: create({
      terms: [spring, autumn, { name: 'Extra', firstDay: '2026-12-18', lastDay: '2026-12-20' }],
    }),
    then: ['invalid', 'terms.2.first_day: overlaps term 1 (Autumn'],
  },
  {
    name: 'a closure date twice names the second',
    given: [],
    when: create({
      closures: [
        { date: '2026-10-26', reason: 'Half term' },
        { date: '2026-10-26', reason: 'INSET' },
      ],
    }),
    then: ['invalid', 'closures.1.date: 2026-10-26 is already closures.0'],
  },
  {
    name: 'creating twice is a conflict',
    given: [created],
    when: create(),
    then: ['conflict', 'already exists'],
  },
  {
    name: 'an update replaces the lists that changed only',
    given: [created],
    when: {
      type: 'UpdateTermCalendar',
      calendarId: ID,
      name: '2026/27',
      terms: [autumn, spring],
      closures: [],
    },
    then: [{ type: 'TermCalendarClosuresChanged', data: { calendarId: ID, closures: [] } }],
  },
  {
    name: 'an update renames and changes terms',
    given: [created],
    when: { type: 'UpdateTermCalendar', calendarId: ID, name: 'England 2026/27', terms: [autumn] },
    then: [
      { type: 'TermCalendarRenamed', data: { calendarId: ID, name: 'England 2026/27' } },
      { type: 'TermCalendarTermsChanged', data: { calendarId: ID, terms: [autumn] } },
    ],
  },
  {
    name: 'an update with overlapping terms is invalid',
    given: [created],
    when: {
      type: 'UpdateTermCalendar',
      calendarId: ID,
      terms: [autumn, { ...spring, firstDay: '2026-12-01' }],
    },
    then: ['invalid', 'terms.1.first_day'],
  },
  {
    name: 'updating an unknown calendar is not found',
    given: [],
    when: { type: 'UpdateTermCalendar', calendarId: ID, name: 'X' },
    then: ['not_found', 'Term calendar'],
  },
];

describe('term calendar decider', () => {
  it.each(rows)('$name', ({ given, when, then }) => {
    if (typeof then[0] === 'string') {
      const [kind, detail] = then as [ErrorKind, string];
      let error: unknown;
      try {
        decideTermCalendar(when, foldTermCalendar(given));
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(DomainError);
      expect((error as DomainError).kind).toBe(kind);
      expect((error as DomainError).detail).toContain(detail);
    } else expect(decideTermCalendar(when, foldTermCalendar(given))).toEqual(then);
  });
});
