import { Inject, Injectable } from '@nestjs/common';
import {
  filters,
  listPage,
  studentFactsOf,
  type ChronologyRow,
  type IncidentRow,
  type IncidentViewRow,
} from '@portal/projections';
import type { SqlClient } from '../platform/sql/sql-client.js';
import { SQL_CLIENT } from '../platform/tokens.js';
import type {
  ChronologyEntryView,
  IncidentView,
  IncidentViewEntry,
  ListIncidentsQuery,
  NamedRef,
} from './incidents.dto.js';

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

export const chronologyView = (r: ChronologyRow): ChronologyEntryView => ({
  position: String(r.position),
  incident_id: r.incident_id,
  occurred_at: new Date(r.occurred_at).toISOString(),
  kind: r.kind,
  summary: r.summary,
  actor_id: r.actor_id,
});

/** Escalated incidents nobody has acknowledged yet stay at the top of the triage board. */
const PINNED_FIRST = `(status = 'reported' AND escalated_at IS NOT NULL) DESC`;

/** Queries on the safeguarding read models (projection `safeguarding`). */
@Injectable()
export class IncidentsReadModel {
  constructor(@Inject(SQL_CLIENT) private readonly sql: SqlClient) {}

  async byId(id: string): Promise<IncidentRow | null> {
    const { rows } = await this.sql.query<IncidentRow>('SELECT * FROM rm_sg_incidents WHERE id = $1', [id]);
    return rows[0] ?? null;
  }

  /** Every incident's reporter (the live channel's reporters index). */
  async reporters(): Promise<{ id: string; reporter_id: string }[]> {
    const { rows } = await this.sql.query<{ id: string; reporter_id: string }>(
      'SELECT id, reporter_id FROM rm_sg_incidents',
    );
    return rows;
  }

  /** Incidents, newest report first; `scope` keeps one customer's (partners) or one reporter's. */
  async list(
    q: ListIncidentsQuery,
    scope: { customerId?: string; reporterId?: string } = {},
  ): Promise<{ items: IncidentView[]; total: number; page: number; size: number }> {
    const scopeCustomerId = scope.customerId;
    const where = filters()
      .rawIf(
        scopeCustomerId !== undefined,
        (p) => `customer_ids @> ${p(JSON.stringify([scopeCustomerId]))}::jsonb`,
      )
      .eq('reporter_id', scope.reporterId)
      .any('status', q.status)
      .any('risk_level', q.risk_level)
      .jsonHas('type_ids', q.type_id)
      .jsonHas('student_ids', q.student_id)
      .jsonHas('customer_ids', q.customer_id)
      .range('occurred_at', q.occurred_from, q.occurred_to, '::timestamptz');
    return listPage<IncidentRow, IncidentView>(this.sql, {
      from: 'rm_sg_incidents',
      where,
      orderBy: `${PINNED_FIRST}, reported_at DESC, id`,
      page: q.page,
      size: q.size,
      mapRows: (rows) => this.views(rows),
    });
  }

  /** Incident rows as the API shows them, with the names of the people and types they refer to. */
  async views(rows: IncidentRow[]): Promise<IncidentView[]> {
    const userIds = new Set<string>();
    const typeIds = new Set<string>();
    for (const r of rows) {
      userIds.add(r.reporter_id);
      if (r.assigned_lead_id) userIds.add(r.assigned_lead_id);
      r.student_ids.forEach((id) => userIds.add(id));
      r.type_ids.forEach((id) => typeIds.add(id));
    }
    const users = await this.names('rm_users', 'full_name', [...userIds]);
    const types = await this.names('rm_sg_incident_types', 'name', [...typeIds]);
    const students = await studentFactsOf(
      this.sql,
      rows.flatMap((r) => r.student_ids),
    );
    const student = (id: string) => {
      const s = students.get(id);
      return {
        id,
        name: s?.name ?? users.get(id) ?? '',
        school: s?.school ?? null,
        year_group: s?.year_group ?? null,
      };
    };
    const ref = (map: Map<string, string>, id: string): NamedRef => ({ id, name: map.get(id) ?? '' });
    return rows.map((r) => ({
      id: r.id,
      status: r.status,
      risk_level: r.risk_level,
      reporter: ref(users, r.reporter_id),
      students: r.student_ids.map(student),
      customer_ids: r.customer_ids,
      types: r.type_ids.map((id) => ref(types, id)),
      occurred_at: iso(r.occurred_at)!,
      reported_at: iso(r.reported_at)!,
      lesson_id: r.lesson_id,
      description: r.description,
      immediate_action: r.immediate_action,
      lead_told_verbally: r.lead_told_verbally,
      acknowledged_at: iso(r.acknowledged_at),
      acknowledged_by: r.acknowledged_by,
      assigned_lead_id: r.assigned_lead_id,
      assigned_lead: r.assigned_lead_id ? ref(users, r.assigned_lead_id) : null,
      escalated_at: iso(r.escalated_at),
      closed_at: iso(r.closed_at),
      actions: r.actions,
      partner_informed: r.partner_informed,
      partner_feedback: r.partner_feedback,
      position: String(r.position),
    }));
  }

