import {
  absentIds,
  defineProjection,
  applyFolding,
  guardedSet,
  guardPasses,
  insertRows,
  rowAbsent,
  type ProjectionEvent,
  type ProjectionTx,
} from '../projection.js';

/**
 * Term calendars (issue 15 item 5, decision 0049): the terms and closure days of a network, or of one
 * partner school (customer) within it. Stream `termCalendar-{id}`. Schedules skip the days outside
 * terms and the closures (`teachingDaysFor`). A calendar's network and customer are fixed when it is
 * created; its name, terms and closures change as a whole list each (the screen edits the lists).
 */

/** A term: its first and last day (inclusive), dates `yyyy-MM-dd`. */
export interface TermDates {
  name: string;
  firstDay: string;
  lastDay: string;
}

/** A day without teaching (a bank holiday, an INSET day, a half-term day). */
export interface ClosureDay {
  date: string;
  reason: string;
}

export interface TermCalendarCreatedData {
  calendarId: string;
  networkId: string;
  customerId: string | null;
  name: string;
  terms: TermDates[];
  closures: ClosureDay[];
}
export interface TermCalendarRenamedData {
  calendarId: string;
  name: string;
}
/** The whole new list of terms, in date order. */
export interface TermCalendarTermsChangedData {
  calendarId: string;
  terms: TermDates[];
}
/** The whole new list of closures, in date order. */
export interface TermCalendarClosuresChangedData {
  calendarId: string;
  closures: ClosureDay[];
}

export type TermCalendarEvent =
  | { type: 'TermCalendarCreated'; data: TermCalendarCreatedData }
  | { type: 'TermCalendarRenamed'; data: TermCalendarRenamedData }
  | { type: 'TermCalendarTermsChanged'; data: TermCalendarTermsChangedData }
  | { type: 'TermCalendarClosuresChanged'; data: TermCalendarClosuresChangedData };

export const TERM_CALENDAR_EVENT_TYPES: readonly TermCalendarEvent['type'][] = [
  'TermCalendarCreated',
  'TermCalendarRenamed',
  'TermCalendarTermsChanged',
  'TermCalendarClosuresChanged',
];

export const termCalendarStream = (calendarId: string) => `termCalendar-${calendarId}`;

export interface TermCalendarRow {
  id: string;
  network_id: string;
  customer_id: string | null;
  name: string;
  created_at: Date;
  updated_at: Date;
  version: string;
}

/** A term row; dates read as `yyyy-MM-dd` text. */
export interface TermRow {
  calendar_id: string;
  position: number;
  name: string;
  first_day: string;
  last_day: string;
}

export interface ClosureRow {
  calendar_id: string;
  date: string;
  reason: string;
}

type Tx = { query: (sql: string, p?: unknown[]) => Promise<unknown> };

/**
 * The condition of a child write of a calendar event, computed by SQL so the projection needs no
 * answer first (decision 0070): `revision` null, only if the calendar row is not there yet (its insert
 * follows); else only if the guarded update of the row to `revision`, which follows, will change it.
 * `id` and `rev` are the statement's placeholders.
 */
const calendarWhen = (revision: string | null, id: string, rev: string) =>
  revision === null ? rowAbsent('rm_term_calendars', id) : guardPasses('rm_term_calendars', id, rev);

async function replaceTerms(tx: Tx, id: string, terms: TermDates[], revision: string | null) {
  const guard = revision === null ? [] : [revision];
  await tx.query(
    `DELETE FROM rm_terms WHERE calendar_id = $1 AND ${calendarWhen(revision, '$1::uuid', '$2')}`,
    [id, ...guard],
  );
  if (terms.length === 0) return;
  await tx.query(
    `INSERT INTO rm_terms (calendar_id, position, name, first_day, last_day)
     SELECT $1::uuid, t.ordinality - 1, t.name, t.first_day::date, t.last_day::date
       FROM unnest($2::text[], $3::text[], $4::text[]) WITH ORDINALITY AS t(name, first_day, last_day, ordinality)
      WHERE ${calendarWhen(revision, '$1::uuid', '$5')}`,
    [id, terms.map((t) => t.name), terms.map((t) => t.firstDay), terms.map((t) => t.lastDay), ...guard],
  );
}

