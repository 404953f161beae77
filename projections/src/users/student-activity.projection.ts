import {
  defineProjection,
  FOLD_FROM,
  insertRows,
  NEW_ROWS,
  type ProjectionEvent,
  type ProjectionTx,
} from '../projection.js';
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
  // Ids, types and permissions only: no name, e-mail or note (decision 0089).
  readsPersonalData: false,
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
  async applyBatch(events, tx) {
    if (events.length < FOLD_FROM) {
      for (const e of events) await this.apply(e, tx);
      return;
    }
    await ActivityFold.run(events, tx);
  },
});

/** A student's row of `rm_student_activity`, as the fold holds it. */
interface Activity {
  customer_id: string | null;
  has_access: boolean;
  is_blocked: boolean;
  position: bigint;
  changed: boolean;
}

/**
 * A batch folded in memory (decision 0089): the rows of the batch's users are read once, every event
 * changes them by the same rules and position guard as `apply`, and the rows and periods are written
 * once when the batch ends. A period that was open before the batch and that the batch closes is
 * closed by one UPDATE; the periods the batch opens are inserted with their final end.
 */
class ActivityFold {
  private readonly opened = new Map<string, { started_at: string; ended_at: string | null }[]>();
  /** When the batch first closed a user's periods that were open before it. */
  private readonly closedBefore = new Map<string, string>();

  private constructor(private readonly rows: Map<string, Activity>) {}

  static async run(events: readonly ProjectionEvent[], tx: ProjectionTx): Promise<void> {
    const ids = new Set(events.map((e) => (e.data as UserRef).userId.toLowerCase()));
    const { rows } = await tx.query<{
      user_id: string;
      customer_id: string | null;
      has_access: boolean;
      is_blocked: boolean;
      position: string;
    }>(
      `SELECT user_id::text, customer_id::text, has_access, is_blocked, position::text
         FROM rm_student_activity WHERE user_id = ANY($1::uuid[])`,
      [[...ids]],
    );
    const fold = new ActivityFold(
      new Map(rows.map((r) => [r.user_id, { ...r, position: BigInt(r.position), changed: false }])),
    );
    for (const e of events) fold.take(e);
    await fold.write(tx);
  }

  private take(e: ProjectionEvent): void {
    const id = (e.data as UserRef).userId.toLowerCase();
    const row = this.rows.get(id);
    const at = e.metadata.occurredAt;
    if (e.type === 'UserCreated') {
      const d = e.data as UserCreatedData;
      // A second creation keeps the row (ON CONFLICT DO NOTHING), and opens no period.
      if (d.userType !== 'student' || row) return;
      const created = { customer_id: d.customerId ?? null, has_access: true, is_blocked: false };
      this.rows.set(id, { ...created, position: e.position, changed: true });
      this.periods(id).push({ started_at: at, ended_at: null });
      return;
    }
    // Not a student, or already applied (a replay): nothing changes, as in `apply`.
    if (!row || row.position >= e.position) return;
    if (e.type === 'UserProfileUpdated') {
      const { changes } = e.data as UserProfileUpdatedData;
      if (changes.customerId === undefined) return;
      Object.assign(row, { customer_id: changes.customerId, position: e.position, changed: true });
      return;
    }
    const change = CHANGES[e.type];
    if (!change) return;
    const wasActive = row.has_access && !row.is_blocked;
    Object.assign(row, change, { position: e.position, changed: true });
    const isActive = row.has_access && !row.is_blocked;
    if (wasActive && !isActive) {
      if (!this.closedBefore.has(id)) this.closedBefore.set(id, at);
      for (const p of this.periods(id)) if (p.ended_at === null) p.ended_at = at;
    } else if (!wasActive && isActive) this.periods(id).push({ started_at: at, ended_at: null });
  }

  private periods(id: string) {
    let list = this.opened.get(id);
    if (!list) this.opened.set(id, (list = []));
    return list;
  }

  private async write(tx: ProjectionTx): Promise<void> {
    // The periods open before the batch are closed before the batch's own periods are inserted.
    if (this.closedBefore.size > 0)
      await tx.query(
        `UPDATE rm_student_active_periods p SET ended_at = c.at
           FROM unnest($1::uuid[], $2::timestamptz[]) AS c(user_id, at)
          WHERE p.user_id = c.user_id AND p.ended_at IS NULL`,
        [[...this.closedBefore.keys()], [...this.closedBefore.values()]],
      );
    await insertRows(
      tx,
      'rm_student_active_periods',
      { user_id: 'uuid', started_at: 'timestamptz', ended_at: 'timestamptz' },
      [...this.opened].flatMap(([user_id, list]) => list.map((p) => ({ user_id, ...p }))),
      NEW_ROWS,
    );
    await insertRows(
      tx,
      'rm_student_activity',
      {
        user_id: 'uuid',
        customer_id: 'uuid',
        has_access: 'boolean',
        is_blocked: 'boolean',
        position: 'bigint',
      },
      [...this.rows].flatMap(([user_id, { changed, position, ...r }]) =>
        changed ? [{ user_id, ...r, position: position.toString() }] : [],
      ),
      {
        conflict: `ON CONFLICT (user_id) DO UPDATE SET customer_id = EXCLUDED.customer_id,
          has_access = EXCLUDED.has_access, is_blocked = EXCLUDED.is_blocked, position = EXCLUDED.position`,
      },
    );
  }
}
