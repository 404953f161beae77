import { HttpStatus, Injectable } from '@nestjs/common';
import type { UserRow } from '@portal/projections';
import {
  actorOf,
  metadataFor,
  type Actor,
  type AuthenticatedRequest,
} from '../platform/auth/request-context.js';
import { Problem } from '../platform/http/problem.js';
import { UserCommands, type CommandResult } from './commands/user-command.handler.js';
import type { UserCommand } from './user.decider.js';
import {
  PARTNER,
  hasAny,
  internalMay,
  isAdmin,
  isPartner,
  partnerKindOf,
  partnerMaySee,
  partnerVisibility,
  type CustomerRole,
  type InternalPermission,
  type UserType,
} from './policy/policy.js';
import { UsersReadModel } from './users.read.js';
import { studentInScope, studentScope } from '../core/access/student-scope.js';
import { StudentLinksReadModel } from './relations/student-links.read.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (value: string) => UUID.test(value);

export type PartnerAction = 'add' | 'edit' | 'disable' | 'password' | 'delete';

export const forbidden = (detail = 'You do not have permission to do this') =>
  new Problem(HttpStatus.FORBIDDEN, detail);
const userNotFound = () => new Problem(HttpStatus.NOT_FOUND, 'User not found');

/** The partner permissions that allow an action on a customer-side user of a kind (spec §6). */
export function partnerPermissionsFor(
  action: PartnerAction,
  target: { userType: UserType; customerType: CustomerRole | null },
) {
  const kind = partnerKindOf(target);
  if (!kind) return [];
  switch (action) {
    case 'add':
      return [PARTNER.ADD_NEW[kind]];
    case 'edit':
      return kind === 'STUDENTS'
        ? [PARTNER.EDIT[kind], PARTNER.EDIT_ALL_STUDENTS, PARTNER.EDIT_PROFILE_FOR_SELECTED_USER]
        : [PARTNER.EDIT[kind], PARTNER.EDIT_PROFILE_FOR_SELECTED_USER];
    case 'disable':
      return [PARTNER.DISABLE[kind]];
    case 'password':
      return [PARTNER.CHANGE_PASSWORD_FOR_SELECTED_USER];
    case 'delete':
      return [PARTNER.DELETE[kind]];
  }
}

/** Who may do what to which user, and running user commands: the controller's helpers. */
@Injectable()
export class UserAccess {
  constructor(
    private readonly commands: UserCommands,
    private readonly users: UsersReadModel,
    private readonly links: StudentLinksReadModel,
  ) {}

  run(req: AuthenticatedRequest, command: UserCommand): Promise<CommandResult> {
    return this.commands.run(command, metadataFor(req), {
      userId: actorOf(req).userId,
      permissions: actorOf(req).permissions,
    });
  }

  async targetRow(id: string): Promise<UserRow> {
    if (!UUID.test(id)) throw userNotFound();
    const row = await this.users.byId(id.toLowerCase());
    if (!row) throw userNotFound();
    return row;
  }

  /** Admins see everyone; partners only users of their own customer (others answer 404). */
  async visibleTarget(actor: Actor, id: string): Promise<UserRow> {
    const target = await this.targetRow(id);
    if (await this.maySee(actor, target)) return target;
    throw userNotFound();
  }

  /**
   * Admins see everyone; a partner sees themselves and users of their own customer that their SEE_*
   * permissions show, and students with SEE_ALL_STUDENTS_DETAILS or linked to them (decision 0034).
   */
  async maySee(actor: Actor, target: UserRow): Promise<boolean> {
    if (isAdmin(actor.permissions)) return true;
    if (!isPartner(actor.permissions) || actor.customerId === null) return false;
    if (target.id === actor.userId) return true;
    if (target.customer_id !== actor.customerId) return false;
    // Students: own customer, only linked ones unless SEE_ALL_STUDENTS_DETAILS (the one rule).
    if (target.user_type === 'student')
      return studentInScope(
        studentScope(actor, { unrestricted: false }),
        { id: target.id, customerId: target.customer_id },
        (partnerId, studentId) => this.links.isLinked(partnerId, studentId),
      );
    return partnerMaySee(partnerVisibility(actor.permissions), {
      userType: target.user_type,
      customerType: target.customer_type,
    });
  }

  authorize(actor: Actor, target: UserRow, action: PartnerAction): void {
    if (isAdmin(actor.permissions)) return;
    const allowed = partnerPermissionsFor(action, {
      userType: target.user_type as UserType,
      customerType: target.customer_type as CustomerRole | null,
    });
    if (!isPartner(actor.permissions) || !hasAny(actor.permissions, ...allowed)) throw forbidden();
  }

  async authorizedTarget(req: AuthenticatedRequest, id: string, action: PartnerAction): Promise<UserRow> {
    const actor = actorOf(req);
    const target = await this.visibleTarget(actor, id);
    this.authorize(actor, target, action);
    return target;
  }

  /** Internal users with the named permission (administrators hold every one). */
  async internalTarget(req: AuthenticatedRequest, id: string, permission: InternalPermission) {
    if (!internalMay(actorOf(req).permissions, permission)) throw forbidden();
    return this.targetRow(id);
  }
}
