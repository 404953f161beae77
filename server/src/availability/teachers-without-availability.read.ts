import { Inject, Injectable } from '@nestjs/common';
import type { SqlClient } from '../platform/sql/sql-client.js';
import { SQL_CLIENT } from '../platform/tokens.js';

export interface TeacherWithoutAvailability {
  id: string;
  first_name: string;
  last_name: string;
  login: string;
  email: string;
  timezone: string | null;
  /** Some list (any type, any week) has a slot: the teacher has set availability, just not for this week. */
  has_availability_other_weeks: boolean;
  /** Last change to any of the teacher's availability lists. */
  availability_updated_at: Date | null;
  created_at: Date;
}

/**
 * GET /users/teachers_without_availability_set/report (decision 0035): active teachers (access, not
 * blocked, not deleted) for whom no availability type has a slot in the given week. A week counts its
 * own list where one was set (an empty one means "not available that week"), else the recurring list
 * — the same rule as GET /users/{id}/availability (decision 0017).
 */
@Injectable()
export class TeachersWithoutAvailability {
  constructor(@Inject(SQL_CLIENT) private readonly sql: SqlClient) {}

  async forWeek(week: string): Promise<TeacherWithoutAvailability[]> {
    const { rows } = await this.sql.query<TeacherWithoutAvailability>(
      `SELECT u.id, u.first_name, u.last_name, u.login, u.email, u.timezone, u.created_at,
              EXISTS (SELECT 1 FROM rm_user_availability a
                       WHERE a.user_id = u.id AND jsonb_array_length(a.availabilities) > 0)
                AS has_availability_other_weeks,
              (SELECT max(a.updated_at) FROM rm_user_availability a WHERE a.user_id = u.id)
                AS availability_updated_at
         FROM rm_users u
        WHERE u.user_type = 'teacher' AND u.status = 'active' AND u.deleted_at IS NULL
          AND NOT EXISTS (
            SELECT 1 FROM rm_user_availability a
             WHERE a.user_id = u.id AND jsonb_array_length(a.availabilities) > 0
               AND (a.week = $1
                    OR (a.week = '' AND NOT EXISTS (
                          SELECT 1 FROM rm_user_availability w
                           WHERE w.user_id = a.user_id AND w.type = a.type AND w.week = $1))))
        ORDER BY u.full_name, u.id`,
      [week],
    );
    return rows;
  }
}
