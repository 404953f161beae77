import { HttpStatus, Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { IS_PUBLIC, REQUIRED_PERMISSIONS } from './public.decorator.js';
import { SessionService } from './session.service.js';
import { actorFrom, type AuthenticatedRequest } from './request-context.js';
import { Problem } from '../http/problem.js';
import { ACTOR_LOADER, type ActorLoader } from './actor-loader.js';
import { MinPositionInterceptor } from '../http/min-position.interceptor.js';
import { ALLOW, refusalOf, type Rule } from './allow.decorator.js';

/** Reads the token from `RequestVerificationToken` (the spec's header) or `Authorization: Bearer`. */
export function tokenFrom(req: AuthenticatedRequest): string | null {
  const header = req.headers['requestverificationtoken'];
  const value = Array.isArray(header) ? header[0] : header;
  if (value) return value.trim();
  const auth = req.headers.authorization;
  if (auth?.toLowerCase().startsWith('bearer ')) return auth.slice(7).trim();
  return null;
}

/**
 * Global guard: every route needs a live session unless marked `@Public()`; routes with
 * `@RequirePermissions(...)` also need one of the named permissions, and routes with `@Allow(...)`
 * must pass every rule (403 with the refusing rule's detail).
 * No token → 401; a token that cannot be verified → 403 "Could not validate credentials";
 * an ended (revoked, expired, idle) session → 401; a user that no longer exists → 404 "User not found".
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly sessions: SessionService,
    @Inject(ACTOR_LOADER) private readonly actors: ActorLoader,
    private readonly readYourWrites: MinPositionInterceptor,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, targets)) return true;
    const req = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const token = tokenFrom(req);
    if (!token) throw new Problem(HttpStatus.UNAUTHORIZED, 'Not authenticated');
    const check = await this.sessions.verify(token);
    if (!check.ok) {
      if (check.reason === 'ended')
        throw new Problem(HttpStatus.UNAUTHORIZED, 'Session ended; sign in again');
      throw new Problem(HttpStatus.FORBIDDEN, 'Could not validate credentials');
    }
    // Read-your-writes before the permissions are read: a grant the caller just made counts already.
    await this.readYourWrites.waitFor(req);
    const loaded = await this.actors.load(check.session.userId);
    if (!loaded) throw new Problem(HttpStatus.NOT_FOUND, 'User not found');
    // An impersonation session ends with the impersonator's own access (blocked, deactivated, deleted).
    const impersonator = check.session.impersonatorId
      ? await this.actors.load(check.session.impersonatorId)
      : null;
    if (!loaded.hasAccess || (check.session.impersonatorId && !impersonator?.hasAccess)) {
      await this.sessions.revoke(check.session.id);
      throw new Problem(HttpStatus.UNAUTHORIZED, 'Session ended; sign in again');
    }
    const actor = (req.actor = actorFrom(check.session, loaded));
    const required = this.reflector.getAllAndOverride<string[] | undefined>(REQUIRED_PERMISSIONS, targets);
    if (required && required.length > 0 && !required.some((p) => actor.permissions.has(p))) {
      throw new Problem(HttpStatus.FORBIDDEN, 'You do not have permission to do this');
    }
    // Route-level policy rules (decision 0046): handler rules after controller rules, all must pass.
    const rules = [
      ...(this.reflector.get<Rule[] | undefined>(ALLOW, context.getClass()) ?? []),
      ...(this.reflector.get<Rule[] | undefined>(ALLOW, context.getHandler()) ?? []),
    ];
    const refused = refusalOf(rules, actor);
    if (refused) throw new Problem(HttpStatus.FORBIDDEN, refused.detail);
    return true;
  }
}
