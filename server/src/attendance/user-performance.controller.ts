import { Controller, Get, Inject, Param, Query, Res } from '@nestjs/common';
import {
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiProduces,
  ApiPropertyOptional,
  ApiTags,
} from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsOptional, IsUUID } from 'class-validator';
import type { Response } from 'express';
import { attendanceSummary, listAttendanceEntries } from '@portal/projections';
import { RequirePermissions } from '../platform/auth/public.decorator.js';
import { Allow } from '../platform/auth/allow.decorator.js';
import { CurrentActor, type Actor } from '../platform/auth/request-context.js';
import { DomainError } from '../platform/domain/domain-error.js';
import { IsInstant, isCalendarDate } from '../platform/http/dates.js';
import { UuidPipe, asArray } from '../platform/http/validation.js';
import type { SqlClient } from '../platform/sql/sql-client.js';
import { SQL_CLIENT } from '../platform/tokens.js';
import { ALL_MARKER_PERMISSIONS, isPartner } from '../identity/policy/policy.js';
import { asBoolean } from '../identity/csv/csv.dto.js';
import { sendTable, type Column } from '../identity/csv/tabular.js';
import { studentInScope } from '../core/access/student-scope.js';
import { addDays } from '../core/time/time.js';
import { isLinkedStudent, personFacts } from '../lessons/teaching-lookup.js';
import { AttendanceRules, attendanceEntryScope, studentScopeOf } from './attendance.policy.js';
import { entryView, summaryView } from './attendance.controller.js';
import { AttendanceSummaryView, type AttendanceEntryView } from './attendance.dto.js';

