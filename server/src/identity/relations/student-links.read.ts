import { Inject, Injectable } from '@nestjs/common';
import type { UserRow } from '@portal/projections';
import { SQL_CLIENT } from '../../platform/tokens.js';
import type { SqlClient } from '../../platform/sql/sql-client.js';
import { USER_COLUMNS } from '../users.read.js';
import { LIVE_LINK, linkedStudentIdsSql } from './live-link.js';

/** Queries on the student-links read model (projection `student-links`). */
@Injectable()
export class StudentLinksReadModel {
  constructor(@Inject(SQL_CLIENT) private readonly sql: SqlClient) {}

  /** Ids of the students linked to a partner ("selected students"). */
  async studentIdsOf(partnerId: string): Promise<Set<string>> {
    const { rows } = await this.sql.query<{ student_id: string }>(linkedStudentIdsSql('$1'), [partnerId]);
    return new Set(rows.map((r) => r.student_id));
  }

  async isLinked(partnerId: string, studentId: string): Promise<boolean> {
    const { rows } = await this.sql.query(
      `SELECT 1 FROM rm_student_links l ${LIVE_LINK} WHERE l.partner_id = $1 AND l.student_id = $2`,
      [partnerId, studentId],
    );
    return rows.length > 0;
  }

  /** The students linked to a partner, by name. */
  async studentsOf(partnerId: string, hasAccess?: boolean): Promise<UserRow[]> {
    return this.users('s', 'l.partner_id = $1', partnerId, hasAccess);
  }

  /** The partner users a student is linked to, by name. */
  async partnersOf(studentId: string, hasAccess?: boolean): Promise<UserRow[]> {
    return this.users('p', 'l.student_id = $1', studentId, hasAccess);
  }

  private async users(
    side: 'p' | 's',
    where: string,
    id: string,
    hasAccess: boolean | undefined,
  ): Promise<UserRow[]> {
    const params: unknown[] = [id];
    let access = '';
    if (hasAccess !== undefined) {
      params.push(hasAccess);
      access = ` AND rm_users.has_access = $2`;
    }
    const { rows } = await this.sql.query<UserRow>(
      `SELECT ${USER_COLUMNS} FROM rm_users
        WHERE rm_users.id IN (SELECT ${side}.id FROM rm_student_links l ${LIVE_LINK} WHERE ${where})${access}
        ORDER BY rm_users.full_name, rm_users.id`,
      params,
    );
    return rows;
  }
}
