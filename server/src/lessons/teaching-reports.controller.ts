import { Controller, Get, HttpStatus, Inject, Param, Query, Res } from '@nestjs/common';
import {
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiProduces,
  ApiProperty,
  ApiPropertyOptional,
  ApiTags,
} from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsOptional, IsString, IsUUID, MaxLength } from 'class-validator';
import type { Response } from 'express';
import {
  deliveredBySubject,
  programmeSummaryOf,
  sourceOfEducation,
  studentsByKeyStage,
  studentsWithLessons,
  teachersDeliveringCourses,
  teachersForCustomer,
  KEY_STAGES,
  type DateRange,
} from '@portal/projections';
import { RequirePermissions } from '../platform/auth/public.decorator.js';
import { type Actor, CurrentActor } from '../platform/auth/request-context.js';
import { Allow } from '../platform/auth/allow.decorator.js';
import { Problem } from '../platform/http/problem.js';
import { IsCalendarDate } from '../platform/http/dates.js';
import { UuidPipe, asArray } from '../platform/http/validation.js';
import type { SqlClient } from '../platform/sql/sql-client.js';
import { SQL_CLIENT } from '../platform/tokens.js';
import { ALL_MARKER_PERMISSIONS, MARKER_PERMISSIONS, isAdmin } from '../identity/policy/policy.js';
import { asBoolean } from '../identity/csv/csv.dto.js';
import { sendTable, type Cell } from '../identity/csv/tabular.js';
import { academicYearOf, daysBetween, isLocalDate, todayIn } from '../core/time/time.js';
import { LessonRules, lessonScope, readableTimetableUser } from './lessons.policy.js';

