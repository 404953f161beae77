import type { LoadedActor } from './request-context.js';

/**
 * Implemented by the identity module: what the guard (and the live channel) need to know about a
 * signed-in user. `customerId`: a partner user's customer, when known (gives the `customer:{id}` room).
 */
export interface ActorLoader {
  /** `displayName` is also shown to other editors. */
  load(userId: string): Promise<(LoadedActor & { hasAccess: boolean }) | null>;
}

export const ACTOR_LOADER = Symbol('ACTOR_LOADER');
