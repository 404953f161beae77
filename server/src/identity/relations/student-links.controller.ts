import { Body, Controller, Get, HttpStatus, Param, Put, Req } from '@nestjs/common';
import {
  ApiForbiddenResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiProperty,
  ApiTags,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsUUID } from 'class-validator';
import type { UserRow } from '@portal/projections';
import { RequirePermissions } from '../../platform/auth/public.decorator.js';
import { type Actor, type AuthenticatedRequest, actorOf } from '../../platform/auth/request-context.js';
import { Problem } from '../../platform/http/problem.js';
import type { CommandResult } from '../commands/user-command.handler.js';
import { SimpleUserList, toSimpleUser } from '../lists/user-lists.controller.js';
import { MARKER_PERMISSIONS, PARTNER, isAdmin, isPartner } from '../policy/policy.js';
import { UserAccess, forbidden } from '../user-access.js';
import type { LinkCandidate } from '../user.decider.js';
import type { UserTypeName } from '../user.events.js';
import { PositionResponse } from '../users.dto.js';
import { UsersReadModel } from '../users.read.js';
import { StudentLinksReadModel } from './student-links.read.js';
import { UuidPipe } from '../../platform/http/validation.js';

/** At most this many students linked to one partner user in one request. */
export const MAX_LINKED_STUDENTS = 500;

export class StudentLinksBody {
  @ApiProperty({
    type: [String],
    format: 'uuid',
    description: "The complete list of the partner user's linked students (students of their customer)",
  })
  @IsArray()
  @ArrayMaxSize(MAX_LINKED_STUDENTS)
  @IsUUID('all', { each: true, message: 'each value in student_ids must be a UUID' })
  student_ids!: string[];
}

const notAPartner = () =>
  new Problem(HttpStatus.UNPROCESSABLE_ENTITY, 'id: only partner users have linked students');
const notAStudent = () =>
  new Problem(HttpStatus.UNPROCESSABLE_ENTITY, 'id: only students have linked partner users');

/**
 * Partner ↔ student relations ("selected students", spec §6; docs/decisions/0034). The links live on
 * the partner user's stream (`UserStudentLinksChanged`). Administrators manage everyone's links;
 * partner super-admins and admins with PARTNER_CAN_ACCESS_USER_RELATIONS those of users of their own
 * customer they can see; a partner user reads their own. Others are refused (403) or, for users they
 * cannot see, not found (404).
 */
@ApiTags('users')
@Controller('api/v1/users')
export class StudentLinksController {
  constructor(
    private readonly access: UserAccess,
    private readonly users: UsersReadModel,
    private readonly links: StudentLinksReadModel,
  ) {}

  @Get(':id/linked-students')
  @RequirePermissions(MARKER_PERMISSIONS.admin, MARKER_PERMISSIONS.partner)
  @ApiOkResponse({ type: SimpleUserList, description: "The partner user's linked students, by name" })
  @ApiNotFoundResponse({ description: 'User not found' })
  @ApiUnprocessableEntityResponse({ description: 'The user is not a partner user' })
  async linkedStudents(
    @Req() req: AuthenticatedRequest,
    @Param('id', UuidPipe) id: string,
  ): Promise<SimpleUserList> {
    const actor = actorOf(req);
    const target = await this.access.visibleTarget(actor, id);
    if (target.id !== actor.userId) this.requireRelationsAccess(actor);
    if (target.user_type !== 'partner') throw notAPartner();
    const rows = await this.links.studentsOf(target.id);
    return { items: rows.map((r) => toSimpleUser(r, false)) };
  }

  @Put(':id/linked-students')
  @RequirePermissions(MARKER_PERMISSIONS.admin, PARTNER.ACCESS_USER_RELATIONS)
  @ApiOkResponse({ type: PositionResponse })
  @ApiForbiddenResponse({
    description: 'Not an administrator or a partner (super-)admin with user relations',
  })
  @ApiNotFoundResponse({ description: 'User not found' })
  @ApiUnprocessableEntityResponse({
    description: 'Not a partner user, or an id that is not a student of the same customer',
  })
  async setLinkedStudents(
    @Req() req: AuthenticatedRequest,
    @Param('id', UuidPipe) id: string,
    @Body() body: StudentLinksBody,
  ): Promise<CommandResult> {
    const actor = actorOf(req);
    const target = await this.access.visibleTarget(actor, id);
    this.requireRelationsAccess(actor);
    if (target.user_type !== 'partner') throw notAPartner();
    const students: LinkCandidate[] = [];
    for (const studentId of new Set(body.student_ids.map((s) => s.toLowerCase()))) {
      const row = await this.users.byId(studentId);
      students.push({
        id: studentId,
        userType: (row?.user_type as UserTypeName | undefined) ?? null,
        customerId: row?.customer_id ?? null,
      });
    }
    return this.access.run(req, { type: 'ChangeStudentLinks', userId: target.id, students });
  }

  @Get(':id/linked-partners')
  @RequirePermissions(MARKER_PERMISSIONS.admin, PARTNER.ACCESS_USER_RELATIONS)
  @ApiOkResponse({ type: SimpleUserList, description: 'The partner users a student is linked to, by name' })
  @ApiNotFoundResponse({ description: 'User not found' })
  @ApiUnprocessableEntityResponse({ description: 'The user is not a student' })
  async linkedPartners(
    @Req() req: AuthenticatedRequest,
    @Param('id', UuidPipe) id: string,
  ): Promise<SimpleUserList> {
    const actor = actorOf(req);
    const target = await this.access.visibleTarget(actor, id);
    this.requireRelationsAccess(actor);
    if (target.user_type !== 'student') throw notAStudent();
    const rows: UserRow[] = [];
    // A partner admin sees only the partner users their SEE_* permissions show.
    for (const row of await this.links.partnersOf(target.id))
      if (await this.access.maySee(actor, row)) rows.push(row);
    return { items: rows.map((r) => toSimpleUser(r, false)) };
  }

  /** Administrators; partner super-admins and admins holding PARTNER_CAN_ACCESS_USER_RELATIONS. */
  private requireRelationsAccess(actor: Actor): void {
    if (isAdmin(actor.permissions)) return;
    const partnerAdmin =
      isPartner(actor.permissions) &&
      (actor.customerType === 'super-admin' || actor.customerType === 'admin') &&
      actor.permissions.has(PARTNER.ACCESS_USER_RELATIONS);
    if (!partnerAdmin) throw forbidden();
  }
}
