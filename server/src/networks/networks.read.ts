import { HttpStatus, Inject, Injectable } from '@nestjs/common';
import { filters, listPage, type NetworkRow } from '@portal/projections';
import { Problem } from '../platform/http/problem.js';
import type { SqlClient } from '../platform/sql/sql-client.js';
import { SQL_CLIENT } from '../platform/tokens.js';

/** Queries on the networks read model (projection `networks`). */
@Injectable()
export class NetworksReadModel {
  constructor(@Inject(SQL_CLIENT) private readonly sql: SqlClient) {}

  async byId(id: string): Promise<NetworkRow | null> {
    const { rows } = await this.sql.query<NetworkRow>('SELECT * FROM rm_networks WHERE id = $1', [id]);
    return rows[0] ?? null;
  }

  /** 422 naming the field when `id` (a UUID, already validated) names no network; null/undefined pass. */
  async requireKnown(id: string | null | undefined, field = 'network_id'): Promise<void> {
    if (id === null || id === undefined) return;
    if (!(await this.byId(id.toLowerCase())))
      throw new Problem(HttpStatus.UNPROCESSABLE_ENTITY, `${field}: no network with this id`);
  }

  async byIds(ids: readonly string[]): Promise<NetworkRow[]> {
    if (ids.length === 0) return [];
    const { rows } = await this.sql.query<NetworkRow>(
      `SELECT * FROM rm_networks WHERE id IN (SELECT jsonb_array_elements_text($1::jsonb)::uuid)
        ORDER BY lower(name), id`,
      [JSON.stringify(ids)],
    );
    return rows;
  }

  async page(page: number, size: number, text?: string): Promise<{ rows: NetworkRow[]; total: number }> {
    const { items, total } = await listPage<NetworkRow>(this.sql, {
      from: 'rm_networks',
      where: filters().contains('name', text),
      orderBy: 'lower(name), id',
      page,
      size,
    });
    return { rows: items, total };
  }
}
