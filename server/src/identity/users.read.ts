import { Inject, Injectable } from '@nestjs/common';
import type { UserRow } from '@portal/projections';
import { SQL_CLIENT } from '../platform/tokens.js';
import type { SqlClient } from '../platform/sql/sql-client.js';
import type { ActorLoader } from '../platform/auth/actor-loader.js';

/** Queries on the users read model (projection `users`). */
@Injectable()
export class UsersReadModel implements ActorLoader {
  constructor(@Inject(SQL_CLIENT) private readonly sql: SqlClient) {}

  async byId(id: string): Promise<UserRow | null> {
    const { rows } = await this.sql.query<UserRow>('SELECT * FROM rm_users WHERE id = $1', [id]);
    return rows[0] ?? null;
  }

  async byLogin(login: string): Promise<UserRow | null> {
    const { rows } = await this.sql.query<UserRow>('SELECT * FROM rm_users WHERE login = $1', [
      login.toLowerCase(),
    ]);
    return rows[0] ?? null;
  }

  async load(
    userId: string,
  ): Promise<{ hasAccess: boolean; permissions: string[]; displayName: string } | null> {
    const user = await this.byId(userId);
    return user
      ? {
          hasAccess: user.has_access,
          permissions: user.permissions,
          displayName: `${user.first_name} ${user.last_name}`.trim(),
        }
      : null;
  }
}
