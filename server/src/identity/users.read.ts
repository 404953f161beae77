import { Inject, Injectable } from '@nestjs/common';
import { USER_COLUMNS, actorRowById, listPage, sortOf, type UserRow } from '@portal/projections';
import { SQL_CLIENT } from '../platform/tokens.js';
import type { SqlClient } from '../platform/sql/sql-client.js';
import type { ActorLoader } from '../platform/auth/actor-loader.js';
import type { LoadedActor } from '../platform/auth/request-context.js';
import { containsPattern } from '../platform/http/paging.js';
import { studentScopeSql, type StudentScope } from '../core/access/student-scope.js';

export const USER_SORT_COLUMNS = [
  'full_name',
  'first_name',
  'last_name',
  'login',
  'email',
  'type_label',
  'status',
  'created_at',
  'updated_at',
] as const;
export type UserSortColumn = (typeof USER_SORT_COLUMNS)[number];

export { USER_COLUMNS };

/** List filters, already validated (see ListUsersQuery). */
export interface UserListFilter {
  page: number;
  size: number;
  text?: string;
  statuses?: string[];
  userTypes?: string[];
  /** Customer users of these roles only (customer_type). */
  customerTypes?: string[];
  customerId?: string;
  hasAccess?: boolean;
  /** Only these users. */
  ids?: string[];
  /** Students whose one-page profile has this year group (a free id on the profile, decision 0035). */
  yearGroupId?: string;
  /** Only students on the EHCP reminder list (rm_ehcp_reminders). */
  onEhcpReminderList?: boolean;
  /**
   * Partners see only users of their own customer, and of those only what `partner` allows: the
   * students of their `students` scope (`studentScope`: all, or only the ones linked to them, decision
   * 0034), the partners of `customerTypes`, and themselves.
   */
  scopeCustomerId?: string | null;
  partner?: { selfId: string; students: StudentScope; customerTypes: string[] };
  sortBy?: UserSortColumn;
  descending?: boolean;
  /** Stop counting past this many users (`listPage`'s `countUpTo`); exact when left out. */
  countUpTo?: number;
}

/** Queries on the users read model (projection `users`). */
@Injectable()
export class UsersReadModel implements ActorLoader {
  constructor(@Inject(SQL_CLIENT) private readonly sql: SqlClient) {}

  /** Deleted users (decision 0015) are not found: not listed, cannot sign in, cannot be acted on. */
  async byId(id: string): Promise<UserRow | null> {
    const { rows } = await this.sql.query<UserRow>(
      `SELECT ${USER_COLUMNS} FROM rm_users WHERE id = $1 AND deleted_at IS NULL`,
      [id],
    );
    return rows[0] ?? null;
  }

  /** Also a deleted user: only for erasing their personal data. */
  async byIdIncludingDeleted(id: string): Promise<UserRow | null> {
    const { rows } = await this.sql.query<UserRow>(`SELECT ${USER_COLUMNS} FROM rm_users WHERE id = $1`, [
      id,
    ]);
    return rows[0] ?? null;
  }

  /** Sign-in, recovery and uniqueness: deleted (0015) and erased (0014) users are not found. */
  async byLogin(login: string): Promise<UserRow | null> {
    const { rows } = await this.sql.query<UserRow>(
      `SELECT ${USER_COLUMNS} FROM rm_users WHERE login = $1 AND deleted_at IS NULL AND NOT personal_data_erased`,
      [login.toLowerCase()],
    );
    return rows[0] ?? null;
  }

  /** A blocked or deactivated user has no access: the guard ends their session at the next call. */
  async load(userId: string): Promise<(LoadedActor & { hasAccess: boolean }) | null> {
    const user = await actorRowById(this.sql, userId);
    return user
      ? {
          hasAccess: user.has_access && !user.is_blocked,
          permissions: user.permissions,
          customerId: user.customer_id,
          customerType: user.customer_type,
          userType: user.user_type,
          firstName: user.first_name,
          displayName: user.full_name,
          customerName: user.customer_name ?? null,
        }
      : null;
  }

  async list(filter: UserListFilter): Promise<{ rows: UserRow[]; total: number; total_exact: boolean }> {
    const { whereSql, params } = whereOf(filter);
    const { items, total, total_exact } = await listPage<UserRow>(this.sql, {
      select: USER_COLUMNS,
      from: 'rm_users',
      where: { sql: whereSql, params },
      orderBy: sortOf(filter.sortBy, USER_SORT_COLUMNS, 'full_name', { descending: filter.descending }),
      page: filter.page,
      size: filter.size,
      countUpTo: filter.countUpTo,
      // USER_COLUMNS joins customer, year group and profile per row: only for the page's 50 rows.
      pageFirst: true,
    });
    return { rows: items, total, total_exact: total_exact ?? true };
  }

