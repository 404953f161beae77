import type { Queryable } from '../list-query.js';

/**
 * Reads for a parent's "my child" page (issue 18, decision 0062): who at the school a family contacts
 * about a student, and which half term a day falls in for the student's school. Access is the caller's
 * (the server's student scope); these only read.
 */

/** A person at the student's school a family may contact. */
export interface SchoolContactRow {
  id: string;
  full_name: string;
  email: string;
  /** `super-admin`, `admin` or `link-contact`. */
  customer_type: string;
  /** Whether the contact is linked to this student (their link contact). */
  linked: boolean;
}

/**
 * The school's staff for this student: its active super-admins and admins, and the link contacts
 * linked to the student (a link contact of other pupils is not this family's contact). Linked people
 * first, then by name.
 */
export async function schoolContactsOf(db: Queryable, studentId: string): Promise<SchoolContactRow[]> {
  const { rows } = await db.query<SchoolContactRow>(
    `SELECT u.id::text AS id, u.full_name, u.email, u.customer_type,
            EXISTS (SELECT 1 FROM rm_student_links l WHERE l.partner_id = u.id AND l.student_id = s.id) AS linked
       FROM rm_users s
       JOIN rm_users u ON u.customer_id = s.customer_id
      WHERE s.id = $1::uuid AND s.customer_id IS NOT NULL
        AND u.user_type = 'partner' AND u.deleted_at IS NULL AND u.status = 'active'
        AND (u.customer_type IN ('super-admin', 'admin')
             OR (u.customer_type = 'link-contact'
                 AND EXISTS (SELECT 1 FROM rm_student_links l WHERE l.partner_id = u.id AND l.student_id = s.id)))
      ORDER BY linked DESC, u.full_name ASC, u.id ASC`,
    [studentId],
  );
  return rows;
}

/** A half term: a name and its first and last day (yyyy-MM-dd, the school's local dates). */
export interface HalfTermPeriod {
  name: string;
  from: string;
  to: string;
  /** Where the dates come from: a half-term report timeframe, or a term of the school's calendar. */
  source: 'timeframe' | 'term';
}

/**
 * The half term `date` falls in for the student's school: the half-term report timeframe whose period
 * covers the date (the school's network's, else one for every network), else the term of the school's
 * calendar covering it (the school's own calendar before its network's); null when neither does.
 */
export async function halfTermOf(
  db: Queryable,
  studentId: string,
  date: string,
): Promise<HalfTermPeriod | null> {
  const { rows: timeframes } = await db.query<HalfTermPeriod>(
    `SELECT t.name, t.period_from AS "from", t.period_to AS "to", 'timeframe' AS source
       FROM rm_users s
       LEFT JOIN rm_customers c ON c.id = s.customer_id
       JOIN rm_report_timeframes t ON (t.network_id = c.network_id OR t.network_id IS NULL)
      WHERE s.id = $1::uuid AND t.period_from <= $2 AND t.period_to >= $2
      ORDER BY (t.network_id IS NULL) ASC, t.period_from DESC, t.id ASC
      LIMIT 1`,
    [studentId, date],
  );
  if (timeframes[0]) return timeframes[0];
  const { rows: terms } = await db.query<{ name: string; from: string; to: string; breaks: string[] }>(
    `SELECT tm.name, to_char(tm.first_day, 'YYYY-MM-DD') AS "from", to_char(tm.last_day, 'YYYY-MM-DD') AS "to",
            COALESCE((SELECT array_agg(to_char(x.date, 'YYYY-MM-DD') ORDER BY x.date) FROM rm_closures x
                       WHERE x.calendar_id = k.id AND x.date BETWEEN tm.first_day AND tm.last_day
                         AND x.reason ILIKE '%half%term%'), ARRAY[]::text[]) AS breaks
       FROM rm_users s
       JOIN rm_customers c ON c.id = s.customer_id
       JOIN rm_term_calendars k ON (k.customer_id = c.id OR (k.customer_id IS NULL AND k.network_id = c.network_id))
       JOIN rm_terms tm ON tm.calendar_id = k.id
      WHERE s.id = $1::uuid AND tm.first_day <= $2::date AND tm.last_day >= $2::date
      ORDER BY (k.customer_id IS NULL) ASC, tm.first_day DESC
      LIMIT 1`,
    [studentId, date],
  );
  return terms[0] ? halfOfTerm(terms[0], date) : null;
}

/**
 * The half of a term `date` falls in: a term's half-term break (its closures named "half term") splits
 * it into "<term> 1" (up to the day before the break) and "<term> 2" (from the day after it). A term
 * without such a break is one period. A date inside the break gets the first half.
 */
export function halfOfTerm(
  term: { name: string; from: string; to: string; breaks: readonly string[] },
  date: string,
): HalfTermPeriod {
  const breaks = [...term.breaks].sort();
  const first = breaks[0];
  const last = breaks.at(-1);
  if (!first || !last) return { name: term.name, from: term.from, to: term.to, source: 'term' };
  if (date > last) return { name: `${term.name} 2`, from: nextDay(last), to: term.to, source: 'term' };
  return { name: `${term.name} 1`, from: term.from, to: previousDay(first), source: 'term' };
}

const shift = (day: string, by: number) => {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + by);
  return d.toISOString().slice(0, 10);
};
const nextDay = (day: string) => shift(day, 1);
const previousDay = (day: string) => shift(day, -1);
