import { Controller, Get, Inject, Query, Res } from '@nestjs/common';
import { ApiOkResponse, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import {
  ABSENCE_REASONS,
  ATTENDANCE_MARKS,
  attendanceSummary,
  codeSetOn,
  differentClass,
  lessonRegisters,
  listAttendanceEntries,
  partnerSessions,
  tutorCompliance,
  type AttendanceEntryRow,
  type AttendanceSummaryRow,
  type SummaryBy,
} from '@portal/projections';
import { sendTable, type Column } from '../identity/csv/tabular.js';
import { RequirePermissions } from '../platform/auth/public.decorator.js';
import { Allow } from '../platform/auth/allow.decorator.js';
import { CurrentActor, type Actor } from '../platform/auth/request-context.js';
import type { SqlClient } from '../platform/sql/sql-client.js';
import { SQL_CLIENT } from '../platform/tokens.js';
import { DomainError } from '../platform/domain/domain-error.js';
import { ALL_MARKER_PERMISSIONS } from '../identity/policy/policy.js';
import { addDays, instantOf, isTimeZone, todayIn } from '../core/time/time.js';
import { lessonScope, readsAllLessons } from '../lessons/lessons.policy.js';
import { AttendanceRules, attendanceEntryScope, mayManageAttendance } from './attendance.policy.js';
import {
  AttendanceCodeSetView,
  AttendanceEntryPage,
  AttendanceListQuery,
  AttendanceReportQuery,
  AttendanceSummaryPage,
  CodesQuery,
  DifferentClassPage,
  PartnerListQuery,
  SessionMarkPage,
  TodayQuery,
  TodayView,
  TutorCompliancePage,
  type AttendanceEntryView,
  type AttendanceSummaryView,
  type DifferentClassView,
  type SessionMarkView,
  type TutorComplianceView,
} from './attendance.dto.js';

/** The most rows a download holds. */
const MAX_FILE_ROWS = 100_000;
const FILE_TYPES = [
  'application/json',
  'text/csv',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
];
const percent = (part: number, whole: number) => (whole > 0 ? Math.round((part * 1000) / whole) / 10 : null);

export function summaryView(r: AttendanceSummaryRow): AttendanceSummaryView {
  return {
    id: r.key_id,
    name: r.key_name,
    student_id: r.student_id,
    student_name: r.student_name,
    period_start: r.period_start,
    possible: r.possible,
    attended: r.attended,
    late: r.late,
    left_early: r.left_early,
    absences: r.absences,
    absences_without_reason: r.absences_without_reason,
    absences_by_reason: r.absences_by_reason,
    attendance_percent: percent(r.attended, r.possible),
    planned_minutes: r.planned_minutes,
    attended_minutes: r.attended_minutes,
    minutes_percent: percent(r.attended_minutes, r.planned_minutes),
  };
}

/** JSON, or (as_csv / as_excel) the whole list as a file. */
async function answer<T>(
  res: Response,
  q: { as_csv?: boolean; as_excel?: boolean; page?: number; size?: number },
  filename: string,
  columns: Column<T>[],
  read: (paging: {
    page?: number;
    size?: number;
  }) => Promise<{ items: T[]; total: number; page: number; size: number }>,
): Promise<void> {
  if (q.as_csv || q.as_excel) {
    const all = await read({ page: 1, size: MAX_FILE_ROWS });
    await sendTable(res, { filename, asExcel: q.as_excel ?? false, columns, rows: all.items });
    return;
  }
  res.json(await read({ page: q.page, size: q.size }));
}

const SUMMARY_COLUMNS = (by: SummaryBy): Column<AttendanceSummaryView>[] => [
  { header: `${by}_id`, value: (r) => r.id, width: 38 },
  { header: by, value: (r) => r.name, width: 30 },
  { header: 'student_id', value: (r) => r.student_id, width: 38 },
  { header: 'student', value: (r) => r.student_name, width: 25 },
  { header: 'period_start', value: (r) => r.period_start, width: 12 },
  { header: 'possible', value: (r) => r.possible },
  { header: 'attended', value: (r) => r.attended },
  { header: 'late', value: (r) => r.late },
  { header: 'left_early', value: (r) => r.left_early },
  { header: 'absences', value: (r) => r.absences },
  { header: 'absences_without_reason', value: (r) => r.absences_without_reason },
  {
    header: 'absences_by_reason',
    value: (r) =>
      Object.entries(r.absences_by_reason)
        .map(([k, v]) => `${k}: ${v}`)
        .join('; '),
    width: 30,
  },
  { header: 'attendance_percent', value: (r) => r.attendance_percent },
  { header: 'planned_minutes', value: (r) => r.planned_minutes },
  { header: 'attended_minutes', value: (r) => r.attended_minutes },
  { header: 'minutes_percent', value: (r) => r.minutes_percent },
];

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
  @ApiProduces(...FILE_TYPES)
  @ApiOkResponse({ type: AttendanceEntryPage, description: 'Or a CSV / .xlsx file with as_csv / as_excel' })
  async partner(
    @CurrentActor() actor: Actor,
    @Query() q: PartnerListQuery,
    @Res() res: Response,
  ): Promise<void> {
    const columns: Column<AttendanceEntryView>[] = [
      { header: 'starts_at', value: (r) => r.starts_at, width: 25 },
      { header: 'local_date', value: (r) => r.local_date, width: 12 },
      { header: 'session', value: (r) => r.session },
      { header: 'student_id', value: (r) => r.student_id, width: 38 },
      { header: 'student', value: (r) => r.student_name, width: 25 },
      { header: 'programme', value: (r) => r.programme_title, width: 25 },
      { header: 'group', value: (r) => r.group_name, width: 20 },
      { header: 'teacher', value: (r) => r.teacher_name, width: 20 },
      { header: 'mark', value: (r) => r.mark },
      { header: 'minutes_late', value: (r) => r.minutes_late },
      { header: 'minutes_missed', value: (r) => r.minutes_missed },
      { header: 'absence_reason', value: (r) => r.absence_reason },
      { header: 'suggested_code', value: (r) => r.suggested_code },
      { header: 'reason_missing', value: (r) => r.reason_missing },
    ];
    await answer(res, q, 'attendance', columns, async (paging) => {
      const page = await listAttendanceEntries(this.sql, {
        ...this.filters(q),
        ...paging,
        markedOnly: true,
        scope: attendanceEntryScope(actor),
      });
      return { ...page, items: page.items.map(entryView) };
    });
  }

  @Get('partner/sessions')
  @RequirePermissions(...ALL_MARKER_PERMISSIONS)
  @Allow(AttendanceRules.readLists)
  @ApiProduces(...FILE_TYPES)
  @ApiOkResponse({
    type: SessionMarkPage,
    description:
      'The best mark per student and morning or afternoon session in the school’s zone; or a CSV / .xlsx file',
  })
  async partnerSessions(
    @CurrentActor() actor: Actor,
    @Query() q: PartnerListQuery,
    @Res() res: Response,
  ): Promise<void> {
    const columns: Column<SessionMarkView>[] = [
      { header: 'session_date', value: (r) => r.session_date, width: 12 },
      { header: 'session', value: (r) => r.session },
      { header: 'student_id', value: (r) => r.student_id, width: 38 },
      { header: 'student', value: (r) => r.student_name, width: 25 },
      { header: 'mark', value: (r) => r.mark },
      { header: 'suggested_code', value: (r) => r.suggested_code },
      { header: 'absence_reason', value: (r) => r.absence_reason },
      { header: 'reason_missing', value: (r) => r.reason_missing },
      { header: 'lessons', value: (r) => r.lessons },
    ];
    await answer(res, q, 'attendance-sessions', columns, (paging) =>
      partnerSessions(this.sql, { ...this.filters(q), ...paging, scope: attendanceEntryScope(actor) }),
    );
  }

  @Get('programmes')
  @RequirePermissions(...ALL_MARKER_PERMISSIONS)
  @Allow(AttendanceRules.readLists)
  @ApiProduces(...FILE_TYPES)
  @ApiOkResponse({ type: AttendanceSummaryPage, description: 'Or a CSV / .xlsx file with as_csv / as_excel' })
  async programmes(
    @CurrentActor() actor: Actor,
    @Query() q: AttendanceReportQuery,
    @Res() res: Response,
  ): Promise<void> {
    await this.summary('programme', actor, q, res);
  }

  @Get('groups')
  @RequirePermissions(...ALL_MARKER_PERMISSIONS)
  @Allow(AttendanceRules.readLists)
  @ApiProduces(...FILE_TYPES)
  @ApiOkResponse({ type: AttendanceSummaryPage, description: 'Or a CSV / .xlsx file with as_csv / as_excel' })
  async groups(
    @CurrentActor() actor: Actor,
    @Query() q: AttendanceReportQuery,
    @Res() res: Response,
  ): Promise<void> {
    await this.summary('group', actor, q, res);
  }

  @Get('tutors')
  @RequirePermissions(...ALL_MARKER_PERMISSIONS)
  @Allow(AttendanceRules.readTutors)
  @ApiProduces(...FILE_TYPES)
  @ApiOkResponse({ type: TutorCompliancePage, description: 'Or a CSV / .xlsx file with as_csv / as_excel' })
  async tutors(
    @CurrentActor() actor: Actor,
    @Query() q: AttendanceReportQuery,
    @Res() res: Response,
  ): Promise<void> {
    const all = mayManageAttendance(actor.permissions) || readsAllLessons(actor.permissions);
    const columns: Column<TutorComplianceView>[] = [
      { header: 'teacher_id', value: (r) => r.teacher_id, width: 38 },
      { header: 'teacher', value: (r) => r.teacher_name, width: 25 },
      { header: 'lessons', value: (r) => r.lessons },
      { header: 'registers_taken', value: (r) => r.registers_taken },
      { header: 'taken_on_time', value: (r) => r.taken_on_time },
      { header: 'not_taken', value: (r) => r.not_taken },
      { header: 'amendments', value: (r) => r.amendments },
      { header: 'unconfirmed_auto_marks', value: (r) => r.unconfirmed_auto_marks },
    ];
    await answer(res, q, 'attendance-tutors', columns, (paging) =>
      tutorCompliance(this.sql, {
        ...paging,
        from: q.from,
        to: q.to,
        teacherId: q.teacher_id,
        customerId: q.customer_id,
        now: new Date().toISOString(),
        scope: all
          ? null
          : (bind) => `coalesce(l.cover_teacher_id, l.teacher_id) = ${bind(actor.userId)}::uuid`,
      }),
    );
  }

  @Get('different-class')
  @RequirePermissions(...ALL_MARKER_PERMISSIONS)
  @Allow(AttendanceRules.readLists)
  @ApiProduces(...FILE_TYPES)
  @ApiOkResponse({ type: DifferentClassPage, description: 'Or a CSV / .xlsx file with as_csv / as_excel' })
  async differentClass(
    @CurrentActor() actor: Actor,
    @Query() q: AttendanceReportQuery,
    @Res() res: Response,
  ): Promise<void> {
    const columns: Column<DifferentClassView>[] = [
      { header: 'lesson_id', value: (r) => r.lesson_id, width: 38 },
      { header: 'starts_at', value: (r) => r.starts_at, width: 25 },
      { header: 'student', value: (r) => r.student_name, width: 25 },
      { header: 'home_group', value: (r) => r.home_group_name, width: 25 },
      { header: 'lesson_group', value: (r) => r.group_name, width: 25 },
      { header: 'programme', value: (r) => r.programme_title, width: 25 },
      { header: 'teacher', value: (r) => r.teacher_name, width: 25 },
      { header: 'mark', value: (r) => r.mark },
      { header: 'suggested_code', value: (r) => r.suggested_code },
    ];
    await answer(res, q, 'attendance-different-class', columns, async (paging) => {
      const page = await differentClass(this.sql, {
        ...this.filters(q),
        ...paging,
        scope: attendanceEntryScope(actor),
      });
      return {
        ...page,
        items: page.items.map((r) => ({ ...entryView(r), home_group_name: r.home_group_name })),
      };
    });
  }

  private filters(q: AttendanceListQuery) {
    return {
      from: q.from,
      to: q.to,
      customerId: q.customer_id,
      programmeId: q.programme_id,
      groupId: q.group_id,
      teacherId: q.teacher_id,
      studentId: q.student_id,
    };
  }

  private async summary(by: SummaryBy, actor: Actor, q: AttendanceReportQuery, res: Response): Promise<void> {
    await answer(res, q, `attendance-${by}s`, SUMMARY_COLUMNS(by), async (paging) => {
      const page = await attendanceSummary(this.sql, {
        by,
        period: q.period,
        ...this.filters(q),
        ...paging,
        scope: attendanceEntryScope(actor),
      });
      return { ...page, items: page.items.map(summaryView) };
    });
  }
}
