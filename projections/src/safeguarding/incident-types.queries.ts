import { filters, listPage, type Page, type Queryable } from '../list-query.js';
import type { IncidentTypeRow } from './safeguarding.projection.js';

/** Queries on `rm_sg_incident_types` (projection `safeguarding`). */

export interface IncidentTypeListFilter {
  page?: number;
  size?: number;
  text?: string;
  includeRetired?: boolean;
}

/** Incident types by name (case-insensitive), ties by id; retired ones only when asked. */
export const listIncidentTypes = (db: Queryable, f: IncidentTypeListFilter): Promise<Page<IncidentTypeRow>> =>
  listPage<IncidentTypeRow>(db, {
    from: 'rm_sg_incident_types',
    where: filters().rawIf(!f.includeRetired, 'NOT retired').contains('name', f.text),
    orderBy: 'lower(name), id',
    page: f.page,
    size: f.size,
  });

export async function incidentTypeById(db: Queryable, id: string): Promise<IncidentTypeRow | null> {
  const { rows } = await db.query<IncidentTypeRow>('SELECT * FROM rm_sg_incident_types WHERE id = $1', [id]);
  return rows[0] ?? null;
}
