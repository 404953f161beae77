import { HttpStatus, Injectable } from '@nestjs/common';
import type { Actor, AuthenticatedRequest } from '../platform/auth/request-context.js';
import { Problem } from '../platform/http/problem.js';
import { randomUUID } from 'node:crypto';
import { PORTAL_NAMESPACE, uuidV5 } from '../platform/uuid.js';
import { PersonalDataVault } from '../platform/personal-data/personal-data-vault.js';
import { AccountActivation } from './activation.controller.js';
import { Credentials } from './credentials.js';
import { CustomFields } from './custom-fields/custom-fields.controller.js';
import { NetworksReadModel } from '../networks/networks.read.js';
import {
  ALL_MARKER_PERMISSIONS,
  hasAny,
  initialPermissions,
  isAdmin,
  type CustomerRole,
  type UserType,
} from './policy/policy.js';
import { UserAccess, forbidden, partnerPermissionsFor } from './user-access.js';
import { UsersReadModel } from './users.read.js';
import { isDomainError } from '../platform/domain/domain-error.js';

/** A user to create: the fields of POST /users/ (already validated). */
export interface NewUser {
  email: string;
  login?: string;
  first_name: string;
  last_name: string;
  user_type: UserType;
  customer_id?: string;
  customer_type?: CustomerRole;
  network_id?: string;
  timezone?: string;
  notes?: string;
  permissions?: string[];
  password?: string;
  custom_fields?: Record<string, unknown>;
}

const ALREADY_EXISTS = 'A user with this login already exists';

/** The login a new user gets: the given one or the e-mail address, trimmed, lower case. */
export const loginOf = (user: Pick<NewUser, 'login' | 'email'>) =>
  (user.login ?? user.email).trim().toLowerCase();

/**
 * Why `actor` may not create `user` (a 403 or 422 Problem), or null when they may: administrators
 * create anyone; partners only the customer-side kinds their ADD_NEW_* permissions allow, for their own
 * customer, without extra permissions.
 */
export function creationDenial(actor: Actor, user: NewUser): Problem | null {
  const extras = user.permissions ?? [];
  if (extras.some((p) => ALL_MARKER_PERMISSIONS.includes(p)))
    return new Problem(
      HttpStatus.UNPROCESSABLE_ENTITY,
      'permissions: marker permissions come from user_type',
    );
  if (isAdmin(actor.permissions)) return null;
  const customerType = user.user_type === 'partner' ? (user.customer_type ?? null) : null;
  const allowed = partnerPermissionsFor('add', { userType: user.user_type, customerType });
  if (!hasAny(actor.permissions, ...allowed) || extras.length > 0) return forbidden();
  if (user.customer_id && user.customer_id !== actor.customerId)
    return forbidden('Partners can only manage users of their own customer');
  return null;
}

/**
 * Creating a user: the one path shared by POST /users/ and the CSV imports. Runs `CreateUser` through
 * the command bus with the caller's metadata; the id is derived from the login, so creating the same
 * login twice appends to the same stream with `no_stream`, which the store refuses (409).
 */
@Injectable()
export class UserCreation {
  constructor(
    private readonly access: UserAccess,
    private readonly users: UsersReadModel,
    private readonly credentials: Credentials,
    private readonly activation: AccountActivation,
    private readonly customFields: CustomFields,
    private readonly networks: NetworksReadModel,
    private readonly vault: PersonalDataVault,
  ) {}

  async create(
    req: AuthenticatedRequest,
    actor: Actor,
    user: NewUser,
    options: { checkedLogin?: boolean } = {},
  ): Promise<{ id: string; position: string }> {
    const denial = creationDenial(actor, user);
    if (denial) throw denial;
    const customerType = user.user_type === 'partner' ? (user.customer_type ?? null) : null;
    const customerId = isAdmin(actor.permissions) ? (user.customer_id ?? null) : actor.customerId;
    const customFields = await this.customFields.check(user.custom_fields, 'create');
    await this.networks.requireKnown(user.network_id);
    const login = loginOf(user);
    if (!options.checkedLogin && (await this.users.byLogin(login)))
      throw new Problem(HttpStatus.CONFLICT, ALREADY_EXISTS);
    // After an erasure (decision 0014) the login is free again, but the derived stream is taken: a new
    // person with the same login gets a fresh id.
    const derivedId = uuidV5(`user:${login}`, PORTAL_NAMESPACE);
    const userId = (await this.vault.isErased(derivedId)) ? randomUUID() : derivedId;
    const permissions = [
      ...new Set([...initialPermissions(user.user_type, customerType), ...(user.permissions ?? [])]),
    ];
    const result = await this.access
      .run(req, {
        type: 'CreateUser',
        data: {
          userId,
          login,
          email: user.email,
          firstName: user.first_name,
          lastName: user.last_name,
          userType: user.user_type,
          permissions,
          customerId,
          customerType,
          networkId: user.network_id ?? null,
          timezone: user.timezone ?? null,
          notes: user.notes ?? null,
          awaitingActivation: !user.password,
          ...(customFields ? { customFields } : {}),
        },
      })
      .catch((e: unknown) => {
        if (isDomainError(e, 'conflict')) throw new Problem(HttpStatus.CONFLICT, ALREADY_EXISTS);
        throw e;
      });
    // Without a password the user chooses one through a mailed activation link (docs/decisions/0016).
    if (user.password) await this.credentials.setPassword(userId, user.password);
    else await this.activation.mailLink({ id: userId, email: user.email, firstName: user.first_name });
    return { id: userId, position: result.position };
  }
}
