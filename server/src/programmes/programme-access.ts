import { HttpStatus, Inject, Injectable } from '@nestjs/common';
import {
  enrolmentById,
  enrolmentVisible,
  groupById,
  programmeById,
  programmeTeacherIds,
  programmeVisible,
  referenceRowExists,
  userKindOf,
  type EnrolmentRow,
  type GroupRow,
  type ProgrammeRow,
} from '@portal/projections';
import type { Actor } from '../platform/auth/request-context.js';
import { Problem } from '../platform/http/problem.js';
import { invalidInput } from '../platform/http/validation.js';
import type { SqlClient } from '../platform/sql/sql-client.js';
import { SQL_CLIENT } from '../platform/tokens.js';
import { enrolmentScopeSql, programmeScopeSql } from './programmes.policy.js';

const isNotFound = (e: unknown) => e instanceof Problem && e.getStatus() === 404;

/** Today's date (yyyy-MM-dd) in a time zone, never the host's. */
export function todayIn(timeZone: string, now: Date = new Date()): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(now);
}

/**
 * The reads every programmes, groups and enrolments route starts with: the thing, if the caller may
 * see it (404 otherwise: what the reader may not see does not exist for them), and the checks on ids
 * a command names (422 naming the field).
 */
@Injectable()
export class ProgrammeAccess {
  constructor(@Inject(SQL_CLIENT) private readonly sql: SqlClient) {}

  async visibleProgramme(actor: Actor, id: string): Promise<ProgrammeRow> {
    const row = await programmeById(this.sql, id);
    if (!row || !(await programmeVisible(this.sql, id, (bind) => programmeScopeSql(actor, bind))))
      throw new Problem(HttpStatus.NOT_FOUND, 'Programme not found');
    return row;
  }

  async visibleGroup(actor: Actor, id: string): Promise<{ group: GroupRow; programme: ProgrammeRow }> {
    const group = await groupById(this.sql, id);
    if (!group) throw new Problem(HttpStatus.NOT_FOUND, 'Group not found');
    try {
      return { group, programme: await this.visibleProgramme(actor, group.programme_id) };
    } catch (e) {
      if (isNotFound(e)) throw new Problem(HttpStatus.NOT_FOUND, 'Group not found');
      throw e;
    }
  }

  async visibleEnrolment(actor: Actor, id: string): Promise<EnrolmentRow> {
    const row = await enrolmentById(this.sql, id);
    if (!row || !(await enrolmentVisible(this.sql, id, (bind) => enrolmentScopeSql(actor, bind))))
      throw new Problem(HttpStatus.NOT_FOUND, 'Enrolment not found');
    return row;
  }

  /** A programme named in a body (`field`): 422 when it does not exist or is not visible. */
  async namedProgramme(actor: Actor, id: string, field: string): Promise<ProgrammeRow> {
    try {
      return await this.visibleProgramme(actor, id);
    } catch (e) {
      if (isNotFound(e)) throw invalidInput([{ field, message: `${field}: no such programme` }]);
      throw e;
    }
  }

  /** 422 naming the field unless the id is a row of the reference table. */
  async requireReference(
    table: 'rm_products' | 'rm_subjects' | 'rm_year_groups',
    id: string | null | undefined,
    field: string,
  ): Promise<void> {
    if (!id) return;
    if (!(await referenceRowExists(this.sql, table, id)))
      throw invalidInput([
        { field, message: `${field}: no such ${field.replace(/_id$/, '').replace('_', ' ')}` },
      ]);
  }

  /** A student of the customer (422 naming the field otherwise). */
  async requireStudentOf(customerId: string, studentId: string, field = 'student_id'): Promise<void> {
    const user = await userKindOf(this.sql, studentId);
    if (!user || user.user_type !== 'student')
      throw invalidInput([{ field, message: `${field}: no such student` }]);
    if (user.customer_id !== customerId)
      throw invalidInput([
        { field, message: `${field}: the student does not belong to the programme's customer` },
      ]);
  }

  /** Teacher users only (422 naming `teachers`). */
  async requireTeachers(teacherIds: readonly string[]): Promise<void> {
    for (const id of teacherIds) {
      const user = await userKindOf(this.sql, id);
      if (!user || user.user_type !== 'teacher')
        throw invalidInput([{ field: 'teachers', message: `teachers: ${id} is not a teacher` }]);
    }
  }

  teacherIdsOf(programmeId: string): Promise<string[]> {
    return programmeTeacherIds(this.sql, programmeId);
  }
}
