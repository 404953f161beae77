import type { Queryable } from '@portal/projections';
import { linkedStudentIdsSql } from '../core/access/student-scope.js';

/**
 * What lessons read of the programmes area's read models (the shared teaching contract: rm_programmes,
 * rm_groups, rm_group_students) and of users. One small adapter, so the lessons area depends on the
 * contract's tables and on nothing else of that area.
 */

export interface ProgrammeFacts {
  id: string;
  network_id: string | null;
  customer_id: string;
  kind: 'lesson' | 'mentoring-session';
  title: string;
  start_date: string;
  end_date: string | null;
  timezone: string;
  status: string;
}

export async function programmeFacts(db: Queryable, id: string): Promise<ProgrammeFacts | null> {
  const { rows } = await db.query<ProgrammeFacts>(
    `SELECT id, network_id, customer_id, kind, title, start_date::text AS start_date, end_date::text AS end_date, timezone, status
       FROM rm_programmes WHERE id = $1`,
    [id],
  );
  return rows[0] ?? null;
}

export async function groupFacts(
  db: Queryable,
  id: string,
): Promise<{ id: string; programme_id: string; name: string; archived: boolean } | null> {
  const { rows } = await db.query<{ id: string; programme_id: string; name: string; archived: boolean }>(
    `SELECT id, programme_id, name, archived FROM rm_groups WHERE id = $1`,
    [id],
  );
  return rows[0] ?? null;
}

/** The group's students on a local date (time-bound membership, the contract's `groupStudentsOn`). */
export async function studentsOfGroupOn(
  db: Queryable,
  groupId: string,
  localDate: string,
): Promise<string[]> {
  const { rows } = await db.query<{ student_id: string }>(
    `SELECT student_id FROM rm_group_students
      WHERE group_id = $1 AND from_date <= $2::date AND (to_date IS NULL OR to_date >= $2::date)
      ORDER BY student_id`,
    [groupId, localDate],
  );
  return rows.map((r) => r.student_id);
}

export interface PersonFacts {
  id: string;
  user_type: string;
  customer_id: string | null;
  timezone: string | null;
  full_name: string;
  permissions: string[];
}

/** A user who exists (not deleted). */
export async function personFacts(db: Queryable, id: string): Promise<PersonFacts | null> {
  const { rows } = await db.query<PersonFacts>(
    `SELECT id, user_type, customer_id, timezone, full_name, permissions FROM rm_users
      WHERE id = $1 AND deleted_at IS NULL`,
    [id],
  );
  return rows[0] ?? null;
}

/** Whether the student is one of the partner's selected (linked) students (decision 0034). */
export async function isLinkedStudent(db: Queryable, partnerId: string, studentId: string): Promise<boolean> {
  const { rows } = await db.query(
    `SELECT 1 FROM (${linkedStudentIdsSql('$1::uuid')}) x WHERE x.student_id = $2::uuid`,
    [partnerId, studentId],
  );
  return rows.length > 0;
}
