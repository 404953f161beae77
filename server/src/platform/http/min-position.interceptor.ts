import {
  HttpStatus,
  Inject,
  Injectable,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import type { Request } from 'express';
import { from, switchMap, type Observable } from 'rxjs';
import { ProjectionRunner } from '../projections/projection-runner.js';
import { APP_CONFIG } from '../tokens.js';
import type { AppConfig } from '../config/config.js';
import { Problem } from './problem.js';

export const MIN_POSITION_HEADER = 'x-min-position';
const REACHED = Symbol('min-position-reached');

/**
 * Read-your-writes: a request carrying `X-Min-Position: <position>` (the `position` a command returned)
 * waits until every projection has applied that position, bounded by READ_YOUR_WRITES_TIMEOUT_MS
 * (default 5 s); otherwise it answers 503 with a detail saying so.
 */
@Injectable()
export class MinPositionInterceptor implements NestInterceptor {
  constructor(
    private readonly runner: ProjectionRunner,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const req = context.switchToHttp().getRequest<Request>();
    return from(this.waitFor(req)).pipe(switchMap(() => next.handle()));
  }

  /**
   * Waits (once per request) for the position the request asks for. The auth guard calls it before it
   * reads the caller's permissions from the read models, so a permission just granted is seen too.
   */
  async waitFor(req: Request & { [REACHED]?: boolean }): Promise<void> {
    if (req[REACHED]) return;
    const raw = req.headers[MIN_POSITION_HEADER];
    if (raw === undefined) return;
    const value = Array.isArray(raw) ? raw[0] : raw;
    if (!value || !/^\d{1,19}$/.test(value.trim())) {
      throw new Problem(
        HttpStatus.BAD_REQUEST,
        'X-Min-Position must be a non-negative integer event position',
      );
    }
    const position = BigInt(value.trim());
    const timeout = this.config.readYourWritesTimeoutMs;
    if (!(await this.runner.waitForPosition(position, timeout))) {
      throw new Problem(
        HttpStatus.SERVICE_UNAVAILABLE,
        `The read models have not yet caught up with position ${position} after ${timeout / 1000} s; try again shortly.`,
      );
    }
    req[REACHED] = true;
  }
}
