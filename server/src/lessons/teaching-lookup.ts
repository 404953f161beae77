import {
  groupById,
  groupStudentsOn,
  programmeById,
  type GroupRow,
  type ProgrammeRow,
  type Queryable,
} from '@portal/projections';
import { linkedStudentIdsSql } from '../core/access/student-scope.js';

/**
 * What lessons read of the programmes area's read models (the shared teaching contract: rm_programmes,
 * rm_groups, rm_group_students) and of users. One small adapter, so the lessons area depends on the
 * contract's tables and on nothing else of that area.
 */

/** The programme (the contract's `programmeById`: dates as yyyy-MM-dd text). */
export const programmeFacts = (db: Queryable, id: string): Promise<ProgrammeRow | null> =>
  programmeById(db, id);

/** The group (the contract's `groupById`). */
export const groupFacts = (db: Queryable, id: string): Promise<GroupRow | null> => groupById(db, id);

/** The group's students on a local date (time-bound membership, the contract's `groupStudentsOn`). */
export const studentsOfGroupOn = (db: Queryable, groupId: string, localDate: string): Promise<string[]> =>
  groupStudentsOn(db, groupId, localDate);

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
