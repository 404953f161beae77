import { defineProjection, FOLD_FROM, insertRows, type ProjectionEvent } from '../projection.js';
import type { UserCreatedData, UserPermissionsChangedData } from '../users/user-events.js';

/**
 * Every grant and revocation of permissions, across all users, in commit order: the global
 * permission-change log of the audit area and the source of "who held permission P at time T".
 */
export interface PermissionChangeRow {
  position: string;
  user_id: string;
  recorded_at: Date;
  occurred_at: Date;
  actor_id: string | null;
  impersonator_id: string | null;
  kind: 'initial' | 'changed';
  permissions: string[];
  added: string[];
  removed: string[];
}

export const permissionAuditProjection = defineProjection({
  name: 'permission_audit',
  version: 1,
  tables: ['rm_permission_changes'],
  schema: [
    `CREATE TABLE IF NOT EXISTS rm_permission_changes (
       position        bigint PRIMARY KEY,
       user_id         uuid NOT NULL,
       recorded_at     timestamptz NOT NULL,
       occurred_at     timestamptz NOT NULL,
       actor_id        uuid,
       impersonator_id uuid,
       kind            text NOT NULL,
       permissions     jsonb NOT NULL,
       added           jsonb NOT NULL,
       removed         jsonb NOT NULL
     )`,
    `CREATE INDEX IF NOT EXISTS rm_permission_changes_user ON rm_permission_changes (user_id, position)`,
    `CREATE INDEX IF NOT EXISTS rm_permission_changes_time ON rm_permission_changes (recorded_at)`,
  ],
  handles: ['UserCreated', 'UserPermissionsChanged'],
  // Ids, types and permissions only: no name, e-mail or note (decision 0089).
  readsPersonalData: false,
  async apply(event: ProjectionEvent, tx) {
    const row = changeRow(event);
    await tx.query(
      `INSERT INTO rm_permission_changes (${Object.keys(row).join(', ')})
       VALUES ($1::bigint, $2, $3, $4, $5, $6, $7, $8::jsonb, $9::jsonb, $10::jsonb)
       ON CONFLICT (position) DO NOTHING`,
      Object.values(row),
    );
  },
  /** One row per event, none depending on another: a batch is one insert (decision 0089). */
  async applyBatch(events, tx) {
    if (events.length < FOLD_FROM) {
      for (const e of events) await this.apply(e, tx);
      return;
    }
    await insertRows(tx, 'rm_permission_changes', CHANGE_COLUMNS, events.map(changeRow), {
      conflict: 'ON CONFLICT (position) DO NOTHING',
    });
  },
});

const CHANGE_COLUMNS = {
  position: 'bigint',
  user_id: 'uuid',
  recorded_at: 'timestamptz',
  occurred_at: 'timestamptz',
  actor_id: 'uuid',
  impersonator_id: 'uuid',
  kind: 'text',
  permissions: 'jsonb',
  added: 'jsonb',
  removed: 'jsonb',
} as const;

/** The event's row, in the order of `CHANGE_COLUMNS`; jsonb values as their JSON text. */
function changeRow(event: ProjectionEvent): Record<keyof typeof CHANGE_COLUMNS, unknown> {
  const initial = event.type === 'UserCreated';
  const d = event.data as UserCreatedData | UserPermissionsChangedData;
  return {
    position: event.position.toString(),
    user_id: d.userId,
    recorded_at: event.createdAt,
    occurred_at: event.metadata.occurredAt,
    actor_id: event.metadata.actorId ?? null,
    impersonator_id: event.metadata.impersonatorId ?? null,
    kind: initial ? 'initial' : 'changed',
    permissions: JSON.stringify(d.permissions),
    added: JSON.stringify(initial ? d.permissions : (d as UserPermissionsChangedData).added),
    removed: JSON.stringify(initial ? [] : (d as UserPermissionsChangedData).removed),
  };
}
