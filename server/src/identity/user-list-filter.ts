import type { Actor } from '../platform/auth/request-context.js';
import { isAdmin, partnerVisibility } from './policy/policy.js';
import { studentScope } from '../core/access/student-scope.js';
import { TYPE_FILTERS, type ListUsersQuery } from './users.dto.js';
import type { UserListFilter, UserSortColumn } from './users.read.js';

/**
 * The read-model filter for a user list query as `actor` may see it: administrators see everyone;
 * partners only users of their own customer, and of those only what their permissions show (spec §6).
 * Shared by the list, the exports and the student-contacts overview, so they scope alike.
 */
export function listFilterFor(actor: Actor, q: ListUsersQuery): UserListFilter {
  const admin = isAdmin(actor.permissions);
  return {
    page: q.page ?? 1,
    size: q.size ?? 50,
    text: (q.query ?? q.name)?.trim() || undefined,
    statuses: q.status,
    userTypes: q.type?.map((t) => TYPE_FILTERS[t]),
    customerTypes: q.customer_type,
    customerId: q.customer_id,
    hasAccess: q.has_access,
    scopeCustomerId: admin ? undefined : actor.customerId,
    partner: admin
      ? undefined
      : {
          selfId: actor.userId,
          customerTypes: partnerVisibility(actor.permissions).customerTypes,
          students: studentScope(actor, { unrestricted: false }),
        },
    sortBy: q.sort_by?.replace(/^-/, '') as UserSortColumn | undefined,
    descending: q.sort_by?.startsWith('-') ?? false,
  };
}
