import { INTERNAL_PERMISSIONS, internalMay, isInternal, isPartner } from '../identity/policy/policy.js';
import { permissionRule } from '../platform/auth/rule.js';

/**
 * Who reads and edits the teaching reference data (pure; decisions 0046, 0049). Every internal user
 * (administrators, teachers) and every partner reads subjects, year groups and products: programmes
 * show their names to all of them. Subjects and year groups are edited with the subject permission,
 * products with the product permission (administrators hold both implicitly).
 */
export const mayReadReference = (perms: ReadonlySet<string>) => isInternal(perms) || isPartner(perms);
export const mayEditSubjects = (perms: ReadonlySet<string>) =>
  internalMay(perms, INTERNAL_PERMISSIONS.SUBJECT);
export const mayEditProducts = (perms: ReadonlySet<string>) =>
  internalMay(perms, INTERNAL_PERMISSIONS.PRODUCT);

export const ReferenceRules = {
  read: permissionRule(mayReadReference),
  editSubjects: permissionRule(
    mayEditSubjects,
    'You need the subject permission to change subjects and year groups',
  ),
  editProducts: permissionRule(mayEditProducts, 'You need the product permission to change products'),
};
