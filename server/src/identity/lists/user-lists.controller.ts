import { Controller, Get, Query, Req } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { ApiOkResponse, ApiProperty, ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsOptional, IsUUID } from 'class-validator';
import type { UserRow } from '@portal/projections';
import { AnyAuthenticatedUser, RequirePermissions } from '../../platform/auth/public.decorator.js';
import {
  type Actor,
  type AuthenticatedRequest,
  CurrentActor,
  actorOf,
} from '../../platform/auth/request-context.js';
import { LiveServer } from '../../platform/live/live-server.js';
import { MARKER_PERMISSIONS, onlineStatusScope, seesFullUserRecords } from '../policy/policy.js';
import { UserAccess, forbidden } from '../user-access.js';
import { rowFor, userViewFor } from '../user.view.js';
import { ContactView, ListUsersQuery, UserPage } from '../users.dto.js';
import { UsersReadModel, type UserListFilter } from '../users.read.js';
import { pagedUsers, scopeFor } from './user-list-query.js';
import { StudentLinksReadModel } from '../relations/student-links.read.js';

const { admin: ADMIN, partner: PARTNER, teacher: TEACHER } = MARKER_PERMISSIONS;
/** Simple lists are not paged; this bounds one answer. */
export const SIMPLE_LIST_LIMIT = 5000;

const toBoolean = ({ value }: { value: unknown }) =>
  value === 'true' ? true : value === 'false' ? false : value;

export class HasAccessQuery {
  @ApiPropertyOptional({ type: Boolean, description: 'true: only users with access; false: only without' })
  @IsOptional()
  @Transform(toBoolean)
  @IsBoolean()
  has_access?: boolean;
}

export class SimpleStudentsQuery extends HasAccessQuery {
  @ApiPropertyOptional({ format: 'uuid' }) @IsOptional() @IsUUID() customer_id?: string;
  @ApiPropertyOptional({
    format: 'uuid',
    description: 'Students whose one-page profile has this year_group_id (decision 0035)',
  })
  @IsOptional()
  @IsUUID()
  year_group_id?: string;
  @ApiPropertyOptional({ type: Boolean, description: 'Include each student’s contacts' })
  @IsOptional()
  @Transform(toBoolean)
  @IsBoolean()
  with_contacts?: boolean;
}

export class ActiveCountQuery {
  @ApiPropertyOptional({ format: 'uuid' }) @IsOptional() @IsUUID() customer_id?: string;
}

export class OnlineStatusQuery {
  @ApiPropertyOptional({
    type: [String],
    description: 'Ask about these users (repeat the key); default: everyone online',
  })
  @IsOptional()
  @Transform(({ value }: { value: unknown }) =>
    value === undefined ? undefined : Array.isArray(value) ? (value as unknown[]) : [value],
  )
  @IsUUID('all', { each: true })
  user_ids?: string[];
}

/** Spec §3 "Simple user". */
export class SimpleUser {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() login!: string;
  @ApiProperty() first_name!: string;
  @ApiProperty() last_name!: string;
  @ApiProperty({ description: 'First and last name' }) display_name!: string;
  @ApiProperty() email!: string;
  @ApiProperty({ nullable: true, type: String }) birth_date!: string | null;
  @ApiProperty() has_access!: boolean;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) scheduled_for_deactivation!:
    string | null;
  @ApiProperty() is_blocked!: boolean;
  @ApiProperty({ nullable: true, type: String }) customer_name!: string | null;
  @ApiProperty({ nullable: true, type: String, description: "A student's year group (one-page profile)" })
  year_group!: string | null;
  @ApiProperty({ type: [ContactView], nullable: true, description: 'Only with with_contacts=true' })
  contacts!: ContactView[] | null;
}

export class SimpleUserList {
  @ApiProperty({ type: [SimpleUser] }) items!: SimpleUser[];
}

