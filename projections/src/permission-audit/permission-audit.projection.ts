import { defineProjection, type ProjectionEvent } from '../projection.js';
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
  async apply(event: ProjectionEvent, tx) {
    const initial = event.type === 'UserCreated';
    const d = event.data as UserCreatedData | UserPermissionsChangedData;
    const added = initial ? d.permissions : (d as UserPermissionsChangedData).added;
    const removed = initial ? [] : (d as UserPermissionsChangedData).removed;
    await tx.query(
      `INSERT INTO rm_permission_changes (position, user_id, recorded_at, occurred_at, actor_id, impersonator_id,
                                          kind, permissions, added, removed)
       VALUES ($1::bigint, $2, $3, $4, $5, $6, $7, $8::jsonb, $9::jsonb, $10::jsonb)
       ON CONFLICT (position) DO NOTHING`,
      [
        event.position.toString(),
        d.userId,
        event.createdAt,
        event.metadata.occurredAt,
        event.metadata.actorId ?? null,
        event.metadata.impersonatorId ?? null,
        initial ? 'initial' : 'changed',
        JSON.stringify(d.permissions),
        JSON.stringify(added),
        JSON.stringify(removed),
      ],
    );
  },
});
