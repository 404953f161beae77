import type { Request } from 'express';
import type { EventMetadata } from '../event-store/event-store.js';

/** Who is calling: set on the request by the AuthGuard. */
export interface Actor {
  userId: string;
  sessionId: string;
  /** The administrator behind an impersonation session. */
  impersonatorId: string | null;
  permissions: ReadonlySet<string>;
}

export type AuthenticatedRequest = Request & { actor?: Actor; correlationId?: string };

/** Metadata for events written on behalf of this request. */
export function metadataFor(req: AuthenticatedRequest): Partial<EventMetadata> {
  return {
    actorId: req.actor?.userId ?? null,
    impersonatorId: req.actor?.impersonatorId ?? null,
    correlationId: req.correlationId ?? null,
  };
}