  async userNames(ids: string[]): Promise<Map<string, string>> {
    return this.names('rm_users', 'full_name', [...new Set(ids)]);
  }

  private async names(table: string, column: string, ids: string[]): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    const { rows } = await this.sql.query<{ id: string; name: string }>(
      `SELECT id::text AS id, ${column} AS name FROM ${table} WHERE id = ANY($1::uuid[])`,
      [ids],
    );
    return new Map(rows.map((r) => [r.id, r.name]));
  }

  /** One incident's steps (each step once, whatever the number of students), by when they happened. */
  async timeline(incidentId: string): Promise<ChronologyEntryView[]> {
    const { rows } = await this.sql.query<ChronologyRow>(
      `SELECT DISTINCT ON (occurred_at, position) * FROM rm_sg_chronology WHERE incident_id = $1
        ORDER BY occurred_at, position`,
      [incidentId],
    );
    return rows.map(chronologyView);
  }

  async chronology(studentId: string, page: number, size: number) {
    return listPage<ChronologyRow, ChronologyEntryView>(this.sql, {
      from: 'rm_sg_chronology',
      where: filters().raw((p) => `student_id = ${p(studentId)}`),
      orderBy: 'occurred_at, position',
      page,
      size,
      map: chronologyView,
    });
  }

  async viewsLog(incidentId: string, page: number, size: number) {
    // Each view's viewer is at most one user row: the join does not change the count.
    return listPage<IncidentViewRow & { viewer_name: string | null }, IncidentViewEntry>(this.sql, {
      select: 'v.*, u.full_name AS viewer_name',
      from: 'rm_sg_views v LEFT JOIN rm_users u ON u.id = v.viewer_id',
      where: filters().raw((p) => `v.incident_id = ${p(incidentId)}`),
      orderBy: 'v.position DESC',
      page,
      size,
      map: (r) => ({
        position: String(r.position),
        viewer: { id: r.viewer_id, name: r.viewer_name ?? '' },
        via: r.via,
        viewed_at: new Date(r.viewed_at).toISOString(),
      }),
    });
  }

  /** Which of these incident types exist and are not retired. */
  async activeTypes(ids: string[]): Promise<Set<string>> {
    const { rows } = await this.sql.query<{ id: string }>(
      'SELECT id::text AS id FROM rm_sg_incident_types WHERE id = ANY($1::uuid[]) AND NOT retired',
      [ids],
    );
    return new Set(rows.map((r) => r.id));
  }

  /** Active users holding one of these permissions (for escalation mail). */
  async usersWithPermission(permission: string): Promise<{ id: string; email: string; full_name: string }[]> {
    const { rows } = await this.sql.query<{ id: string; email: string; full_name: string }>(
      `SELECT id::text AS id, email, full_name FROM rm_users
        WHERE permissions @> $1::jsonb AND has_access AND NOT is_blocked
          AND (permissions @> '["USER_IS_ADMIN"]'::jsonb OR permissions @> '["USER_IS_TEACHER"]'::jsonb)
        ORDER BY id`,
      [JSON.stringify([permission])],
    );
    return rows;
  }

  /** The board's headline counts: open incidents, those escalated, those no lead has claimed. */
  async summary(): Promise<{ open: number; escalated: number; unclaimed: number }> {
    const { rows } = await this.sql.query<{ open: number; escalated: number; unclaimed: number }>(
      `SELECT count(*)::int AS open,
              count(*) FILTER (WHERE escalated_at IS NOT NULL)::int AS escalated,
              count(*) FILTER (WHERE assigned_lead_id IS NULL)::int AS unclaimed
         FROM rm_sg_incidents WHERE status <> 'closed'`,
    );
    return rows[0] ?? { open: 0, escalated: 0, unclaimed: 0 };
  }

  /** Incidents still waiting for an acknowledgement that were reported before `before`. */
  async waitingSince(before: Date, limit = 100): Promise<{ id: string; reported_at: Date }[]> {
    const { rows } = await this.sql.query<{ id: string; reported_at: Date }>(
      `SELECT id::text AS id, reported_at FROM rm_sg_incidents
        WHERE status = 'reported' AND escalated_at IS NULL AND reported_at < $1
        ORDER BY reported_at LIMIT ${limit}`,
      [before.toISOString()],
    );
    return rows;
  }
}
