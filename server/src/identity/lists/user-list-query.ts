import type { UserRow } from '@portal/projections';
import { isAdmin, isPartner, partnerVisibility } from '../policy/policy.js';
import { studentScope, type StudentScope } from '../../core/access/student-scope.js';
import type { Actor } from '../../platform/auth/request-context.js';
import { TYPE_FILTERS, type ListUsersQuery } from '../users.dto.js';
import { UsersReadModel, type UserListFilter, type UserSortColumn } from '../users.read.js';

/**
 * The read filter for a caller: administrators and internal users see everyone the route lets them
 * list; partners only users of their own customer that their SEE_* permissions show (and themselves).
 */
export function scopeFor(actor: Actor): Pick<UserListFilter, 'scopeCustomerId' | 'partner'> {
  if (isAdmin(actor.permissions) || !isPartner(actor.permissions)) return {};
  return {
    scopeCustomerId: actor.customerId,
    partner: {
      selfId: actor.userId,
      customerTypes: partnerVisibility(actor.permissions).customerTypes,
      students: studentScope(actor, { unrestricted: false }),
    },
  };
}

/**
 * A student list's filter from a student scope (`core/access/student-scope.ts`): nothing for an
 * unrestricted scope; else the scope's customer (none matches a null customer) and, when it is limited
 * to linked students, the ones linked to `selfId`. For lists of students only (`userTypes: ['student']`).
 */
export function studentsFilter(
  selfId: string,
  students: StudentScope,
): Pick<UserListFilter, 'scopeCustomerId' | 'partner'> {
  if (students.all) return {};
  return { scopeCustomerId: students.customerId, partner: { selfId, students, customerTypes: [] } };
}

/**
 * Past this many users a page stops counting (decision 0069): the exact count was most of a list's
 * cost at 100,000 users on the embedded database. `exact_total=true` asks for it anyway.
 */
export const USER_LIST_COUNT_UP_TO = 10_000;

/** GET /users/ and its typed variants (students, tutors, customers): one page of user rows. */
export async function pagedUsers(
  users: UsersReadModel,
  actor: Actor,
  q: ListUsersQuery,
  userTypes?: string[],
  countUpTo = USER_LIST_COUNT_UP_TO,
): Promise<{ rows: UserRow[]; total: number; total_exact: boolean; page: number; size: number }> {
  const page = q.page ?? 1;
  const size = q.size ?? 50;
  const sort = q.sort_by?.replace(/^-/, '') as UserSortColumn | undefined;
  const { rows, total, total_exact } = await users.list({
    page,
    size,
    text: (q.query ?? q.name)?.trim() || undefined,
    statuses: q.status,
    userTypes: userTypes ?? q.type?.map((t) => TYPE_FILTERS[t]),
    customerTypes: q.customer_type,
    customerId: q.customer_id,
    hasAccess: q.has_access,
    ...scopeFor(actor),
    sortBy: sort,
    descending: q.sort_by?.startsWith('-') ?? false,
    countUpTo: q.exact_total ? undefined : countUpTo,
  });
  return { rows, total, total_exact, page, size };
}