/** A page of simple users: the typed lists as non-administrator staff get them (decision 0037). */
export class SimpleUserPage {
  @ApiProperty({ type: [SimpleUser] }) items!: SimpleUser[];
  @ApiProperty() total!: number;
  @ApiProperty() page!: number;
  @ApiProperty() size!: number;
  @ApiProperty({ description: 'As on UserPage (decision 0069)' }) total_exact!: boolean;
}

export class ActiveCount {
  @ApiProperty({ description: 'Students with access who are not blocked' }) count!: number;
}

export class OnlineUser {
  @ApiProperty({ format: 'uuid' }) user_id!: string;
  @ApiProperty() online!: boolean;
  @ApiProperty({ description: 'Open live connections (browser tabs)' }) connections!: number;
}

export class OnlineStatus {
  @ApiProperty({ type: [OnlineUser] }) items!: OnlineUser[];
}

/** A user row as a spec §3 "Simple user" (contacts only when asked for). */
export const toSimpleUser = (r: UserRow, withContacts: boolean): SimpleUser => ({
  id: r.id,
  login: r.login,
  first_name: r.first_name,
  last_name: r.last_name,
  display_name: r.full_name,
  email: r.email,
  birth_date: r.birth_date,
  has_access: r.has_access,
  scheduled_for_deactivation: r.scheduled_for_deactivation
    ? new Date(r.scheduled_for_deactivation).toISOString()
    : null,
  is_blocked: r.is_blocked,
  customer_name: r.customer_name ?? null,
  year_group: r.user_type === 'student' ? (r.year_group ?? null) : null,
  contacts: withContacts ? r.contacts : null,
});

/**
 * Typed user lists (spec §7 "Users"): students, tutors, customer users, their simple forms, the
 * caller's linked users, the active student count and who is online. Partners see only their own
 * customer's users that their SEE_* permissions show. Registered before UsersController so that
 * `users/students` and friends are not taken for `users/:id`.
 */
@ApiTags('users')
@Controller('api/v1/users')
export class UserListsController {
  constructor(
    private readonly access: UserAccess,
    private readonly users: UsersReadModel,
    private readonly modules: ModuleRef,
    private readonly links: StudentLinksReadModel,
  ) {}

  @Get('students')
  @RequirePermissions(ADMIN, PARTNER)
  @ApiOkResponse({ type: UserPage })
  students(@Req() req: AuthenticatedRequest, @Query() q: ListUsersQuery): Promise<UserPage | SimpleUserPage> {
    return this.page(req, q, 'student');
  }

  @Get('students/simple')
  @RequirePermissions(ADMIN, PARTNER)
  @ApiOkResponse({ type: SimpleUserList })
  async simpleStudents(
    @Req() req: AuthenticatedRequest,
    @Query() q: SimpleStudentsQuery,
  ): Promise<SimpleUserList> {
    return this.simpleList(req, 'student', q.has_access, q.customer_id, q.with_contacts ?? false, {
      yearGroupId: q.year_group_id?.toLowerCase(),
    });
  }

  @Get('students/count/active')
  @RequirePermissions(ADMIN, PARTNER)
  @ApiOkResponse({ type: ActiveCount })
  async activeStudents(@Req() req: AuthenticatedRequest, @Query() q: ActiveCountQuery): Promise<ActiveCount> {
    const actor = actorOf(req);
    const { total } = await this.users.list({
      page: 1,
      size: 1,
      userTypes: ['student'],
      statuses: ['active'],
      customerId: q.customer_id,
      ...scopeFor(actor),
    });
    return { count: total };
  }

  @Get('tutors')
  @RequirePermissions(ADMIN, TEACHER)
  @ApiOkResponse({
    type: UserPage,
    description:
      'Administrators get user views; teachers get the same page of simple users (SimpleUserPage): no ' +
      'permission lists, quality-issue reasons or notes (decision 0037)',
  })
  tutors(@Req() req: AuthenticatedRequest, @Query() q: ListUsersQuery): Promise<UserPage | SimpleUserPage> {
    return this.page(req, q, 'teacher');
  }

