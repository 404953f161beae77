import { Injectable } from '@nestjs/common';
import { SessionService } from '../../platform/auth/session.service.js';
import type { Aggregate } from '../../platform/event-store/aggregate.js';
import { Commands } from '../../platform/event-store/commands.js';
import type { EventMetadata } from '../../platform/event-store/event-store.js';
import { PersonalDataVault } from '../../platform/personal-data/personal-data-vault.js';
import { userAggregateFor, type CommandIssuer, type UserCommand, type UserState } from '../user.decider.js';
import type { UserEvent, UserEventType } from '../user.events.js';

export interface CommandResult {
  /** Global position of the last event written (or of the stream's last event when nothing changed). */
  position: string;
}

/** Events after which the user's sessions end at once. */
const ENDS_SESSIONS: ReadonlySet<UserEventType> = new Set([
  'UserBlocked',
  'UserDeactivated',
  'PasswordChanged',
  'UserPersonalDataErased',
  'UserDeleted',
]);

/**
 * Runs user commands (docs/decisions/0041-aggregates-and-command-runner.md): the pure `userAggregate`
 * plus the two hooks that need services. Before `UserPersonalDataErased` is stored the user's key is
 * destroyed (decision 0014: a crash between the two steps leaves the data unreadable and the command can
 * simply be sent again, never an erase event with a live key); after blocking, deactivation, a password
 * change, erasure or deletion every session of the user ends.
 */
@Injectable()
export class UserCommands {
  private readonly hooks: Pick<Aggregate<UserState, UserCommand, UserEvent>, 'beforeAppend' | 'afterAppend'>;

  constructor(
    private readonly commands: Commands,
    sessions: SessionService,
    vault: PersonalDataVault,
  ) {
    this.hooks = {
      beforeAppend: async ({ id, events }) => {
        if (events.some((e) => e.type === 'UserPersonalDataErased')) await vault.erase(id);
      },
      afterAppend: async ({ id, events }) => {
        if (events.some((e) => ENDS_SESSIONS.has(e.type))) await sessions.revokeAllForUser(id);
      },
    };
  }

  /**
   * `issuer` is who sends the command (the signed-in user, or 'system' for the scheduler, mailed links
   * and invitations); the decider's rules about who may act on whom use it (decision 0037).
   */
  async run(
    command: UserCommand,
    metadata: Partial<EventMetadata>,
    issuer: CommandIssuer,
  ): Promise<CommandResult> {
    const aggregate = { ...userAggregateFor(issuer), ...this.hooks };
    const { position } = await this.commands.run(aggregate, command, metadata);
    return { position };
  }
}
