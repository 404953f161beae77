import { INTERNAL_PERMISSIONS, internalMay } from '../policy/policy.js';
import { permissionRule } from '../../platform/auth/rule.js';

/** Internal users with "permission templates" (administrators implicitly) manage them (decision 0046). */
export const mayManageTemplates = (perms: ReadonlySet<string>) =>
  internalMay(perms, INTERNAL_PERMISSIONS.TEMPLATES);

export const PermissionTemplateRules = { manage: permissionRule(mayManageTemplates) };
