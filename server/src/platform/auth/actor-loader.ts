/**
 * Implemented by the identity module: what the guard (and the live channel) need to know about a
 * signed-in user. `customerId`: a partner user's customer, when known (gives the `customer:{id}` room).
 */
export interface ActorLoader {
  load(userId: string): Promise<{
    hasAccess: boolean;
    permissions: string[];
    customerId: string | null;
    customerType: string | null;
    userType: string;
    /** Shown to other editors. */
    displayName?: string;
  } | null>;
}

export const ACTOR_LOADER = Symbol('ACTOR_LOADER');