  /**
   * Every user the filter matches (page and size ignored), in the filter's order (ties by id), fetched
   * `batchSize` rows at a time with keyset paging: exports stream this without holding the whole set
   * in memory, and a late batch costs the same as the first. (Every sort column is NOT NULL.)
   */
  async *stream(filter: Omit<UserListFilter, 'page' | 'size'>, batchSize = 1000): AsyncGenerator<UserRow> {
    const sort = filter.sortBy ?? 'full_name';
    const direction = filter.descending ? 'DESC' : 'ASC';
    let after: Keyset | undefined;
    for (;;) {
      const { whereSql, params } = whereOf(filter, after);
      const { rows } = await this.sql.query<UserRow>(
        `SELECT ${USER_COLUMNS} FROM rm_users ${whereSql}
          ORDER BY ${sort} ${direction}, id ${direction} LIMIT ${batchSize}`,
        params,
      );
      for (const row of rows) yield row;
      const last = rows.at(-1);
      if (!last || rows.length < batchSize) return;
      after = { column: sort, value: last[sort], id: last.id, descending: filter.descending ?? false };
    }
  }

  /** The ids of every user the filter matches (page, size and order ignored). */
  async ids(filter: Omit<UserListFilter, 'page' | 'size'>): Promise<Set<string>> {
    const { whereSql, params } = whereOf(filter);
    const { rows } = await this.sql.query<{ id: string }>(`SELECT id FROM rm_users ${whereSql}`, params);
    return new Set(rows.map((r) => r.id));
  }

  /** Which of these logins (lower case) already belong to a user. */
  async existingLogins(logins: readonly string[]): Promise<Set<string>> {
    if (logins.length === 0) return new Set();
    const { rows } = await this.sql.query<{ login: string }>(
      'SELECT login FROM rm_users WHERE login = ANY($1::text[])',
      [logins.map((l) => l.toLowerCase())],
    );
    return new Set(rows.map((r) => r.login));
  }

  /** Users whose scheduled deactivation has come due and who still have access. */
  async dueDeactivations(now: Date, limit = 100): Promise<string[]> {
    const { rows } = await this.sql.query<{ id: string }>(
      `SELECT id FROM rm_users WHERE has_access AND deleted_at IS NULL AND scheduled_for_deactivation <= $1
        ORDER BY scheduled_for_deactivation LIMIT ${limit}`,
      [now.toISOString()],
    );
    return rows.map((r) => r.id);
  }
}

interface Keyset {
  column: UserSortColumn;
  value: unknown;
  id: string;
  descending: boolean;
}

/** The WHERE clause of a list filter; `after` adds the keyset condition `(column, id) > (value, id)`. */
function whereOf(
  filter: Omit<UserListFilter, 'page' | 'size'>,
  after?: Keyset,
): { whereSql: string; params: unknown[] } {
  // Soft-deleted users (decision 0015) are left out of every list and export.
  const where: string[] = ['deleted_at IS NULL'];
  const params: unknown[] = [];
  const add = (sql: (n: string) => string, value: unknown) => {
    params.push(value);
    where.push(sql(`$${params.length}`));
  };
  if (filter.scopeCustomerId !== undefined) add((n) => `customer_id = ${n}`, filter.scopeCustomerId);
  if (filter.partner) {
    const { selfId, students, customerTypes } = filter.partner;
    params.push(selfId, customerTypes);
    const [self, types] = [`$${params.length - 1}`, `$${params.length}`];
    const bind = (value: unknown) => {
      params.push(value);
      return `$${params.length}`;
    };
    // The customer is scoped for every row above (`scopeCustomerId`).
    const inScope = studentScopeSql(students, bind, undefined, { customer: false });
    const studentRows = inScope ? `(user_type = 'student' AND ${inScope})` : "user_type = 'student'";
    where.push(
      `(id = ${self} OR (user_type = 'partner' AND customer_type = ANY(${types}::text[])) OR ${studentRows})`,
    );
  }
  if (filter.text) {
    // search_text: lower(first name, last name, login, e-mail), trigram-indexed (users projection).
    const pattern = containsPattern(filter.text.toLowerCase());
    add((n) => `search_text LIKE ${n}`, pattern);
  }
  if (filter.statuses?.length) add((n) => `status = ANY(${n}::text[])`, filter.statuses);
  if (filter.userTypes?.length) add((n) => `user_type = ANY(${n}::text[])`, filter.userTypes);
  if (filter.customerTypes?.length) add((n) => `customer_type = ANY(${n}::text[])`, filter.customerTypes);
  if (filter.customerId) add((n) => `customer_id = ${n}`, filter.customerId);
  if (filter.hasAccess !== undefined) add((n) => `has_access = ${n}`, filter.hasAccess);
  if (filter.ids) add((n) => `id = ANY(${n}::uuid[])`, filter.ids);
  if (filter.yearGroupId)
    add(
      (n) =>
        `EXISTS (SELECT 1 FROM rm_one_page_profiles p WHERE p.user_id = rm_users.id AND p.year_group_id = ${n})`,
      filter.yearGroupId,
    );
  if (filter.onEhcpReminderList)
    where.push('EXISTS (SELECT 1 FROM rm_ehcp_reminders r WHERE r.student_id = rm_users.id)');
  if (after) {
    params.push(after.value, after.id);
    const op = after.descending ? '<' : '>';
    where.push(`(${after.column}, id) ${op} ($${params.length - 1}, $${params.length}::uuid)`);
  }
  return { whereSql: where.length ? `WHERE ${where.join(' AND ')}` : '', params };
}
