import { INTERNAL_PERMISSIONS, internalMay } from '../policy/policy.js';
import { permissionRule } from '../../platform/auth/rule.js';

/** Internal users with "audit" (administrators hold it implicitly) read histories (decision 0046). */
export const mayAudit = (perms: ReadonlySet<string>) => internalMay(perms, INTERNAL_PERMISSIONS.AUDIT);

export const AuditRules = { audit: permissionRule(mayAudit) };
