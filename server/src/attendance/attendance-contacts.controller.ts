import { Body, Controller, Get, HttpStatus, Inject, Param, Put, Req } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiProperty, ApiTags } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsIn, IsUUID, ValidateNested } from 'class-validator';
import {
  attendanceContactsOf,
  customerById,
  NOTIFICATION_FREQUENCIES,
  type NotificationFrequency,
} from '@portal/projections';
import { RequirePermissions } from '../platform/auth/public.decorator.js';
import { Allow } from '../platform/auth/allow.decorator.js';
import { permissionRule } from '../platform/auth/rule.js';
import {
  CurrentActor,
  metadataFor,
  type Actor,
  type AuthenticatedRequest,
} from '../platform/auth/request-context.js';
import { Commands } from '../platform/event-store/commands.js';
import { DomainError } from '../platform/domain/domain-error.js';
import { Problem } from '../platform/http/problem.js';
import { UuidPipe } from '../platform/http/validation.js';
import type { SqlClient } from '../platform/sql/sql-client.js';
import { SQL_CLIENT } from '../platform/tokens.js';
import { MARKER_PERMISSIONS, PARTNER, isPartner } from '../identity/policy/policy.js';
import { UsersReadModel } from '../identity/users.read.js';
import { customerAggregate } from '../customers/customer.decider.js';
import { mayEditAttendanceContacts, mayReadAttendanceContacts } from './attendance.policy.js';

/** A school has a handful of contacts; the cap keeps one call small. */
const MAX_CONTACTS = 50;

export class AttendanceContactBody {
  @ApiProperty({ format: 'uuid', description: 'A partner user of this customer' })
  @IsUUID()
  user_id!: string;
  @ApiProperty({
    enum: NOTIFICATION_FREQUENCIES,
    description: 'each-change: an e-mail per alert; daily: one digest of the previous day',
  })
  @IsIn(NOTIFICATION_FREQUENCIES)
  notification_frequency!: NotificationFrequency;
}

export class AttendanceContactsBody {
  @ApiProperty({ type: [AttendanceContactBody], description: 'The whole list (replaces the current one)' })
  @IsArray()
  @ArrayMaxSize(MAX_CONTACTS)
  @ValidateNested({ each: true })
  @Type(() => AttendanceContactBody)
  contacts!: AttendanceContactBody[];
}

export class AttendanceContactView {
  @ApiProperty({ format: 'uuid' }) user_id!: string;
  @ApiProperty() full_name!: string;
  @ApiProperty() email!: string;
  @ApiProperty({ type: String, nullable: true, description: 'Customer role' }) customer_type!: string | null;
  @ApiProperty({ enum: NOTIFICATION_FREQUENCIES }) notification_frequency!: NotificationFrequency;
}

export class AttendanceContactsView {
  @ApiProperty({ format: 'uuid' }) customer_id!: string;
  @ApiProperty({ type: [AttendanceContactView] }) contacts!: AttendanceContactView[];
  @ApiProperty({ description: 'Whether the reader may change the list' }) can_edit!: boolean;
  @ApiProperty({ type: String, nullable: true, description: 'Position of the last change' })
  position!: string | null;
}

export class AttendanceContactCandidateView {
  @ApiProperty({ format: 'uuid' }) user_id!: string;
  @ApiProperty() full_name!: string;
  @ApiProperty() email!: string;
  @ApiProperty({ type: String, nullable: true, description: 'Customer role' }) customer_type!: string | null;
}

export class AttendanceContactCandidatesView {
  @ApiProperty({ type: [AttendanceContactCandidateView] }) items!: AttendanceContactCandidateView[];
}

/** A partner user as the contacts views show them. */
const personOf = (user: {
  id: string;
  full_name: string;
  email: string;
  customer_type: string | null;
}): AttendanceContactCandidateView => ({
  user_id: user.id,
  full_name: user.full_name,
  email: user.email,
  customer_type: user.customer_type,
});

const Rules = {
  read: permissionRule(mayReadAttendanceContacts),
  edit: permissionRule(mayEditAttendanceContacts, 'You may not change the attendance contacts'),
};

/**
 * A school's attendance contacts (decision 0061): the partner users told live and by e-mail about an
 * absence with no reason and about amendments, each with their e-mail frequency (spec §3
 * "each-change", "daily"). Partners with EDIT_ATTENDANCE_CONTACTS maintain their own school's list;
 * customer editors and attendance staff any school's. Other partners of the school read it.
 */
