import type { Queryable } from '../list-query.js';
import type { CustomFieldsRow } from './custom-fields.projection.js';

/** Queries on `rm_user_custom_fields` (projection `custom-fields`): one row, or none before any definition. */
export async function customFieldDefinitions(db: Queryable): Promise<CustomFieldsRow | null> {
  const { rows } = await db.query<CustomFieldsRow>('SELECT * FROM rm_user_custom_fields LIMIT 1');
  return rows[0] ?? null;
}
