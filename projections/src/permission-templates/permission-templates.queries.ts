import { filters, listPage, type Page, type Queryable } from '../list-query.js';
import type { PermissionTemplateRow } from './permission-templates.projection.js';

/** Queries on `rm_permission_templates` (projection `permission-templates`). */

/** Templates by name (case-insensitive), ties by id. */
export const listPermissionTemplates = (
  db: Queryable,
  f: { page?: number; size?: number; text?: string },
): Promise<Page<PermissionTemplateRow>> =>
  listPage<PermissionTemplateRow>(db, {
    from: 'rm_permission_templates',
    where: filters().contains('name', f.text),
    orderBy: 'lower(name), id',
    page: f.page,
    size: f.size,
  });

export async function permissionTemplateById(
  db: Queryable,
  id: string,
): Promise<PermissionTemplateRow | null> {
  const { rows } = await db.query<PermissionTemplateRow>(
    'SELECT * FROM rm_permission_templates WHERE id = $1',
    [id],
  );
  return rows[0] ?? null;
}

/** The ids of the templates with this name, compared case-insensitively. */
export async function permissionTemplateIdsNamed(db: Queryable, name: string): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>(
    'SELECT id FROM rm_permission_templates WHERE lower(name) = lower($1)',
    [name],
  );
  return rows.map((r) => r.id);
}
