import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { randomUUID } from 'node:crypto';
import { EVENT_STORE, type EventMetadata, type EventStore } from '../../platform/event-store/event-store.js';
import { SessionService } from '../../platform/auth/session.service.js';
import { Problem } from '../../platform/http/problem.js';
import { PersonalDataVault } from '../../platform/personal-data/personal-data-vault.js';
import { UserError, decide, fold, type CommandIssuer, type UserCommand } from '../user.decider.js';
import { userStream, type UserEvent, type UserEventType } from '../user.events.js';

/**
 * Runs one user command: load the stream, fold, decide, append with the revision read. `issuer` is who
 * sends it (the signed-in user, or 'system'); the decider's rules about who may act on whom use it.
 */
export class ExecuteUserCommand {
  constructor(
    readonly command: UserCommand,
    readonly metadata: Partial<EventMetadata>,
    readonly issuer: CommandIssuer,
  ) {}
}

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

const userIdOf = (command: UserCommand) =>
  command.type === 'CreateUser' ? command.data.userId : command.userId;

@CommandHandler(ExecuteUserCommand)
export class UserCommandHandler implements ICommandHandler<ExecuteUserCommand, CommandResult> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly sessions: SessionService,
    private readonly vault: PersonalDataVault,
  ) {}

  async execute({ command, metadata, issuer }: ExecuteUserCommand): Promise<CommandResult> {
    const userId = userIdOf(command);
    const stream = userStream(userId);
    const recorded = await this.store.readStream(stream);
    const state = fold(recorded.map((e) => ({ type: e.type, data: e.data }) as UserEvent));
    let events: UserEvent[];
    try {
      events = decide(command, state, issuer);
    } catch (e) {
      if (e instanceof UserError) throw new Problem(e.status, e.detail, { code: e.code });
      throw e;
    }
    const last = recorded.at(-1);
    if (events.length === 0) return { position: (last?.position ?? 0n).toString() };
    // Crypto-shredding (decision 0014): the key goes first, so a crash between the two steps leaves
    // the data unreadable (and the command can simply be sent again), never an erase event with a live key.
    if (events.some((e) => e.type === 'UserPersonalDataErased')) await this.vault.erase(userId);
    const result = await this.store.append(
      stream,
      events.map((e) => ({ id: randomUUID(), type: e.type, data: e.data, metadata })),
      { expectedRevision: last ? last.revision : 'no_stream' },
    );
    if (events.some((e) => ENDS_SESSIONS.has(e.type))) await this.sessions.revokeAllForUser(userId);
    return { position: result.position.toString() };
  }
}
