import { defineProjection, guardedSet } from '../projection.js';

/**
 * Permission templates (spec §3, §7): named sets of assignable partner permissions an administrator
 * applies when editing a user's permissions. Stream `permission-template-{id}`.
 */
export interface PermissionTemplateCreatedData {
  templateId: string;
  name: string;
  permissions: string[];
}

export interface PermissionTemplateRenamedData {
  templateId: string;
  name: string;
}

export interface PermissionTemplatePermissionsChangedData {
  templateId: string;
  permissions: string[];
  added: string[];
  removed: string[];
}

export interface PermissionTemplateDeletedData {
  templateId: string;
}

export type PermissionTemplateEvent =
  | { type: 'PermissionTemplateCreated'; data: PermissionTemplateCreatedData }
  | { type: 'PermissionTemplateRenamed'; data: PermissionTemplateRenamedData }
  | { type: 'PermissionTemplatePermissionsChanged'; data: PermissionTemplatePermissionsChangedData }
  | { type: 'PermissionTemplateDeleted'; data: PermissionTemplateDeletedData };

export type PermissionTemplateEventType = PermissionTemplateEvent['type'];

export const PERMISSION_TEMPLATE_EVENT_TYPES: readonly PermissionTemplateEventType[] = [
  'PermissionTemplateCreated',
  'PermissionTemplateRenamed',
  'PermissionTemplatePermissionsChanged',
  'PermissionTemplateDeleted',
];

export const permissionTemplateStream = (templateId: string) => `permission-template-${templateId}`;

export interface PermissionTemplateRow {
  id: string;
  name: string;
  permissions: string[];
  created_at: Date;
  updated_at: Date;
  version: string;
}

export const permissionTemplatesProjection = defineProjection<PermissionTemplateEvent>()({
  name: 'permission-templates',
  version: 1,
  tables: ['rm_permission_templates'],
  schema: [
    `CREATE TABLE IF NOT EXISTS rm_permission_templates (
       id          uuid PRIMARY KEY,
       name        text NOT NULL,
       permissions jsonb NOT NULL DEFAULT '[]',
       created_at  timestamptz NOT NULL,
       updated_at  timestamptz NOT NULL,
       version     bigint NOT NULL
     )`,
    `CREATE INDEX IF NOT EXISTS rm_permission_templates_name ON rm_permission_templates (lower(name), id)`,
  ],
  handles: PERMISSION_TEMPLATE_EVENT_TYPES,
  async apply(e, tx) {
    const revision = e.revision.toString();
    const at = e.metadata.occurredAt;
    switch (e.type) {
      case 'PermissionTemplateCreated':
        await tx.query(
          `INSERT INTO rm_permission_templates (id, name, permissions, created_at, updated_at, version)
           VALUES ($1, $2, $3::jsonb, $4, $4, $5::bigint) ON CONFLICT (id) DO NOTHING`,
          [e.data.templateId, e.data.name, JSON.stringify(e.data.permissions), at, revision],
        );
        return;
      case 'PermissionTemplateRenamed':
        await guardedSet(tx, 'rm_permission_templates', e.data.templateId, revision, {
          name: e.data.name,
          updated_at: at,
        });
        return;
      case 'PermissionTemplatePermissionsChanged':
        await guardedSet(tx, 'rm_permission_templates', e.data.templateId, revision, {
          permissions: JSON.stringify(e.data.permissions),
          updated_at: at,
        });
        return;
      case 'PermissionTemplateDeleted':
        await tx.query(`DELETE FROM rm_permission_templates WHERE id = $1`, [e.data.templateId]);
        return;
    }
  },
});
