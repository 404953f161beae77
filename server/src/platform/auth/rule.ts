import type { Actor } from './request-context.js';

/** The answer's detail when a rule refuses and names none: the same as `@RequirePermissions`. */
export const DEFAULT_REFUSAL = 'You do not have permission to do this';

/**
 * A route-level policy rule (decision 0046): a pure predicate over the actor, and the detail of the
 * 403 answered when it says no. Domains declare theirs in `<domain>.policy.ts`.
 */
export interface Rule {
  readonly test: (actor: Actor) => boolean;
  readonly detail: string;
}

/** A rule from a predicate; `detail` is what a refused caller reads (`{ detail }`, 403). */
export const rule = (test: (actor: Actor) => boolean, detail: string = DEFAULT_REFUSAL): Rule => ({
  test,
  detail,
});

/** A rule over the actor's permissions only (most policy predicates take a permission set). */
export const permissionRule = (
  test: (permissions: ReadonlySet<string>) => boolean,
  detail: string = DEFAULT_REFUSAL,
): Rule => rule((actor) => test(actor.permissions), detail);

/** The first rule the actor fails, or null: what the guard applies. */
export function refusalOf(rules: readonly Rule[] | undefined, actor: Actor): Rule | null {
  return rules?.find((r) => !r.test(actor)) ?? null;
}