async function replaceClosures(tx: Tx, id: string, closures: ClosureDay[], revision: string | null) {
  const guard = revision === null ? [] : [revision];
  await tx.query(
    `DELETE FROM rm_closures WHERE calendar_id = $1 AND ${calendarWhen(revision, '$1::uuid', '$2')}`,
    [id, ...guard],
  );
  if (closures.length === 0) return;
  await tx.query(
    `INSERT INTO rm_closures (calendar_id, date, reason)
     SELECT $1::uuid, c.date::date, c.reason FROM unnest($2::text[], $3::text[]) AS c(date, reason)
      WHERE ${calendarWhen(revision, '$1::uuid', '$4')}
     ON CONFLICT DO NOTHING`,
    [id, closures.map((c) => c.date), closures.map((c) => c.reason), ...guard],
  );
}

export const termCalendarsProjection = defineProjection<TermCalendarEvent>()({
  name: 'term-calendars',
  version: 1,
  tables: ['rm_term_calendars', 'rm_terms', 'rm_closures'],
  schema: [
    `CREATE TABLE IF NOT EXISTS rm_term_calendars (
       id          uuid PRIMARY KEY,
       network_id  uuid NOT NULL,
       customer_id uuid,
       name        text NOT NULL,
       created_at  timestamptz NOT NULL,
       updated_at  timestamptz NOT NULL,
       version     bigint NOT NULL
     )`,
    `CREATE INDEX IF NOT EXISTS rm_term_calendars_network ON rm_term_calendars (network_id, customer_id)`,
    `CREATE TABLE IF NOT EXISTS rm_terms (
       calendar_id uuid NOT NULL,
       position    int NOT NULL,
       name        text NOT NULL,
       first_day   date NOT NULL,
       last_day    date NOT NULL,
       PRIMARY KEY (calendar_id, position)
     )`,
    `CREATE TABLE IF NOT EXISTS rm_closures (
       calendar_id uuid NOT NULL,
       date        date NOT NULL,
       reason      text NOT NULL,
       PRIMARY KEY (calendar_id, date)
     )`,
  ],
  handles: TERM_CALENDAR_EVENT_TYPES,
  /** A batch folds the calendars it creates in memory and writes their rows once (decision 0089). */
  applyBatch: (events, tx) =>
    applyFolding(events, tx, applyCalendarEvent, (batch, t) => CalendarFold.start(batch, t)),
  apply: (e, tx) => applyCalendarEvent(e, tx),
});

async function applyCalendarEvent(e: ProjectionEvent & TermCalendarEvent, tx: ProjectionTx): Promise<void> {
  const revision = e.revision.toString();
  const at = e.metadata.occurredAt;
  switch (e.type) {
    case 'TermCalendarCreated': {
      // Terms and closures first, only if the calendar row is not there yet (its insert follows).
      await replaceTerms(tx, e.data.calendarId, e.data.terms, null);
      await replaceClosures(tx, e.data.calendarId, e.data.closures, null);
      await tx.query(
        `INSERT INTO rm_term_calendars (id, network_id, customer_id, name, created_at, updated_at, version)
         VALUES ($1, $2, $3, $4, $5, $5, $6::bigint) ON CONFLICT (id) DO NOTHING`,
        [e.data.calendarId, e.data.networkId, e.data.customerId, e.data.name, at, revision],
      );
      return;
    }
    case 'TermCalendarRenamed':
      await guardedSet(tx, 'rm_term_calendars', e.data.calendarId, revision, {
        name: e.data.name,
        updated_at: at,
      });
      return;
    // The child rows first, under the condition the guarded update that follows passes.
    case 'TermCalendarTermsChanged':
      await replaceTerms(tx, e.data.calendarId, e.data.terms, revision);
      await guardedSet(tx, 'rm_term_calendars', e.data.calendarId, revision, { updated_at: at });
      return;
    case 'TermCalendarClosuresChanged':
      await replaceClosures(tx, e.data.calendarId, e.data.closures, revision);
      await guardedSet(tx, 'rm_term_calendars', e.data.calendarId, revision, { updated_at: at });
      return;
  }
}

