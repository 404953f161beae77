import { Controller, Get, HttpStatus, Query, Req, Res } from '@nestjs/common';
import { ApiOkResponse, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { RequirePermissions } from '../../platform/auth/public.decorator.js';
import { type AuthenticatedRequest, actorOf } from '../../platform/auth/request-context.js';
import { Problem } from '../../platform/http/problem.js';
import { MARKER_PERMISSIONS, isAdmin } from '../policy/policy.js';
import { UserAccess, forbidden } from '../user-access.js';
import { listFilterFor } from '../user-list-filter.js';
import { UsersReadModel } from '../users.read.js';
import { ActiveStudentsReportQuery, ExportUsersQuery } from './csv.dto.js';
import { MAX_DAILY_BUCKETS, StudentActivityReadModel } from './student-activity.read.js';
import { sendTable } from './tabular.js';
import { DETAILED_STUDENT_COLUMNS, STUDENT_COLUMNS, TEACHER_COLUMNS } from './user-columns.js';

const ADMIN = MARKER_PERMISSIONS.admin;
const PARTNER_MARKER = MARKER_PERMISSIONS.partner;
const FILE_TYPES = ['text/csv', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'];
const DAY_MS = 86_400_000;

const today = () => new Date().toISOString().slice(0, 10);
const dateOnly = (value: string) => value.slice(0, 10);

/**
 * User exports (spec §7 "Users": students/teachers CSV, count of active students and its report).
 * Students and teachers are admin-only areas (spec §6); the active-students figures are also open to
 * partners, for their own customer only. Files stream from the read model (docs/decisions/0018).
 */
@ApiTags('users')
@Controller('api/v1/users')
export class UserExportsController {
  constructor(
    private readonly access: UserAccess,
    private readonly users: UsersReadModel,
    private readonly activity: StudentActivityReadModel,
  ) {}

  @Get('students/csv')
  @RequirePermissions(ADMIN)
  @ApiProduces(...FILE_TYPES)
  @ApiOkResponse({ description: 'students.csv, or students.xlsx with as_excel=true' })
  async studentsCsv(@Req() req: AuthenticatedRequest, @Query() q: ExportUsersQuery, @Res() res: Response) {
    const actor = actorOf(req);
    const filter = listFilterFor(actor, { ...q, type: ['students'] });
    await sendTable(res, {
      filename: 'students',
      asExcel: q.as_excel ?? false,
      sheetName: 'Students',
      columns: STUDENT_COLUMNS,
      rows: this.users.stream(filter),
    });
  }

  @Get('students/csv/detailed')
  @RequirePermissions(ADMIN)
  @ApiProduces(...FILE_TYPES)
  @ApiOkResponse({ description: 'students-detailed.csv (or .xlsx): more columns, with contacts' })
  async studentsDetailed(
    @Req() req: AuthenticatedRequest,
    @Query() q: ExportUsersQuery,
    @Res() res: Response,
  ) {
    const actor = actorOf(req);
    const filter = listFilterFor(actor, { ...q, type: ['students'] });
    await sendTable(res, {
      filename: 'students-detailed',
      asExcel: q.as_excel ?? false,
      sheetName: 'Students',
      columns: DETAILED_STUDENT_COLUMNS,
      rows: this.users.stream(filter),
    });
  }

  @Get('teachers/csv')
  @RequirePermissions(ADMIN)
  @ApiProduces(...FILE_TYPES)
  @ApiOkResponse({ description: 'teachers.csv, or teachers.xlsx with as_excel=true' })
  async teachersCsv(@Req() req: AuthenticatedRequest, @Query() q: ExportUsersQuery, @Res() res: Response) {
    const actor = actorOf(req);
    const filter = listFilterFor(actor, { ...q, type: ['teachers'] });
    await sendTable(res, {
      filename: 'teachers',
      asExcel: q.as_excel ?? false,
      sheetName: 'Teachers',
      columns: TEACHER_COLUMNS,
      rows: this.users.stream(filter),
    });
  }

  @Get('students/count/active/report')
  @RequirePermissions(ADMIN, PARTNER_MARKER)
  @ApiProduces(...FILE_TYPES)
  @ApiOkResponse({
    description: `Active students per UTC day (per month when the range is longer than ${MAX_DAILY_BUCKETS} days)`,
  })
  async activeReport(
    @Req() req: AuthenticatedRequest,
    @Query() q: ActiveStudentsReportQuery,
    @Res() res: Response,
  ) {
    const customerId = this.customerScope(req, q.customer_id);
    const to = dateOnly(q.date_to ?? today());
    const from = dateOnly(q.date_from ?? new Date(Date.parse(to) - 30 * DAY_MS).toISOString());
    const days = (Date.parse(to) - Date.parse(from)) / DAY_MS + 1;
    if (!(days >= 1))
      throw new Problem(HttpStatus.UNPROCESSABLE_ENTITY, 'date_from: must be on or before date_to');
    if (days > 3660)
      throw new Problem(HttpStatus.UNPROCESSABLE_ENTITY, 'date_from: the range is at most 10 years');
    const bucket = days > MAX_DAILY_BUCKETS ? 'month' : 'day';
    const rows = await this.activity.activePerPeriod(from, to, bucket, customerId);
    await sendTable(res, {
      filename: `active-students-${from}-${to}`,
      asExcel: q.as_excel ?? false,
      sheetName: 'Active students',
      columns: [
        { header: bucket, value: (r) => r.period },
        { header: 'active_students', value: (r) => r.active },
      ],
      rows,
    });
  }

  /** Administrators: the customer asked for (or all); partners: always their own customer. */
  private customerScope(req: AuthenticatedRequest, asked: string | undefined): string | null {
    const actor = actorOf(req);
    if (isAdmin(actor.permissions)) return asked ?? null;
    if (!actor.customerId) throw forbidden();
    if (asked && asked !== actor.customerId) throw forbidden('Partners can only see their own customer');
    return actor.customerId;
  }
}
