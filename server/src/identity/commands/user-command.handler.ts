import { Injectable } from '@nestjs/common';
import { SessionService } from '../../platform/auth/session.service.js';
import type { Aggregate } from '../../platform/event-store/aggregate.js';
import { Commands } from '../../platform/event-store/commands.js';
import type { EventMetadata } from '../../platform/event-store/event-store.js';
import { PersonalDataVault } from '../../platform/personal-data/personal-data-vault.js';
import { userAggregate, type UserCommand, type UserState } from '../user.decider.js';
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
  private readonly aggregate: Aggregate<UserState, UserCommand, UserEvent>;

  constructor(
    private readonly commands: Commands,
    sessions: SessionService,
    vault: PersonalDataVault,
  ) {
    this.aggregate = {
      ...userAggregate,
      beforeAppend: async ({ id, events }) => {
        if (events.some((e) => e.type === 'UserPersonalDataErased')) await vault.erase(id);
      },
      afterAppend: async ({ id, events }) => {
        if (events.some((e) => ENDS_SESSIONS.has(e.type))) await sessions.revokeAllForUser(id);
      },
    };
  }

  async run(command: UserCommand, metadata: Partial<EventMetadata>): Promise<CommandResult> {
    const { position } = await this.commands.run(this.aggregate, command, metadata);
    return { position };
  }
}
