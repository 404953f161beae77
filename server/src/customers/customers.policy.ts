import { INTERNAL_PERMISSIONS, internalMay, isPartner } from '../identity/policy/policy.js';
import { permissionRule } from '../platform/auth/rule.js';
import type { Actor } from '../platform/auth/request-context.js';
import { NO_CUSTOMER } from '../core/access/student-scope.js';

/** Who may read and edit customers (pure; decision 0046). */
const EDIT = INTERNAL_PERMISSIONS.CUSTOMER_EDITS;

/** Internal users with "customer edits" (administrators hold it implicitly). */
export const mayEditCustomers = (perms: ReadonlySet<string>) => internalMay(perms, EDIT);

/** Customer editors read every customer; partners read their own. */
export const mayReadCustomers = (perms: ReadonlySet<string>) => mayEditCustomers(perms) || isPartner(perms);

/** Undefined for customer editors (all customers); a partner's own customer id otherwise. */
export function customerScope(actor: Pick<Actor, 'permissions' | 'customerId'>): string | undefined {
  return mayEditCustomers(actor.permissions) ? undefined : (actor.customerId ?? NO_CUSTOMER);
}

export const CustomerRules = {
  read: permissionRule(mayReadCustomers),
  edit: permissionRule(mayEditCustomers),
};
