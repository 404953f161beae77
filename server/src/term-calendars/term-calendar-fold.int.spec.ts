import { expect } from '@jest/globals';
import { termCalendarsProjection, termCalendarStream, type ProjectionEvent } from '@portal/projections';
import { describeFoldInBatches, record } from '../platform/testing/projection-contract.js';

/**
 * Decision 0089: a batch of term calendar events folds the calendars it creates in memory and writes
 * their rows once; events about calendars that existed before the batch go to SQL. Whatever the batch
 * boundaries, the rows must be those of event-by-event apply. The history walks every rule: creation
 * with terms and closures, a rename, terms and closures replaced (to none, and back), a closure date
 * listed twice (the first reason stays), a second creation, an event before its calendar's creation,
 * ids in capitals, and a calendar created before the batch.
 */
const id = (n: number) => `abcdef00-0000-4000-8000-${String(n).padStart(12, '0')}`;
const [OLD, NORTH, SOUTH] = [id(1), id(2), id(3)];
const NETWORK = id(90);
const term = (name: string, firstDay: string, lastDay: string) => ({ name, firstDay, lastDay });
const AUTUMN = term('Autumn', '2026-09-02', '2026-12-18');
const SPRING = term('Spring', '2027-01-05', '2027-03-26');
const closure = (date: string, reason: string) => ({ date, reason });

const created = (
  calendarId: string,
  name: string,
  terms = [AUTUMN],
  closures = [closure('2026-10-26', 'Half term')],
) =>
  [
    termCalendarStream(calendarId.toLowerCase()),
    'TermCalendarCreated',
    { calendarId, networkId: NETWORK, customerId: null, name, terms, closures },
  ] as const;
const renamed = (calendarId: string, name: string) =>
  [termCalendarStream(calendarId.toLowerCase()), 'TermCalendarRenamed', { calendarId, name }] as const;
const terms = (calendarId: string, list: ReturnType<typeof term>[]) =>
  [
    termCalendarStream(calendarId.toLowerCase()),
    'TermCalendarTermsChanged',
    { calendarId, terms: list },
  ] as const;
const closures = (calendarId: string, list: ReturnType<typeof closure>[]) =>
  [
    termCalendarStream(calendarId.toLowerCase()),
    'TermCalendarClosuresChanged',
    { calendarId, closures: list },
  ] as const;

const history: ProjectionEvent[] = record([
  created(OLD, 'Old'), // 0
  renamed(OLD, 'Old, renamed'), // 1
  renamed(SOUTH, 'Too early'), // 2: before SOUTH's creation: nothing
  created(NORTH.toUpperCase(), 'North', [AUTUMN, SPRING], []), // 3
  terms(OLD, [SPRING]), // 4
  closures(NORTH, [closure('2026-11-02', 'INSET'), closure('2026-11-02', 'Listed twice')]), // 5: replaced at 16
  created(SOUTH, 'South'), // 6: its row comes now
  renamed(NORTH, 'North A'), // 7
  created(NORTH, 'Second creation', [], []), // 8: keeps the row and its lists
  terms(SOUTH, []), // 9
  closures(OLD, []), // 10
  terms(SOUTH, [AUTUMN, SPRING]), // 11
  renamed(SOUTH.toUpperCase(), 'South A'), // 12
  closures(SOUTH, [
    closure('2027-02-15', 'Half term'),
    closure('2026-10-26', 'Half term'),
    closure('2027-02-15', 'Listed twice'),
  ]), // 13: the first reason stays
  terms(NORTH, [SPRING]), // 14
  renamed(OLD, 'Old again'), // 15
  closures(NORTH, [closure('2026-12-21', 'Christmas')]), // 16
  renamed(NORTH, 'North B'), // 17
  closures(OLD, [closure('2027-01-04', 'INSET')]), // 18
  terms(NORTH, [AUTUMN]), // 19
]);

describeFoldInBatches(
  'term calendars projection',
  'portal_term_calendar_fold',
  termCalendarsProjection,
  history,
  {
    title: 'event by event, the history sets every term calendar rule',
    async check(sql) {
      const calendars = await sql.query(
        `SELECT id::text, name, version::int FROM rm_term_calendars ORDER BY id`,
      );
      expect(calendars.rows).toEqual([
        { id: OLD, name: 'Old again', version: 5 },
        { id: NORTH, name: 'North B', version: 7 },
        { id: SOUTH, name: 'South A', version: 5 }, // its stream began with the rename that came too early
      ]);
      const termRows = await sql.query(
        `SELECT calendar_id::text AS c, position, name, first_day::text AS first, last_day::text AS last
         FROM rm_terms ORDER BY calendar_id, position`,
      );
      expect(termRows.rows).toEqual([
        { c: OLD, position: 0, name: 'Spring', first: '2027-01-05', last: '2027-03-26' },
        { c: NORTH, position: 0, name: 'Autumn', first: '2026-09-02', last: '2026-12-18' },
        { c: SOUTH, position: 0, name: 'Autumn', first: '2026-09-02', last: '2026-12-18' },
        { c: SOUTH, position: 1, name: 'Spring', first: '2027-01-05', last: '2027-03-26' },
      ]);
      const closureRows = await sql.query(
        `SELECT calendar_id::text AS c, date::text, reason FROM rm_closures ORDER BY calendar_id, date`,
      );
      expect(closureRows.rows).toEqual([
        { c: OLD, date: '2027-01-04', reason: 'INSET' },
        { c: NORTH, date: '2026-12-21', reason: 'Christmas' },
        { c: SOUTH, date: '2026-10-26', reason: 'Half term' },
        { c: SOUTH, date: '2027-02-15', reason: 'Half term' },
      ]);
    },
  },
);
