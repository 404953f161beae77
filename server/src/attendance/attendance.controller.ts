import { Controller, Get, Inject, Query } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import {
  ABSENCE_REASONS,
  ATTENDANCE_MARKS,
  codeSetOn,
  lessonRegisters,
  listAttendanceEntries,
  type AttendanceEntryRow,
} from '@portal/projections';
import { RequirePermissions } from '../platform/auth/public.decorator.js';
import { Allow } from '../platform/auth/allow.decorator.js';
import { CurrentActor, type Actor } from '../platform/auth/request-context.js';
import type { SqlClient } from '../platform/sql/sql-client.js';
import { SQL_CLIENT } from '../platform/tokens.js';
import { DomainError } from '../platform/domain/domain-error.js';
import { ALL_MARKER_PERMISSIONS } from '../identity/policy/policy.js';
import { addDays, instantOf, isTimeZone, todayIn } from '../core/time/time.js';
import { lessonScope } from '../lessons/lessons.policy.js';
import { AttendanceRules, attendanceEntryScope, mayManageAttendance } from './attendance.policy.js';
import {
  AttendanceCodeSetView,
  AttendanceEntryPage,
  AttendanceListQuery,
  CodesQuery,
  TodayQuery,
  TodayView,
  type AttendanceEntryView,
} from './attendance.dto.js';

export function entryView(r: AttendanceEntryRow): AttendanceEntryView {
  return {
    lesson_id: r.lesson_id,
    student_id: r.student_id,
    student_name: r.student_name,
    customer_id: r.customer_id,
    programme_title: r.programme_title,
    group_name: r.group_name,
    teacher_name: r.teacher_name,
    starts_at: new Date(r.starts_at).toISOString(),
    local_date: r.local_date,
    local_start: r.local_start,
    session: r.local_start < '12:00' ? 'AM' : 'PM',
    mark: r.mark,
    minutes_late: r.minutes_late,
    minutes_missed: r.minutes_missed,
    absence_reason: r.absence_reason,
    suggested_code: r.suggested_code,
    reason_missing: r.mark === 'absent_pending',
    amendments: r.amendments,
  };
}

/**
 * Attendance lists (decision 0056): the DfE code set in force on a date, the day's board (registers
 * due and untaken, absences still without a reason) and the partner's view of their students'
 * entries. Every list reads through the reader's scope (`attendanceEntryScope`, `lessonScope`).
 */
@ApiTags('attendance')
@Controller('api/v1/attendance')
export class AttendanceController {
  constructor(@Inject(SQL_CLIENT) private readonly sql: SqlClient) {}

  @Get('codes')
  @RequirePermissions(...ALL_MARKER_PERMISSIONS)
  @Allow(AttendanceRules.readRegisters)
  @ApiOkResponse({ type: AttendanceCodeSetView })
  codes(@Query() q: CodesQuery): AttendanceCodeSetView {
    const set = codeSetOn(q.date ?? todayIn('Europe/London'));
    return {
      version: set.version,
      valid_from: set.validFrom,
      valid_until: set.validUntil,
      codes: set.codes,
      suggested_for_mark: set.forMark,
      suggested_for_reason: set.forReason,
      marks: [...ATTENDANCE_MARKS],
      absence_reasons: [...ABSENCE_REASONS],
    };
  }

  @Get('today')
  @RequirePermissions(...ALL_MARKER_PERMISSIONS)
  @Allow(AttendanceRules.readLists)
  @ApiOkResponse({ type: TodayView })
  async today(@CurrentActor() actor: Actor, @Query() q: TodayQuery): Promise<TodayView> {
    const timezone = q.timezone ?? 'Europe/London';
    if (!isTimeZone(timezone)) throw new DomainError('invalid', 'timezone: unknown time zone');
    const date = q.date ?? todayIn(timezone);
    const from = instantOf(date, '00:00', timezone).instant;
    const to = instantOf(addDays(date, 1), '00:00', timezone).instant;
    // Attendance staff see every lesson; others through the lessons' own scope (a teacher: their own).
    const scope = mayManageAttendance(actor.permissions) ? null : lessonScope(actor);
    const lessons = await lessonRegisters(this.sql, { from, to, scope, customerId: q.customer_id });
    const pending = await listAttendanceEntries(this.sql, {
      from: instantOf(addDays(date, -14), '00:00', timezone).instant,
      to,
      customerId: q.customer_id,
      pendingOnly: true,
      scope: attendanceEntryScope(actor),
      size: 500,
    });
    return {
      date,
      timezone,
      lessons: lessons.map((l) => ({
        lesson_id: l.id,
        programme_title: l.programme_title,
        group_name: l.group_name,
        customer_id: l.customer_id,
        teacher_name: l.teacher_name,
        starts_at: new Date(l.starts_at).toISOString(),
        ends_at: new Date(l.ends_at).toISOString(),
        local_date: l.local_date,
        local_start: l.local_start,
        timezone: l.timezone,
        register_state: l.register_state,
        roster: l.roster,
        marked: l.marked,
        pending: l.pending,
      })),
      absences_without_reason: pending.items.map(entryView),
    };
  }

  @Get('partner')
  @RequirePermissions(...ALL_MARKER_PERMISSIONS)
  @Allow(AttendanceRules.readLists)
  @ApiOkResponse({ type: AttendanceEntryPage })
  async partner(@CurrentActor() actor: Actor, @Query() q: AttendanceListQuery): Promise<AttendanceEntryPage> {
    const page = await listAttendanceEntries(this.sql, {
      page: q.page,
      size: q.size,
      from: q.from,
      to: q.to,
      customerId: q.customer_id,
      programmeId: q.programme_id,
      groupId: q.group_id,
      teacherId: q.teacher_id,
      studentId: q.student_id,
      markedOnly: true,
      scope: attendanceEntryScope(actor),
    });
    return { ...page, items: page.items.map(entryView) };
  }
}
