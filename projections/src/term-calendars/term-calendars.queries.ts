import { filters, listPage, sortOf, type Page, type Queryable } from '../list-query.js';
import type { ClosureRow, TermCalendarRow, TermRow } from './term-calendars.projection.js';

/** Queries on `rm_term_calendars`, `rm_terms` and `rm_closures` (projection `term-calendars`). */

/** A calendar with its terms and closures (dates `yyyy-MM-dd`), in date order. */
export interface TermCalendarWithDays extends TermCalendarRow {
  terms: { name: string; first_day: string; last_day: string }[];
  closures: { date: string; reason: string }[];
}

export interface TermCalendarListFilter {
  page?: number;
  size?: number;
  text?: string;
  networkId?: string;
  customerId?: string;
  /** A partner's view: only calendars of this network without a customer, or of this customer. */
  visibleTo?: { networkId: string | null; customerId: string };
  sortBy?: string;
  descending?: boolean;
}

export const TERM_CALENDAR_SORTS = ['name', 'created_at'] as const;

export const listTermCalendars = (
  db: Queryable,
  f: TermCalendarListFilter,
): Promise<Page<TermCalendarWithDays>> =>
  listPage<TermCalendarRow, TermCalendarWithDays>(db, {
    from: 'rm_term_calendars',
    where: filters()
      .eq('network_id', f.networkId, '::uuid')
      .eq('customer_id', f.customerId, '::uuid')
      .contains('name', f.text)
      .rawIf(
        f.visibleTo !== undefined,
        (p) =>
          `(customer_id = ${p(f.visibleTo!.customerId)}::uuid OR (customer_id IS NULL AND network_id = ${p(
            f.visibleTo!.networkId,
          )}::uuid))`,
      ),
    orderBy: sortOf(f.sortBy, TERM_CALENDAR_SORTS, 'name', {
      descending: f.descending,
      expressions: { name: 'lower(name)' },
    }),
    page: f.page,
    size: f.size,
    mapRows: (rows) => withDays(db, rows),
  });

export async function termCalendarById(db: Queryable, id: string): Promise<TermCalendarWithDays | null> {
  const { rows } = await db.query<TermCalendarRow>('SELECT * FROM rm_term_calendars WHERE id = $1', [id]);
  return rows.length ? ((await withDays(db, rows))[0] ?? null) : null;
}

async function withDays(db: Queryable, rows: TermCalendarRow[]): Promise<TermCalendarWithDays[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const { rows: terms } = await db.query<TermRow>(
    `SELECT calendar_id, position, name, first_day::text AS first_day, last_day::text AS last_day
       FROM rm_terms WHERE calendar_id = ANY($1::uuid[]) ORDER BY first_day, position`,
    [ids],
  );
  const { rows: closures } = await db.query<ClosureRow>(
    `SELECT calendar_id, date::text AS date, reason
       FROM rm_closures WHERE calendar_id = ANY($1::uuid[]) ORDER BY date`,
    [ids],
  );
  return rows.map((r) => ({
    ...r,
    terms: terms
      .filter((t) => t.calendar_id === r.id)
      .map((t) => ({ name: t.name, first_day: t.first_day, last_day: t.last_day })),
    closures: closures.filter((c) => c.calendar_id === r.id).map((c) => ({ date: c.date, reason: c.reason })),
  }));
}

export interface TeachingDaysQuery {
  networkId: string;
  /** A partner school; its calendars add closures and, when they have terms in range, replace the terms. */
  customerId: string | null;
  /** First day asked about, `yyyy-MM-dd` (inclusive). */
  from: string;
  /** Last day asked about, `yyyy-MM-dd` (inclusive). */
  to: string;
}

export interface TeachingDays {
  /**
   * The terms that apply, in date order. Empty means "no term restriction" (no calendar with terms
   * applies). When calendars with terms apply but none of their terms overlaps from..to, all their
   * terms are answered, so that the list is never empty then (none of from..to is a teaching day).
   */
  terms: { first_day: string; last_day: string }[];
  /** Closure dates between from and to (inclusive), sorted, each once. */
  closures: string[];
}

/**
 * The terms and closures that apply to a network's (and optionally one customer's) teaching between
 * two dates (the shared teaching contract): the network's calendars (those without a customer), plus,
 * when `customerId` is given, that customer's calendars. A customer's closures add to the network's;
 * if the customer's calendars have terms overlapping from..to, they replace the network's terms.
 * A day teaches when it lies in some term (or `terms` is empty) and is not a closure.
 */
export async function teachingDaysFor(db: Queryable, q: TeachingDaysQuery): Promise<TeachingDays> {
  const { rows: terms } = await db.query<{
    own: boolean;
    first_day: string;
    last_day: string;
    overlaps: boolean;
  }>(
    `SELECT c.customer_id IS NOT NULL AS own, t.first_day::text AS first_day, t.last_day::text AS last_day,
            (t.first_day <= $4::date AND t.last_day >= $3::date) AS overlaps
       FROM rm_terms t JOIN rm_term_calendars c ON c.id = t.calendar_id
      WHERE (c.network_id = $1::uuid AND c.customer_id IS NULL) OR c.customer_id = $2::uuid
      ORDER BY t.first_day, t.last_day`,
    [q.networkId, q.customerId, q.from, q.to],
  );
  const { rows: closures } = await db.query<{ date: string }>(
    `SELECT DISTINCT cl.date::text AS date
       FROM rm_closures cl JOIN rm_term_calendars c ON c.id = cl.calendar_id
      WHERE ((c.network_id = $1::uuid AND c.customer_id IS NULL) OR c.customer_id = $2::uuid)
        AND cl.date BETWEEN $3::date AND $4::date
      ORDER BY 1`,
    [q.networkId, q.customerId, q.from, q.to],
  );
  const own = terms.filter((t) => t.own);
  const network = terms.filter((t) => !t.own);
  const ownInRange = own.filter((t) => t.overlaps);
  const networkInRange = network.filter((t) => t.overlaps);
  const chosen = ownInRange.length
    ? ownInRange
    : networkInRange.length
      ? networkInRange
      : network.length
        ? network
        : own;
  return {
    terms: chosen.map((t) => ({ first_day: t.first_day, last_day: t.last_day })),
    closures: closures.map((c) => c.date),
  };
}
