import { SetMetadata } from '@nestjs/common';
import type { Rule } from './rule.js';

export { DEFAULT_REFUSAL, permissionRule, refusalOf, rule, type Rule } from './rule.js';

export const ALLOW = 'portal:allow';

/**
 * The signed-in caller must satisfy every rule (checked by the global AuthGuard after the session and
 * after `@RequirePermissions`, before pipes and the handler). The first rule that says no answers 403
 * with its detail. A route with `@Allow(...)` alone is open to any signed-in user the rules accept, so
 * it counts as guarded.
 */
export const Allow = (...rules: Rule[]) => SetMetadata(ALLOW, rules);
