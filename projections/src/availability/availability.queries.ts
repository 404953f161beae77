import type { Queryable } from '../list-query.js';
import type { AvailabilityRow } from './availability.projection.js';

/** Queries on `rm_user_availability` (projection `availability`). */

/** The week's own list if it has one, else the recurring list (week ''), else null. */
export async function availabilityFor(
  db: Queryable,
  userId: string,
  type: string,
  week: string | null | undefined,
): Promise<AvailabilityRow | null> {
  const { rows } = await db.query<AvailabilityRow>(
    `SELECT * FROM rm_user_availability WHERE user_id = $1 AND type = $2 AND week IN ($3, '')
      ORDER BY week DESC LIMIT 1`,
    [userId, type, week ?? ''],
  );
  return rows[0] ?? null;
}