const FILE_TYPES = ['text/csv', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'];
/** The most rows a report holds. */
const MAX_ROWS = 100_000;

export class PerformanceQuery {
  @ApiPropertyOptional({ description: 'First day (yyyy-MM-dd) or instant' })
  @IsOptional()
  @IsInstant()
  start?: string;
  @ApiPropertyOptional({ description: 'Last day (yyyy-MM-dd, included) or instant' })
  @IsOptional()
  @IsInstant()
  end?: string;
  @ApiPropertyOptional({ type: Boolean, description: 'true: .xlsx instead of CSV' })
  @IsOptional()
  @Transform(asBoolean)
  @IsBoolean()
  as_excel?: boolean;
}

export class OverallPerformanceQuery extends PerformanceQuery {
  @ApiPropertyOptional({
    type: [String],
    format: 'uuid',
    description: 'Only these students (repeat the key)',
  })
  @IsOptional()
  @Transform(asArray)
  @IsUUID('all', { each: true })
  user_ids?: string[];
}

/** A period's bounds as instants: a day is taken whole (its end is the next day's start, UTC). */
function period(start?: string, end?: string): { from?: string; to?: string } {
  return {
    from: start === undefined ? undefined : isCalendarDate(start) ? `${start}T00:00:00.000Z` : start,
    to: end === undefined ? undefined : isCalendarDate(end) ? `${addDays(end, 1)}T00:00:00.000Z` : end,
  };
}

const SUMMARY_COLUMNS: Column<AttendanceSummaryView>[] = [
  { header: 'programme_id', value: (r) => r.id, width: 38 },
  { header: 'programme', value: (r) => r.name, width: 30 },
  { header: 'student_id', value: (r) => r.student_id, width: 38 },
  { header: 'student', value: (r) => r.student_name, width: 25 },
  { header: 'possible', value: (r) => r.possible },
  { header: 'attended', value: (r) => r.attended },
  { header: 'late', value: (r) => r.late },
  { header: 'left_early', value: (r) => r.left_early },
  { header: 'absences', value: (r) => r.absences },
  { header: 'absences_without_reason', value: (r) => r.absences_without_reason },
  { header: 'attendance_percent', value: (r) => r.attendance_percent },
  { header: 'planned_minutes', value: (r) => r.planned_minutes },
  { header: 'attended_minutes', value: (r) => r.attended_minutes },
  { header: 'minutes_percent', value: (r) => r.minutes_percent },
];

const LESSON_COLUMNS: Column<AttendanceEntryView>[] = [
  { header: 'starts_at', value: (r) => r.starts_at, width: 25 },
  { header: 'local_date', value: (r) => r.local_date, width: 12 },
  { header: 'local_start', value: (r) => r.local_start },
  { header: 'programme', value: (r) => r.programme_title, width: 25 },
  { header: 'group', value: (r) => r.group_name, width: 20 },
  { header: 'teacher', value: (r) => r.teacher_name, width: 20 },
  { header: 'mark', value: (r) => r.mark },
  { header: 'minutes_late', value: (r) => r.minutes_late },
  { header: 'minutes_missed', value: (r) => r.minutes_missed },
  { header: 'absence_reason', value: (r) => r.absence_reason },
  { header: 'suggested_code', value: (r) => r.suggested_code },
  { header: 'amendments', value: (r) => r.amendments },
];

/**
 * The user reports that waited for attendance (spec §7, decision 0056): a student's attendance per
 * programme (`users/{id}/performance`; `users/{id}/programs/summary` is the lessons area's, decision
 * 0058), per lesson of one programme (`users/{id}/performance/{programId}`), and every student of a programme
 * (`users/overall_performance/{programId}/csv`). Rows are read through the same scope as the
 * attendance lists (a teacher: their own lessons; a partner: their students); a student the caller may
 * not see is a 404.
 */
@ApiTags('attendance')
@Controller('api/v1/users')
export class UserPerformanceController {
  constructor(@Inject(SQL_CLIENT) private readonly sql: SqlClient) {}

  @Get(':id/performance')
  @RequirePermissions(...ALL_MARKER_PERMISSIONS)
  @Allow(AttendanceRules.readLists)
  @ApiProduces(...FILE_TYPES)
  @ApiOkResponse({ description: 'The student’s attendance per programme over the period; CSV or .xlsx' })
  @ApiNotFoundResponse({ description: 'No such student, or not one the caller may see' })
  async performance(
    @CurrentActor() actor: Actor,
    @Param('id', UuidPipe) id: string,
    @Query() q: PerformanceQuery,
    @Res() res: Response,
  ): Promise<void> {
    await this.visibleStudent(actor, id);
    const page = await attendanceSummary(this.sql, {
      by: 'programme',
      studentId: id,
      ...period(q.start, q.end),
      scope: attendanceEntryScope(actor),
      size: MAX_ROWS,
    });
    await sendTable(res, {
      filename: `performance-${id}`,
      asExcel: q.as_excel ?? false,
      sheetName: 'Performance',
      columns: SUMMARY_COLUMNS,
      rows: page.items.map(summaryView),
    });
  }

  @Get(':id/performance/:programId')
  @RequirePermissions(...ALL_MARKER_PERMISSIONS)
  @Allow(AttendanceRules.readLists)
  @ApiProduces(...FILE_TYPES)
  @ApiOkResponse({ description: 'The student’s marks, lesson by lesson, in one programme; CSV or .xlsx' })
  @ApiNotFoundResponse({ description: 'No such student, or not one the caller may see' })
  async programmePerformance(
    @CurrentActor() actor: Actor,
    @Param('id', UuidPipe) id: string,
    @Param('programId', UuidPipe) programId: string,
    @Query() q: PerformanceQuery,
    @Res() res: Response,
  ): Promise<void> {
    await this.visibleStudent(actor, id);
    const page = await listAttendanceEntries(this.sql, {
      studentId: id,
      programmeId: programId,
      ...period(q.start, q.end),
      markedOnly: true,
      scope: attendanceEntryScope(actor),
      size: MAX_ROWS,
    });
    await sendTable(res, {
      filename: `performance-${id}-${programId}`,
      asExcel: q.as_excel ?? false,
      sheetName: 'Lessons',
      columns: LESSON_COLUMNS,
      rows: page.items.map(entryView).reverse(),
    });
  }

  @Get('overall_performance/:programId/csv')
  @RequirePermissions(...ALL_MARKER_PERMISSIONS)
  @Allow(AttendanceRules.readLists)
  @ApiProduces(...FILE_TYPES)
  @ApiOkResponse({ description: 'Every student’s attendance in one programme over the period; CSV or .xlsx' })
  async overall(
    @CurrentActor() actor: Actor,
    @Param('programId', UuidPipe) programId: string,
    @Query() q: OverallPerformanceQuery,
    @Res() res: Response,
  ): Promise<void> {
    const page = await attendanceSummary(this.sql, {
      by: 'programme',
      programmeId: programId,
      studentIds: q.user_ids,
      ...period(q.start, q.end),
      scope: attendanceEntryScope(actor),
      size: MAX_ROWS,
    });
    await sendTable(res, {
      filename: `overall-performance-${programId}`,
      asExcel: q.as_excel ?? false,
      sheetName: 'Overall performance',
      columns: SUMMARY_COLUMNS,
      rows: page.items.map(summaryView),
    });
  }

  /** 404 unless the user is a student the caller may see (partners: their students). */
  private async visibleStudent(actor: Actor, id: string): Promise<void> {
    const student = await personFacts(this.sql, id);
    if (!student || student.user_type !== 'student') throw new DomainError('not_found', 'User not found');
    if (!isPartner(actor.permissions)) return;
    const ok = await studentInScope(
      studentScopeOf(actor),
      { id, customerId: student.customer_id },
      (partnerId, sid) => isLinkedStudent(this.sql, partnerId, sid),
    );
    if (!ok) throw new DomainError('not_found', 'User not found');
  }
}
