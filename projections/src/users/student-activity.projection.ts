import { defineProjection, type ProjectionEvent, type ProjectionTx } from '../projection.js';
import type { UserCreatedData, UserProfileUpdatedData, UserRef } from './user-events.js';

/**
 * When each student had access (docs/decisions/0018): one row per period during which the student was
 * active (has access and is not blocked), open while it lasts. The "active students per day / month"
 * report counts, for each day, the students with a period overlapping it. The users read model only
 * knows the current status, so this history is a read model of its own, built from the same events.
 *
 * `rm_student_activity` holds each student's current state (to know when a change starts or ends a
 * period) and current customer (reports filter by it).
 */
export interface StudentActivePeriodRow {
  user_id: string;
  started_at: Date;
  ended_at: Date | null;
}

const HANDLES = [
  'UserCreated',
  'UserProfileUpdated',
  'UserActivated',
  'UserDeactivated',
  'UserBlocked',
  'UserUnblocked',
] as const;

type Change = { has_access?: boolean; is_blocked?: boolean };

const CHANGES: Record<string, Change> = {
  UserActivated: { has_access: true },
  UserDeactivated: { has_access: false },
  UserBlocked: { is_blocked: true },
  UserUnblocked: { is_blocked: false },
};

async function changeState(tx: ProjectionTx, event: ProjectionEvent, change: Change) {
  const { userId } = event.data as UserRef;
  const { rows } = await tx.query<{ has_access: boolean; is_blocked: boolean; position: string }>(
    'SELECT has_access, is_blocked, position FROM rm_student_activity WHERE user_id = $1',
    [userId],
  );
  const found = rows[0];
  if (!found) return; // not a student
  // Already applied (a replay): the periods must not open or close twice.
  if (BigInt(found.position) >= event.position) return;
  const before = { has_access: found.has_access, is_blocked: found.is_blocked };
  const after = { ...before, ...change };
  const wasActive = before.has_access && !before.is_blocked;
  const isActive = after.has_access && !after.is_blocked;
  await tx.query(
    'UPDATE rm_student_activity SET has_access = $2, is_blocked = $3, position = $4::bigint WHERE user_id = $1',
    [userId, after.has_access, after.is_blocked, event.position.toString()],
  );
  const at = event.metadata.occurredAt;
  if (wasActive && !isActive)
    await tx.query(
      'UPDATE rm_student_active_periods SET ended_at = $2 WHERE user_id = $1 AND ended_at IS NULL',
      [userId, at],
    );
  else if (!wasActive && isActive)
    await tx.query('INSERT INTO rm_student_active_periods (user_id, started_at) VALUES ($1, $2)', [
      userId,
      at,
    ]);
}

export const studentActivityProjection = defineProjection({
  name: 'student-activity',
  // 2: rm_student_activity.position, so a replayed event opens or closes no period twice.
  version: 2,
  tables: ['rm_student_active_periods', 'rm_student_activity'],
  schema: [
    `CREATE TABLE IF NOT EXISTS rm_student_activity (
       user_id     uuid PRIMARY KEY,
       customer_id uuid,
       has_access  boolean NOT NULL,
       is_blocked  boolean NOT NULL,
       position    bigint NOT NULL DEFAULT 0
     )`,
    `CREATE TABLE IF NOT EXISTS rm_student_active_periods (
       user_id    uuid NOT NULL,
       started_at timestamptz NOT NULL,
       ended_at   timestamptz
     )`,
    `CREATE INDEX IF NOT EXISTS rm_student_active_periods_user ON rm_student_active_periods (user_id)`,
    `CREATE INDEX IF NOT EXISTS rm_student_active_periods_span ON rm_student_active_periods (started_at, ended_at)`,
  ],
  handles: HANDLES,
  async apply(event: ProjectionEvent, tx) {
    switch (event.type) {
      case 'UserCreated': {
        const d = event.data as UserCreatedData;
        if (d.userType !== 'student') return;
        // One statement that answers nothing (so it waits in the runner's write-behind script): the
        // first active period opens only when the student's row is new, so a replay adds nothing.
        await tx.query(
          `WITH created AS (
             INSERT INTO rm_student_activity (user_id, customer_id, has_access, is_blocked, position)
             VALUES ($1, $2, true, false, $3::bigint) ON CONFLICT (user_id) DO NOTHING RETURNING user_id)
           INSERT INTO rm_student_active_periods (user_id, started_at)
           SELECT user_id, $4::timestamptz FROM created`,
          [d.userId, d.customerId ?? null, event.position.toString(), event.metadata.occurredAt],
        );
        return;
      }
      case 'UserProfileUpdated': {
        const { userId, changes } = event.data as UserProfileUpdatedData;
        if (changes.customerId === undefined) return;
        await tx.query(
          `UPDATE rm_student_activity SET customer_id = $2, position = $3::bigint
            WHERE user_id = $1 AND position < $3::bigint`,
          [userId, changes.customerId, event.position.toString()],
        );
        return;
      }
      default: {
        const change = CHANGES[event.type];
        if (change) await changeState(tx, event, change);
      }
    }
  },
});