interface FoldedCalendar {
  id: string;
  network_id: string;
  customer_id: string | null;
  name: string;
  created_at: string;
  updated_at: string;
  version: bigint;
  terms: TermDates[];
  /** By date; the first of a date wins, as the insert's ON CONFLICT DO NOTHING keeps it. */
  closures: Map<string, string>;
}

/**
 * The calendars a batch creates, folded in memory (decision 0089, like the groups of decision 0088):
 * a calendar whose row did not exist when the batch began is created and changed in memory by every
 * event of the batch about it, with `applyCalendarEvent`'s rules and version guard, and its rows (the
 * calendar, its terms, its closures) are written once when the batch ends.
 */
class CalendarFold {
  private readonly calendars = new Map<string, FoldedCalendar>();

  private constructor(private readonly absent: ReadonlySet<string>) {}

  static async start(events: readonly (ProjectionEvent & TermCalendarEvent)[], tx: ProjectionTx) {
    const created = events.flatMap((e) => (e.type === 'TermCalendarCreated' ? [e.data.calendarId] : []));
    return new CalendarFold(await absentIds(tx, 'rm_term_calendars', created));
  }

  /** Applies `e` in memory when it is about a calendar this fold holds; false leaves it to SQL. */
  takes(e: ProjectionEvent & TermCalendarEvent): boolean {
    const id = e.data.calendarId.toLowerCase();
    if (!this.absent.has(id)) return false;
    const calendar = this.calendars.get(id);
    const at = e.metadata.occurredAt;
    if (e.type === 'TermCalendarCreated') {
      // A second creation keeps the row and its lists.
      if (!calendar)
        this.calendars.set(id, {
          id,
          network_id: e.data.networkId,
          customer_id: e.data.customerId,
          name: e.data.name,
          created_at: at,
          updated_at: at,
          version: e.revision,
          terms: e.data.terms,
          closures: closuresOf(e.data.closures),
        });
      return true;
    }
    // Before its creation, or older than the row: the SQL guard would change nothing either.
    if (!calendar || calendar.version >= e.revision) return true;
    if (e.type === 'TermCalendarRenamed') calendar.name = e.data.name;
    else if (e.type === 'TermCalendarTermsChanged') calendar.terms = e.data.terms;
    else calendar.closures = closuresOf(e.data.closures);
    calendar.updated_at = at;
    calendar.version = e.revision;
    return true;
  }

  /** Writes the folded calendars' rows: one statement per table. */
  async write(tx: ProjectionTx): Promise<void> {
    const calendars = [...this.calendars.values()];
    await insertRows(
      tx,
      'rm_term_calendars',
      {
        id: 'uuid',
        network_id: 'uuid',
        customer_id: 'uuid',
        name: 'text',
        created_at: 'timestamptz',
        updated_at: 'timestamptz',
        version: 'bigint',
      },
      calendars.map(({ terms: _t, closures: _c, ...c }) => ({ ...c, version: c.version.toString() })),
    );
    await insertRows(
      tx,
      'rm_terms',
      { calendar_id: 'uuid', position: 'int', name: 'text', first_day: 'date', last_day: 'date' },
      calendars.flatMap((c) =>
        c.terms.map((t, position) => ({
          calendar_id: c.id,
          position,
          name: t.name,
          first_day: t.firstDay,
          last_day: t.lastDay,
        })),
      ),
    );
    await insertRows(
      tx,
      'rm_closures',
      { calendar_id: 'uuid', date: 'date', reason: 'text' },
      calendars.flatMap((c) =>
        [...c.closures].map(([date, reason]) => ({ calendar_id: c.id, date, reason })),
      ),
    );
  }
}

function closuresOf(closures: readonly ClosureDay[]): Map<string, string> {
  const byDate = new Map<string, string>();
  for (const c of closures) if (!byDate.has(c.date)) byDate.set(c.date, c.reason);
  return byDate;
}
