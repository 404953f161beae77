import { Inject, Injectable } from '@nestjs/common';
import { SQL_CLIENT } from '../../platform/tokens.js';
import type { SqlClient } from '../../platform/sql/sql-client.js';

export type ActivityBucket = 'day' | 'month';

/** Days in a range up to which the report counts per day; longer ranges count per month. */
export const MAX_DAILY_BUCKETS = 93;

/** Queries on the student-activity read model (docs/decisions/0018). */
@Injectable()
export class StudentActivityReadModel {
  constructor(@Inject(SQL_CLIENT) private readonly sql: SqlClient) {}

  /**
   * For each UTC day (or month) from `from` to `to` (both included, YYYY-MM-DD): how many students
   * were active at some moment in it, optionally only students now of `customerId`.
   */
  async activePerPeriod(
    from: string,
    to: string,
    bucket: ActivityBucket,
    customerId: string | null,
  ): Promise<{ period: string; active: number }[]> {
    const step = bucket === 'day' ? '1 day' : '1 month';
    const { rows } = await this.sql.query<{ period: string; active: string }>(
      `WITH buckets AS (
         SELECT b AS starts, least(b + $3::interval, ($2::date + 1)::timestamp AT TIME ZONE 'UTC') AS ends
           FROM generate_series(date_trunc($4, $1::date::timestamp) AT TIME ZONE 'UTC',
                                $2::date::timestamp AT TIME ZONE 'UTC', $3::interval) AS b
       )
       SELECT to_char(b.starts AT TIME ZONE 'UTC', $5) AS period,
              (SELECT count(DISTINCT p.user_id)
                 FROM rm_student_active_periods p
                 JOIN rm_student_activity s ON s.user_id = p.user_id
                WHERE p.started_at < b.ends AND (p.ended_at IS NULL OR p.ended_at > greatest(b.starts, $1::date::timestamp AT TIME ZONE 'UTC'))
                  AND ($6::uuid IS NULL OR s.customer_id = $6::uuid))::text AS active
         FROM buckets b ORDER BY b.starts`,
      [from, to, step, bucket, bucket === 'day' ? 'YYYY-MM-DD' : 'YYYY-MM', customerId],
    );
    return rows.map((r) => ({ period: r.period, active: Number(r.active) }));
  }

  /** Students active now (has access, not blocked), optionally of one customer. */
  async activeNow(customerId: string | null): Promise<number> {
    const { rows } = await this.sql.query<{ n: string }>(
      `SELECT count(*)::text AS n FROM rm_student_activity
        WHERE has_access AND NOT is_blocked AND ($1::uuid IS NULL OR customer_id = $1::uuid)`,
      [customerId],
    );
    return Number(rows[0]?.n ?? 0);
  }
}