  @Get('tutors/simple')
  @RequirePermissions(ADMIN, TEACHER)
  @ApiOkResponse({ type: SimpleUserList })
  simpleTutors(@Req() req: AuthenticatedRequest, @Query() q: HasAccessQuery): Promise<SimpleUserList> {
    return this.simpleList(req, 'teacher', q.has_access, undefined, false);
  }

  @Get('customers')
  @RequirePermissions(ADMIN, PARTNER)
  @ApiOkResponse({ type: UserPage })
  customers(
    @Req() req: AuthenticatedRequest,
    @Query() q: ListUsersQuery,
  ): Promise<UserPage | SimpleUserPage> {
    return this.page(req, q, 'partner');
  }

  @Get('linked-users/simple')
  @AnyAuthenticatedUser()
  @ApiOkResponse({
    type: SimpleUserList,
    description:
      "The caller's relations (decision 0034): a partner user's linked students, a student's linked " +
      'partner users; internal users have none',
  })
  async linkedUsers(@Req() req: AuthenticatedRequest, @Query() q: HasAccessQuery): Promise<SimpleUserList> {
    const actor = actorOf(req);
    let rows: UserRow[] = [];
    if (actor.userType === 'partner') rows = await this.links.studentsOf(actor.userId, q.has_access);
    else if (actor.userType === 'student') rows = await this.links.partnersOf(actor.userId, q.has_access);
    return { items: rows.map((r) => toSimpleUser(rowFor(actor, r), false)) };
  }

  @Get('online/status')
  @RequirePermissions(ADMIN, TEACHER)
  @ApiOkResponse({
    type: OnlineStatus,
    description:
      "Administrators: anyone's; teachers: other tutors' only (ids of other users are left out), decision 0037",
  })
  async online(@CurrentActor() actor: Actor, @Query() q: OnlineStatusQuery): Promise<OnlineStatus> {
    const scope = onlineStatusScope(actor.permissions);
    if (!scope) throw forbidden();
    const counts = new Map<string, number>();
    const live = this.modules.get(LiveServer, { strict: false });
    const sockets = (await live.namespace?.fetchSockets()) ?? [];
    for (const socket of sockets) {
      const userId = (socket.data as { userId?: string }).userId;
      if (userId) counts.set(userId, (counts.get(userId) ?? 0) + 1);
    }
    let ids = q.user_ids ? [...new Set(q.user_ids.map((id) => id.toLowerCase()))] : [...counts.keys()].sort();
    if (scope !== 'all') {
      const readable = await this.users.ids({ ids, userTypes: [...scope] });
      ids = ids.filter((id) => readable.has(id));
    }
    return {
      items: ids.map((id) => ({ user_id: id, online: counts.has(id), connections: counts.get(id) ?? 0 })),
    };
  }

  /** A typed list: user views for those who read full records, simple users for other staff. */
  private async page(
    req: AuthenticatedRequest,
    q: ListUsersQuery,
    userType: string,
  ): Promise<UserPage | SimpleUserPage> {
    const actor = actorOf(req);
    const { rows, ...page } = await pagedUsers(this.users, actor, q, [userType]);
    if (seesFullUserRecords(actor.permissions))
      return { items: rows.map((r) => userViewFor(actor, r)), ...page };
    return { items: rows.map((r) => toSimpleUser(rowFor(actor, r), false)), ...page };
  }

  private async simpleList(
    req: AuthenticatedRequest,
    userType: string,
    hasAccess: boolean | undefined,
    customerId: string | undefined,
    withContacts: boolean,
    extra: Pick<UserListFilter, 'yearGroupId'> = {},
  ): Promise<SimpleUserList> {
    const actor = actorOf(req);
    const { rows } = await this.users.list({
      page: 1,
      size: SIMPLE_LIST_LIMIT,
      userTypes: [userType],
      hasAccess,
      customerId,
      ...extra,
      ...scopeFor(actor),
    });
    return { items: rows.map((r) => toSimpleUser(rowFor(actor, r), withContacts)) };
  }
}
