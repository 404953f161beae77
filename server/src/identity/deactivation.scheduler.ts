import { Inject, Injectable } from '@nestjs/common';
import { PeriodicJob } from '../platform/scheduling/periodic-job.js';
import { DomainError } from '../platform/domain/domain-error.js';
import { ConcurrencyError } from '../platform/event-store/errors.js';
import { LOGGER } from '../platform/tokens.js';
import type { Log } from '../platform/logging/logger.js';
import { UserCommands } from './commands/user-command.handler.js';
import { UsersReadModel } from './users.read.js';

export const DEACTIVATION_INTERVAL_MS = 60_000;

/**
 * Applies scheduled deactivations that have come due, as `UserDeactivated { scheduled: true }` events.
 * Every server process runs it: it is safe because each deactivation goes through the decider with the
 * expected revision. A second process (or a second run) finds the user already deactivated (409) or
 * loses the append race (ConcurrencyError); both are harmless and skipped.
 */
@Injectable()
export class DeactivationScheduler extends PeriodicJob<number> {
  readonly intervalMs = DEACTIVATION_INTERVAL_MS;

  constructor(
    private readonly users: UsersReadModel,
    private readonly commands: UserCommands,
    @Inject(LOGGER) private readonly log: Log,
  ) {
    super();
  }

  /** One pass (see PeriodicJob.runOnce); returns how many users it deactivated. */
  protected async pass(now: Date): Promise<number> {
    let applied = 0;
    for (const userId of await this.users.dueDeactivations(now)) {
      try {
        await this.commands.run(
          { type: 'ApplyDueDeactivation', userId, now: now.toISOString() },
          { actorId: null, correlationId: `scheduled-deactivation:${userId}` },
          'system',
        );
        applied++;
      } catch (e) {
        if (e instanceof ConcurrencyError || e instanceof DomainError) continue;
        this.log.error({ err: e, userId }, 'scheduled deactivation failed');
      }
    }
    return applied;
  }
}