@ApiTags('attendance')
@Controller('api/v1/customers/:id/attendance-contacts')
export class AttendanceContactsController {
  constructor(
    private readonly commands: Commands,
    private readonly users: UsersReadModel,
    @Inject(SQL_CLIENT) private readonly sql: SqlClient,
  ) {}

  /** 404 for a customer the actor may not see (a partner of another school) or that does not exist. */
  private async requireCustomer(actor: Actor, id: string): Promise<void> {
    if (isPartner(actor.permissions) && actor.customerId !== id)
      throw new Problem(HttpStatus.NOT_FOUND, 'Customer not found');
    if (!(await customerById(this.sql, id))) throw new Problem(HttpStatus.NOT_FOUND, 'Customer not found');
  }

  @Get()
  @RequirePermissions(MARKER_PERMISSIONS.admin, MARKER_PERMISSIONS.teacher, MARKER_PERMISSIONS.partner)
  @Allow(Rules.read)
  @ApiOkResponse({ type: AttendanceContactsView })
  @ApiNotFoundResponse({ description: 'Customer not found' })
  async get(
    @CurrentActor() actor: Actor,
    @Param('id', UuidPipe) id: string,
  ): Promise<AttendanceContactsView> {
    await this.requireCustomer(actor, id);
    const rows = await attendanceContactsOf(this.sql, id);
    return {
      customer_id: id,
      contacts: rows.map((r) => ({
        user_id: r.user_id,
        full_name: r.full_name,
        email: r.email,
        customer_type: r.customer_type,
        notification_frequency: r.frequency,
      })),
      can_edit: mayEditAttendanceContacts(actor.permissions),
      position: null,
    };
  }

  /**
   * Whom the list may hold: the school's partner users who see attendance (SEE_ATTENDANCE), not erased,
   * by name. The screen offers only these, so the PUT's 422 is left for a change between the two calls.
   */
  @Get('candidates')
  @RequirePermissions(MARKER_PERMISSIONS.admin, MARKER_PERMISSIONS.teacher, MARKER_PERMISSIONS.partner)
  @Allow(Rules.edit)
  @ApiOkResponse({ type: AttendanceContactCandidatesView })
  @ApiNotFoundResponse({ description: 'Customer not found' })
  async candidates(
    @CurrentActor() actor: Actor,
    @Param('id', UuidPipe) id: string,
  ): Promise<AttendanceContactCandidatesView> {
    await this.requireCustomer(actor, id);
    const items: AttendanceContactCandidateView[] = [];
    for await (const user of this.users.stream({ customerId: id, userTypes: ['partner'] })) {
      if (user.personal_data_erased || !user.permissions.includes(PARTNER.SEE_ATTENDANCE)) continue;
      items.push(personOf(user));
    }
    return { items };
  }

  /** Replaces the list; answers it as written (send `position` as X-Min-Position on the next read). */
  @Put()
  @RequirePermissions(MARKER_PERMISSIONS.admin, MARKER_PERMISSIONS.teacher, MARKER_PERMISSIONS.partner)
  @Allow(Rules.edit)
  @ApiOkResponse({ type: AttendanceContactsView })
  @ApiNotFoundResponse({ description: 'Customer not found' })
  async put(
    @CurrentActor() actor: Actor,
    @Req() req: AuthenticatedRequest,
    @Param('id', UuidPipe) id: string,
    @Body() body: AttendanceContactsBody,
  ): Promise<AttendanceContactsView> {
    await this.requireCustomer(actor, id);
    const contacts: AttendanceContactView[] = [];
    for (const [i, c] of body.contacts.entries()) {
      const user = await this.users.byId(c.user_id);
      if (!user || user.personal_data_erased || user.user_type !== 'partner' || user.customer_id !== id)
        throw new DomainError(
          'invalid',
          `contacts[${i}].user_id: ${c.user_id} is not a partner user of this customer`,
        );
      if (!user.permissions.includes(PARTNER.SEE_ATTENDANCE))
        throw new DomainError(
          'invalid',
          `contacts[${i}].user_id: ${user.full_name} does not see attendance (${PARTNER.SEE_ATTENDANCE})`,
        );
      contacts.push({ ...personOf(user), notification_frequency: c.notification_frequency });
    }
    const { position } = await this.commands.run(
      customerAggregate,
      {
        type: 'SetAttendanceContacts',
        customerId: id,
        contacts: body.contacts.map((c) => ({ userId: c.user_id, frequency: c.notification_frequency })),
      },
      metadataFor(req),
    );
    return { customer_id: id, contacts, can_edit: true, position };
  }
}
