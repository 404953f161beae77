import { INTERNAL_PERMISSIONS, hasAny, isAdmin } from '../identity/policy/policy.js';
import { permissionRule } from '../platform/auth/rule.js';

/** Administrators holding the network permission create and change networks (decision 0046). */
export const mayModifyNetworks = (perms: ReadonlySet<string>) =>
  isAdmin(perms) && hasAny(perms, INTERNAL_PERMISSIONS.NETWORK);

export const NetworkRules = { modify: permissionRule(mayModifyNetworks) };
