import { Inject, Injectable } from '@nestjs/common';
import type { SqlClient } from '../platform/sql/sql-client.js';
import { SQL_CLIENT } from '../platform/tokens.js';
import { linkedStudentIdsSql } from '../core/access/student-scope.js';
import { teachesProgrammeSql } from './half-term-reports.policy.js';

/** The access facts a report check needs (decision 0057): the manager's scope and a partner's links. */
@Injectable()
export class ReportReads {
  constructor(@Inject(SQL_CLIENT) private readonly sql: SqlClient) {}

  /** Whether `userId` teaches a group of the report's programme (an assignment manager's scope). */
  async teaches(reportId: string, userId: string): Promise<boolean> {
    const { rows } = await this.sql.query(
      `SELECT 1 FROM rm_half_term_reports r WHERE r.id = $1 AND ${teachesProgrammeSql('$2')}`,
      [reportId, userId],
    );
    return rows.length > 0;
  }

  /** Whether the student is one of the partner's selected students (link contacts, parents). */
  async linked(studentId: string, partnerId: string): Promise<boolean> {
    const { rows } = await this.sql.query(`SELECT 1 WHERE $1::uuid IN (${linkedStudentIdsSql('$2::uuid')})`, [
      studentId,
      partnerId,
    ]);
    return rows.length > 0;
  }
}
