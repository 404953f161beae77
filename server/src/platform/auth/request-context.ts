import { createParamDecorator, HttpStatus, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import type { EventMetadata } from '../event-store/event-store.js';
import { Problem } from '../http/problem.js';

/**
 * Who is calling: set on the request by the AuthGuard, with what the guard loaded anyway (decision
 * 0046), so handlers and policies need not read the caller's own row again.
 */
export interface Actor {
  userId: string;
  sessionId: string;
  /** The administrator behind an impersonation session. */
  impersonatorId: string | null;
  permissions: ReadonlySet<string>;
  /** The caller's customer (partner-side users), or null. */
  customerId: string | null;
  /** The caller's customer's type (`school`, `local_authority`, ...), or null. */
  customerType: string | null;
  /** `admin`, `teacher`, `partner`, `student`, `parent`, ... as stored on the user. */
  userType: string;
  /** First name, and first and last name ("full name"), for greetings and mails sent on their behalf. */
  firstName: string;
  displayName: string;
  /** The caller's customer's name, or null. */
  customerName: string | null;
}

/** What an `ActorLoader` gives for a user, minus the access flag: the actor's fields from their row. */
export type LoadedActor = Pick<
  Actor,
  'customerId' | 'customerType' | 'userType' | 'firstName' | 'displayName' | 'customerName'
> & { permissions: readonly string[] };

/** The actor of a verified session, from what the loader read of the user (one read per request). */
export function actorFrom(
  session: { id: string; userId: string; impersonatorId: string | null },
  loaded: LoadedActor,
): Actor {
  return {
    userId: session.userId,
    sessionId: session.id,
    impersonatorId: session.impersonatorId,
    permissions: new Set(loaded.permissions),
    customerId: loaded.customerId,
    customerType: loaded.customerType,
    userType: loaded.userType,
    firstName: loaded.firstName,
    displayName: loaded.displayName,
    customerName: loaded.customerName,
  };
}

export type AuthenticatedRequest = Request & { actor?: Actor; correlationId?: string };

/** The actor of a guarded request (throws 401 if a route without a session asks for one). */
export function actorOf(req: AuthenticatedRequest): Actor {
  if (!req.actor) throw new Problem(HttpStatus.UNAUTHORIZED, 'Not authenticated');
  return req.actor;
}

/** `@CurrentActor() actor: Actor`: the signed-in caller, never null on a guarded route. */
export const CurrentActor = createParamDecorator((_: unknown, context: ExecutionContext): Actor =>
  actorOf(context.switchToHttp().getRequest<AuthenticatedRequest>()),
);

/** Metadata for events written on behalf of this request. */
export function metadataFor(req: AuthenticatedRequest): Partial<EventMetadata> {
  return {
    actorId: req.actor?.userId ?? null,
    impersonatorId: req.actor?.impersonatorId ?? null,
    correlationId: req.correlationId ?? null,
  };
}
