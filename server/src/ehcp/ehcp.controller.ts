import { randomUUID } from 'node:crypto';
import { Body, Controller, Get, HttpStatus, Inject, Param, Put, Req } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiProperty, ApiTags } from '@nestjs/swagger';
import { ehcpRemindersFor, type UserRow } from '@portal/projections';
import { RequirePermissions } from '../platform/auth/public.decorator.js';
import {
  metadataFor,
  type Actor,
  type AuthenticatedRequest,
  actorOf,
} from '../platform/auth/request-context.js';
import type { AppConfig } from '../platform/config/config.js';
import { Commands } from '../platform/event-store/commands.js';
import { Problem } from '../platform/http/problem.js';
import { MailOutbox } from '../platform/mail/mail-outbox.js';
import type { SqlClient } from '../platform/sql/sql-client.js';
import { APP_CONFIG, SQL_CLIENT } from '../platform/tokens.js';
import { studentsFilter } from '../identity/lists/user-list-query.js';
import { ehcpStudentScope, type StudentScope } from '../core/access/student-scope.js';
import {
  MARKER_PERMISSIONS,
  NAMED_PERMISSIONS,
  isInternal,
  maySendEhcpRequests,
  partnerMaySee,
  partnerVisibility,
} from '../identity/policy/policy.js';
import { UserAccess, forbidden, isUuid } from '../identity/user-access.js';
import { studentProfile } from '../identity/user.view.js';
import { PositionResponse, StudentFileView } from '../identity/users.dto.js';
import { UsersReadModel } from '../identity/users.read.js';
import { recipientRefusal, remindersAggregate } from './ehcp.rules.js';
import { UuidPipe } from '../platform/http/validation.js';

const EHCP = NAMED_PERMISSIONS.EHCP;
/** One PUT names at most this many students (the whole list of a large provider fits). */
export const MAX_REMINDER_IDS = 5000;
/** One EHCP request asks at most this many people. */
export const MAX_REQUEST_RECIPIENTS = 20;

const ID_LIST_SCHEMA = {
  type: 'array' as const,
  items: { type: 'string', format: 'uuid' },
};

/** The body "list of ids" (spec §7): a JSON array of UUIDs, lower-cased, repeats removed. */
export function parseIdList(body: unknown, max: number): string[] {
  if (!Array.isArray(body))
    throw new Problem(HttpStatus.UNPROCESSABLE_ENTITY, 'body: must be a JSON list of ids');
  if (body.length > max)
    throw new Problem(HttpStatus.UNPROCESSABLE_ENTITY, `body: at most ${max} ids at once`);
  body.forEach((id, i) => {
    if (typeof id !== 'string' || !isUuid(id))
      throw new Problem(HttpStatus.UNPROCESSABLE_ENTITY, `body[${i}]: must be a UUID`);
  });
  return [...new Set((body as string[]).map((id) => id.toLowerCase()))];
}

export class EhcpReminderItem {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() first_name!: string;
  @ApiProperty() last_name!: string;
  @ApiProperty({ description: 'First and last name' }) display_name!: string;
  @ApiProperty({ nullable: true, type: String, format: 'uuid' }) customer_id!: string | null;
  @ApiProperty({ nullable: true, type: String }) customer_name!: string | null;
  @ApiProperty() has_access!: boolean;
  @ApiProperty({ description: 'An EHCP file is on record (the reminder can be cleared)' })
  has_ehcp_file!: boolean;
  @ApiProperty({ type: StudentFileView, nullable: true }) latest_ehcp_file!: StudentFileView | null;
  @ApiProperty({ description: 'When the student was put on the list' }) reminder_since!: string;
  @ApiProperty({ nullable: true, type: String, format: 'uuid' }) reminder_set_by!: string | null;
}

export class EhcpReminderList {
  @ApiProperty({ type: [EhcpReminderItem] }) items!: EhcpReminderItem[];
}

export class EhcpRequestResult extends PositionResponse {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ description: 'People asked (each was sent an e-mail)' }) recipients!: number;
}

const studentNotFound = () => new Problem(HttpStatus.NOT_FOUND, 'Student not found');

/**
 * EHCP reminder list and EHCP requests (spec §7 "Users", decision 0035). The list is one event stream
 * (`ehcp-reminders`, read model rm_ehcp_reminders); a request is `EhcpRequested` on the student's own
 * stream, and the people asked get an e-mail through the outbox with a link to the student.
 */
@ApiTags('users')
@Controller('api/v1/users/students')
export class EhcpController {
  constructor(
    private readonly access: UserAccess,
    private readonly users: UsersReadModel,
    private readonly commands: Commands,
    @Inject(SQL_CLIENT) private readonly sql: SqlClient,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly outbox: MailOutbox,
  ) {}