const ADMIN = MARKER_PERMISSIONS.admin;
const FILE_TYPES = ['text/csv', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'];
const MAX_DAYS = 3660;

class ExcelQuery {
  @ApiPropertyOptional({ type: Boolean, description: 'true: an .xlsx workbook instead of CSV' })
  @IsOptional()
  @Transform(asBoolean)
  @IsBoolean()
  as_excel?: boolean;
}

export class FromToQuery extends ExcelQuery {
  @ApiPropertyOptional({ example: '2026-09-01', description: 'First lesson date; default 1 September' })
  @IsOptional()
  @IsCalendarDate()
  from_date?: string;
  @ApiPropertyOptional({ example: '2027-07-20', description: 'Last lesson date, included; default today' })
  @IsOptional()
  @IsCalendarDate()
  to_date?: string;
}

export class FacetQuery extends FromToQuery {
  @ApiPropertyOptional({ type: [String], format: 'uuid', description: 'Repeat the key for several' })
  @IsOptional()
  @Transform(asArray)
  @IsUUID('all', { each: true })
  product_ids?: string[];
  @ApiPropertyOptional({ type: [String], format: 'uuid', description: 'Repeat the key for several' })
  @IsOptional()
  @Transform(asArray)
  @IsUUID('all', { each: true })
  subject_ids?: string[];
}

export class TeachersDeliveringQuery extends FacetQuery {
  @ApiPropertyOptional({ type: [String], format: 'uuid', description: 'Repeat the key for several' })
  @IsOptional()
  @Transform(asArray)
  @IsUUID('all', { each: true })
  year_group_ids?: string[];
  @ApiPropertyOptional({
    description: 'Not recorded yet for teachers: giving it answers 422 instead of a report that ignores it',
  })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  contract_type?: string;
}

export class KeyStageQuery extends FacetQuery {
  @ApiPropertyOptional({ enum: [...KEY_STAGES, 'Not set'], isArray: true, description: 'Repeat the key' })
  @IsOptional()
  @Transform(asArray)
  @IsIn([...KEY_STAGES, 'Not set'], { each: true })
  keystage_names?: string[];
}

export class CustomerTeachersQuery extends ExcelQuery {
  @ApiPropertyOptional({ example: '2026-09-01' }) @IsOptional() @IsCalendarDate() date_from?: string;
  @ApiPropertyOptional({ example: '2027-07-20' }) @IsOptional() @IsCalendarDate() date_to?: string;
  @ApiPropertyOptional({ type: Boolean, description: 'CSV (the default without as_excel)' })
  @IsOptional()
  @Transform(asBoolean)
  @IsBoolean()
  as_csv?: boolean;
}

export class ComsQuery {
  @ApiPropertyOptional({ format: 'uuid', description: 'One teacher (default: all; yourself unless admin)' })
  @IsOptional()
  @IsUUID()
  user_id?: string;
  @ApiPropertyOptional({ example: '2026-09-01' }) @IsOptional() @IsCalendarDate() from_date?: string;
  @ApiPropertyOptional({ example: '2027-07-20' }) @IsOptional() @IsCalendarDate() to_date?: string;
  @ApiPropertyOptional({ type: [String], format: 'uuid', description: 'Repeat the key for several' })
  @IsOptional()
  @Transform(asArray)
  @IsUUID('all', { each: true })
  subject_ids?: string[];
}

export class SummaryQuery {
  @ApiPropertyOptional({ example: '2026-09-01' }) @IsOptional() @IsCalendarDate() from_date?: string;
  @ApiPropertyOptional({ example: '2027-07-20' }) @IsOptional() @IsCalendarDate() to_date?: string;
}

class LessonCountsView {
  @ApiProperty() lessons_delivered!: number;
  @ApiProperty() lessons_planned!: number;
  @ApiProperty() lessons_not_delivered!: number;
  @ApiProperty() lessons_cancelled!: number;
  @ApiProperty() minutes_delivered!: number;
  @ApiProperty({ nullable: true, type: String }) first_lesson!: string | null;
  @ApiProperty({ nullable: true, type: String }) last_lesson!: string | null;
}

export class ProgrammeSummaryView extends LessonCountsView {
  @ApiProperty({ format: 'uuid' }) programme_id!: string;
  @ApiProperty() title!: string;
  @ApiProperty() programme_status!: string;
  @ApiProperty({ format: 'uuid' }) customer_id!: string;
  @ApiProperty({ nullable: true, type: String }) customer_name!: string | null;
  @ApiProperty({ nullable: true, type: String }) subject_name!: string | null;
}

export class ProgramsSummaryAnswer {
  @ApiProperty({ format: 'uuid' }) user_id!: string;
  @ApiProperty() user_name!: string;
  @ApiProperty({ enum: ['teacher', 'student'] }) role!: string;
  @ApiProperty() from_date!: string;
  @ApiProperty() to_date!: string;
  @ApiProperty({ type: [ProgrammeSummaryView] }) items!: ProgrammeSummaryView[];
  @ApiProperty({ type: LessonCountsView }) totals!: Omit<LessonCountsView, 'first_lesson' | 'last_lesson'>;
}

export class ComsRowView {
  @ApiProperty({ format: 'uuid' }) user_id!: string;
  @ApiProperty() user_name!: string;
  @ApiProperty({ nullable: true, type: String, format: 'uuid' }) subject_id!: string | null;
  @ApiProperty({ nullable: true, type: String }) subject_name!: string | null;
  @ApiProperty() lessons_delivered!: number;
  @ApiProperty() minutes_delivered!: number;
}

export class ComsAnswer {
  @ApiProperty() from_date!: string;
  @ApiProperty() to_date!: string;
  @ApiProperty({ type: [ComsRowView] }) items!: ComsRowView[];
}

/** The range asked for: default 1 September of today's academic year to today; 422 naming the field. */
export function dateRange(
  from: string | undefined,
  to: string | undefined,
  names = ['from_date', 'to_date'],
): DateRange {
  const last = to ?? todayIn('Europe/London');
  const first = from ?? academicYearOf(last).firstDay;
  if (!isLocalDate(first) || !isLocalDate(last))
    throw new Problem(HttpStatus.UNPROCESSABLE_ENTITY, `${names[0]}: is not a calendar date`);
  const days = daysBetween(first, last);
  if (days < 0)
    throw new Problem(HttpStatus.UNPROCESSABLE_ENTITY, `${names[0]}: must be on or before ${names[1]}`);
  if (days > MAX_DAYS)
    throw new Problem(HttpStatus.UNPROCESSABLE_ENTITY, `${names[0]}: the range is at most 10 years`);
  return { from: first, to: last };
}

/** A report file named `{name}-{from}-{to}` (CSV, or .xlsx with `as_excel`), one column per key given. */
function sendReport<T>(
  res: Response,
  q: { as_excel?: boolean },
  r: { name: string; range: DateRange; sheet: string; rows: T[]; keys: readonly (keyof T & string)[] },
): Promise<void> {
  return sendTable(res, {
    filename: `${r.name}-${r.range.from}-${r.range.to}`,
    asExcel: q.as_excel ?? false,
    sheetName: r.sheet,
    columns: r.keys.map((key) => ({
      header: key,
      value: (row: T) => row[key] as Cell,
      width: key.endsWith('_id') ? 38 : 20,
    })),
    rows: r.rows,
  });
}

/**
 * The user reports that waited for the teaching area (spec §7 "Users", issue 15 item 13; decision
 * 0058). The files are reports, admin-only (spec §6); `programs/summary` follows the timetable's
 * reading rules (yourself, lesson readers of all, a partner for their own students), `coms` is an
 * administrator's view of all teachers or a teacher's of themselves. Registered before the users
 * controller, so that `users/coms` is not read as a user id.
 */
@ApiTags('users')
@Controller('api/v1/users')
export class TeachingReportsController {
  constructor(@Inject(SQL_CLIENT) private readonly sql: SqlClient) {}

  @Get('coms')
  @RequirePermissions(ADMIN, MARKER_PERMISSIONS.teacher)
  @ApiOkResponse({ type: ComsAnswer, description: 'Delivered lessons per teacher and subject' })
  async coms(@CurrentActor() actor: Actor, @Query() q: ComsQuery): Promise<ComsAnswer> {
    const range = dateRange(q.from_date, q.to_date);
    let userId = q.user_id;
    if (!isAdmin(actor.permissions)) {
      if (userId !== undefined && userId !== actor.userId)
        throw new Problem(HttpStatus.NOT_FOUND, 'User not found');
      userId = actor.userId;
    }
    const items = await deliveredBySubject(this.sql, { ...range, userId, subjectIds: q.subject_ids });
    return { from_date: range.from, to_date: range.to, items };
  }

  @Get(':id/programs/summary')
  @RequirePermissions(...ALL_MARKER_PERMISSIONS)
  @Allow(LessonRules.read)
  @ApiOkResponse({ type: ProgramsSummaryAnswer })
  @ApiNotFoundResponse({ description: 'User not found' })
  async programsSummary(
    @CurrentActor() actor: Actor,
    @Param('id', UuidPipe) id: string,
    @Query() q: SummaryQuery,
  ): Promise<ProgramsSummaryAnswer> {
    const { target, access, teacher } = await readableTimetableUser(this.sql, actor, id);
    const range = dateRange(q.from_date, q.to_date);
    const items = await programmeSummaryOf(this.sql, {
      ...range,
      userId: id,
      as: teacher ? 'teacher' : 'student',
      scope: access === 'self' ? null : lessonScope(actor),
    });
    const sum = (key: keyof ProgrammeSummaryView) => items.reduce((n, r) => n + Number(r[key]), 0);
    return {
      user_id: id,
      user_name: target.full_name,
      role: teacher ? 'teacher' : 'student',
      from_date: range.from,
      to_date: range.to,
      items,
      totals: {
        lessons_delivered: sum('lessons_delivered'),
        lessons_planned: sum('lessons_planned'),
        lessons_not_delivered: sum('lessons_not_delivered'),
        lessons_cancelled: sum('lessons_cancelled'),
        minutes_delivered: sum('minutes_delivered'),
      },
    };
  }

  @Get('teachers_for_customer/:id/report')
  @RequirePermissions(ADMIN)
  @ApiProduces(...FILE_TYPES)
  @ApiOkResponse({ description: 'The teachers delivering a customer’s lessons in the range (CSV or .xlsx)' })
  async teachersForCustomer(
    @Param('id', UuidPipe) customerId: string,
    @Query() q: CustomerTeachersQuery,
    @Res() res: Response,
  ) {
    const range = dateRange(q.date_from, q.date_to, ['date_from', 'date_to']);
    const rows = await teachersForCustomer(this.sql, { ...range, customerId });
    await sendReport(res, q, {
      name: 'teachers-for-customer',
      range,
      sheet: 'Teachers',
      rows,
      keys: [
        'teacher_id',
        'teacher_name',
        'programmes',
        'lessons_delivered',
        'lessons_planned',
        'lessons_not_delivered',
        'lessons_cancelled',
        'minutes_delivered',
        'first_lesson',
        'last_lesson',
      ],
    });
  }

  @Get('teachers_delivering_courses/report')
  @RequirePermissions(ADMIN)
  @ApiProduces(...FILE_TYPES)
  @ApiOkResponse({ description: 'Per teacher and programme, the lessons delivered in the range' })
  async teachersDelivering(@Query() q: TeachersDeliveringQuery, @Res() res: Response) {
    if (q.contract_type !== undefined)
      throw new Problem(
        HttpStatus.UNPROCESSABLE_ENTITY,
        'contract_type: teachers’ contract types are not recorded yet',
      );
    const range = dateRange(q.from_date, q.to_date);
    const rows = await teachersDeliveringCourses(this.sql, {
      ...range,
      productIds: q.product_ids,
      subjectIds: q.subject_ids,
      yearGroupIds: q.year_group_ids,
    });
    await sendReport(res, q, {
      name: 'teachers-delivering-courses',
      range,
      sheet: 'Teachers delivering',
      rows,
      keys: [
        'teacher_id',
        'teacher_name',
        'programme_id',
        'programme_title',
        'customer_name',
        'product_name',
        'subject_name',
        'year_group_name',
        'key_stage',
        'lessons_delivered',
        'minutes_delivered',
        'first_lesson',
        'last_lesson',
      ],
    });
  }

  @Get('students-with-lessons/report')
  @RequirePermissions(ADMIN)
  @ApiProduces(...FILE_TYPES)
  @ApiOkResponse({ description: 'Students with lessons in the range, per student' })
  async studentsWithLessons(@Query() q: FromToQuery, @Res() res: Response) {
    const range = dateRange(q.from_date, q.to_date);
    const rows = await studentsWithLessons(this.sql, range);
    await sendReport(res, q, {
      name: 'students-with-lessons',
      range,
      sheet: 'Students with lessons',
      rows,
      keys: [
        'student_id',
        'student_name',
        'customer_name',
        'programmes',
        'lessons_delivered',
        'lessons_planned',
        'lessons_not_delivered',
        'lessons_cancelled',
        'minutes_delivered',
        'first_lesson',
        'last_lesson',
      ],
    });
  }

  @Get('students-by-keystage/report')
  @RequirePermissions(ADMIN)
  @ApiProduces(...FILE_TYPES)
  @ApiOkResponse({ description: 'Students with delivered lessons per key stage and year group' })
  async studentsByKeyStage(@Query() q: KeyStageQuery, @Res() res: Response) {
    const range = dateRange(q.from_date, q.to_date);
    const rows = await studentsByKeyStage(this.sql, {
      ...range,
      productIds: q.product_ids,
      subjectIds: q.subject_ids,
      keyStages: q.keystage_names,
    });
    await sendReport(res, q, {
      name: 'students-by-keystage',
      range,
      sheet: 'Students by key stage',
      rows,
      keys: ['key_stage', 'year_group_name', 'students', 'lessons_delivered'],
    });
  }

  @Get('students/source-of-education/report')
  @RequirePermissions(ADMIN)
  @ApiProduces(...FILE_TYPES)
  @ApiOkResponse({
    description: 'Enrolments open in the range: commissioning school, placement, setting, reason',
  })
  async sourceOfEducation(@Query() q: FromToQuery, @Res() res: Response) {
    const range = dateRange(q.from_date, q.to_date);
    const rows = await sourceOfEducation(this.sql, range);
    await sendReport(res, q, {
      name: 'source-of-education',
      range,
      sheet: 'Source of education',
      rows,
      keys: [
        'student_id',
        'student_name',
        'customer_name',
        'programme_title',
        'placement_type',
        'setting',
        'reason_for_placement',
        'status',
        'start_date',
        'end_date',
      ],
    });
  }
}
