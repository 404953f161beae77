import { Controller, Get, Param, Query, Req, Res } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiProduces, ApiProperty, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import type { UserRow } from '@portal/projections';
import { RequirePermissions } from '../../platform/auth/public.decorator.js';
import { type AuthenticatedRequest, actorOf } from '../../platform/auth/request-context.js';
import { MARKER_PERMISSIONS, isAdmin } from '../policy/policy.js';
import { UserAccess, forbidden } from '../user-access.js';
import { listFilterFor } from '../user-list-filter.js';
import { ContactView } from '../users.dto.js';
import { rowFor, rowsFor } from '../user.view.js';
import { UsersReadModel } from '../users.read.js';
import { ExportUsersQuery } from './csv.dto.js';
import { sendTable } from './tabular.js';
import { STUDENT_CONTACT_COLUMNS, contactLines } from './user-columns.js';
import { UuidPipe } from '../../platform/http/validation.js';
import { PageOf } from '../../platform/http/paging.js';

const ADMIN = MARKER_PERMISSIONS.admin;
const PARTNER_MARKER = MARKER_PERMISSIONS.partner;
const FILE_TYPES = ['text/csv', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'];

/** A student with their contacts: the spec's "simple user" (§3). */
export class StudentWithContacts {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() login!: string;
  @ApiProperty() first_name!: string;
  @ApiProperty() last_name!: string;
  @ApiProperty() display_name!: string;
  @ApiProperty() email!: string;
  @ApiProperty({ nullable: true, type: String, description: 'Not recorded yet: always null' })
  birth_date!: string | null;
  @ApiProperty() has_access!: boolean;
  @ApiProperty({ nullable: true, type: String }) scheduled_for_deactivation!: string | null;
  @ApiProperty() is_blocked!: boolean;
  @ApiProperty({ enum: ['active', 'inactive', 'deactivated'] }) status!: string;
  @ApiProperty({ nullable: true, format: 'uuid', type: String }) customer_id!: string | null;
  @ApiProperty({ nullable: true, type: String }) customer_name!: string | null;
  @ApiProperty({ type: [ContactView] }) contacts!: ContactView[];
}

export class StudentContactsPage extends PageOf(StudentWithContacts) {}

function studentWithContacts(u: UserRow): StudentWithContacts {
  return {
    id: u.id,
    login: u.login,
    first_name: u.first_name,
    last_name: u.last_name,
    display_name: u.full_name,
    email: u.email,
    birth_date: null,
    has_access: u.has_access,
    scheduled_for_deactivation: u.scheduled_for_deactivation
      ? new Date(u.scheduled_for_deactivation).toISOString()
      : null,
    is_blocked: u.is_blocked,
    status: u.status,
    customer_id: u.customer_id,
    customer_name: u.customer_name ?? null,
    contacts: u.contacts,
  };
}

/**
 * Student contacts (spec §7 "Student contacts and reports"): students with their contacts, as a page
 * and as downloads. Administrators see every student; partners only their own customer's students, and
 * only when their permissions let them see students (the same scoping as GET /users/).
 */
@ApiTags('student-contacts')
@Controller('api/v1/student-contacts')
export class StudentContactsController {
  constructor(
    private readonly access: UserAccess,
    private readonly users: UsersReadModel,
  ) {}

  @Get('students/overview')
  @RequirePermissions(ADMIN, PARTNER_MARKER)
  @ApiOkResponse({ type: StudentContactsPage })
  async overview(
    @Req() req: AuthenticatedRequest,
    @Query() q: ExportUsersQuery,
  ): Promise<StudentContactsPage> {
    const actor = actorOf(req);
    const filter = listFilterFor(actor, { ...q, type: ['students'] });
    const { rows, total } = await this.users.list(filter);
    return {
      items: rows.map((r) => studentWithContacts(rowFor(actor, r))),
      total,
      page: filter.page,
      size: filter.size,
    };
  }

  @Get('students/overview/report')
  @RequirePermissions(ADMIN, PARTNER_MARKER)
  @ApiProduces(...FILE_TYPES)
  @ApiOkResponse({ description: 'One line per student and contact (CSV, or .xlsx with as_excel=true)' })
  async overviewReport(@Req() req: AuthenticatedRequest, @Query() q: ExportUsersQuery, @Res() res: Response) {
    const actor = actorOf(req);
    const filter = listFilterFor(actor, { ...q, type: ['students'] });
    await sendTable(res, {
      filename: 'student-contacts',
      asExcel: q.as_excel ?? false,
      sheetName: 'Student contacts',
      columns: STUDENT_CONTACT_COLUMNS,
      rows: contactLines(rowsFor(actor, this.users.stream(filter))),
    });
  }

  @Get('customer/:id/report')
  @RequirePermissions(ADMIN, PARTNER_MARKER)
  @ApiProduces(...FILE_TYPES)
  @ApiOkResponse({ description: "The customer's students and their contacts, one line per contact" })
  @ApiNotFoundResponse({ description: 'Not a UUID' })
  async customerReport(
    @Req() req: AuthenticatedRequest,
    @Param('id', UuidPipe) id: string,
    @Query() q: ExportUsersQuery,
    @Res() res: Response,
  ) {
    const actor = actorOf(req);
    if (!isAdmin(actor.permissions) && actor.customerId !== id)
      throw forbidden('Partners can only see their own customer');
    const filter = listFilterFor(actor, { ...q, type: ['students'], customer_id: id });
    await sendTable(res, {
      filename: `customer-${id}-student-contacts`,
      asExcel: q.as_excel ?? false,
      sheetName: 'Student contacts',
      columns: STUDENT_CONTACT_COLUMNS,
      rows: contactLines(rowsFor(actor, this.users.stream(filter))),
    });
  }
}
