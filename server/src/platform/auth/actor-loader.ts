/** Implemented by the identity module: what the guard needs to know about a signed-in user. */
export interface ActorLoader {
  load(userId: string): Promise<{
    hasAccess: boolean;
    permissions: string[];
    /** Shown to other editors. */ displayName?: string;
  } | null>;
}

export const ACTOR_LOADER = Symbol('ACTOR_LOADER');