  @Get('ehcp-reminder')
  @RequirePermissions(MARKER_PERMISSIONS.admin, EHCP)
  @ApiOkResponse({ type: EhcpReminderList })
  async reminders(@Req() req: AuthenticatedRequest): Promise<EhcpReminderList> {
    const reach = this.reminderScope(actorOf(req));
    const students: UserRow[] = [];
    for await (const row of this.users.stream({
      userTypes: ['student'],
      onEhcpReminderList: true,
      ...studentsFilter(actorOf(req).userId, reach),
    }))
      students.push(row);
    const rows = await ehcpRemindersFor(
      this.sql,
      students.map((s) => s.id),
    );
    const since = new Map(rows.map((r) => [r.student_id, r]));
    return {
      items: students.map((s) => {
        const { latest_ehcp_file } = studentProfile(s);
        const reminder = since.get(s.id);
        return {
          id: s.id,
          first_name: s.first_name,
          last_name: s.last_name,
          display_name: s.full_name,
          customer_id: s.customer_id,
          customer_name: s.customer_name ?? null,
          has_access: s.has_access,
          has_ehcp_file: latest_ehcp_file !== null,
          latest_ehcp_file,
          reminder_since: new Date(reminder?.added_at ?? s.updated_at).toISOString(),
          reminder_set_by: reminder?.added_by ?? null,
        };
      }),
    };
  }

  @Put('ehcp-reminder')
  @RequirePermissions(MARKER_PERMISSIONS.admin, EHCP)
  @ApiBody({
    schema: ID_LIST_SCHEMA,
    description: 'The students to remind about: replaces the list (for a partner, their own students on it)',
  })
  @ApiOkResponse({ type: PositionResponse })
  async setReminders(@Req() req: AuthenticatedRequest, @Body() body: unknown): Promise<PositionResponse> {
    const reach = this.reminderScope(actorOf(req));
    const studentIds = parseIdList(body, MAX_REMINDER_IDS);
    const scope = { userTypes: ['student'], ...studentsFilter(actorOf(req).userId, reach) };
    const found = await this.users.ids({ ...scope, ids: studentIds });
    const missing = studentIds.findIndex((id) => !found.has(id));
    if (missing >= 0)
      throw new Problem(
        HttpStatus.UNPROCESSABLE_ENTITY,
        `body[${missing}]: not a student you can see (${studentIds[missing]})`,
      );
    const within = reach.all ? 'all' : await this.users.ids(scope);
    const { position } = await this.commands.run(
      remindersAggregate,
      { studentIds, within },
      metadataFor(req),
    );
    return { position };
  }

  @Put(':id/ehcp-request')
  @RequirePermissions(EHCP)
  @ApiBody({ schema: ID_LIST_SCHEMA, description: 'The users to ask for the EHCP' })
  @ApiOkResponse({ type: EhcpRequestResult })
  async request(
    @Req() req: AuthenticatedRequest,
    @Param('id', UuidPipe) id: string,
    @Body() body: unknown,
  ): Promise<EhcpRequestResult> {
    const actor = actorOf(req);
    if (!maySendEhcpRequests(actor.permissions, actor.customerType))
      throw forbidden(
        'Sending EHCP requests needs a super admin or admin customer profile with EHCP access and user relations access',
      );
    const student = await this.access.visibleTarget(actor, id).catch(() => {
      throw studentNotFound();
    });
    if (student.user_type !== 'student' || !student.customer_id) throw studentNotFound();
    const recipientIds = parseIdList(body, MAX_REQUEST_RECIPIENTS);
    if (recipientIds.length === 0)
      throw new Problem(HttpStatus.UNPROCESSABLE_ENTITY, 'body: name at least one person to ask');
    const recipients: UserRow[] = [];
    for (const [i, recipientId] of recipientIds.entries()) {
      const row = await this.users.byId(recipientId);
      const refusal = recipientRefusal(
        row && {
          id: row.id,
          userType: row.user_type,
          customerId: row.customer_id,
          canSignIn: row.has_access && !row.is_blocked,
          seesStudent:
            isInternal(row.permissions) ||
            partnerMaySee(partnerVisibility(row.permissions), { userType: 'student', customerType: null }),
        },
        { requesterId: actor.userId, studentCustomerId: student.customer_id },
      );
      if (refusal) throw new Problem(HttpStatus.UNPROCESSABLE_ENTITY, `body[${i}]: ${refusal}`);
      recipients.push(row!);
    }
    const requestId = randomUUID();
    const { position } = await this.access.run(req, {
      type: 'RequestEhcp',
      userId: student.id,
      requestId,
      recipientIds,
    });
    const link = `${this.config.publicUrl}/users/${student.id}/details`;
    const school = actor.customerName ?? 'a partner school';
    for (const r of recipients)
      await this.outbox.enqueue(
        r.notification_email ?? r.email,
        'EHCP requested for a student',
        [
          `Hello ${r.full_name},`,
          '',
          `${actor.displayName} (${school}) asks you for a student's EHCP (Education, Health and Care Plan).`,
          "Please sign in and upload it, or check the one on record, on the student's page:",
          '',
          link,
          '',
          "(The student's name is not sent by e-mail.)",
        ].join('\n'),
      );
    return { id: requestId, position, recipients: recipients.length };
  }

  /** Reminders: administrators and EHCP holders; a partner only with their own customer. */
  private reminderScope(actor: Actor): StudentScope {
    const reach = ehcpStudentScope(actor);
    if (!reach || (!reach.all && !reach.customerId)) throw forbidden();
    return reach;
  }
}
