import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { Aggregate, AppendContext, DomainEvent } from './aggregate.js';
import { ConcurrencyError } from './errors.js';
import { FoldedStates, type FoldedState } from './folded-states.js';
import {
  EVENT_STORE,
  type EventMetadata,
  type EventStore,
  type ExpectedRevision,
  type RecordedEvent,
} from './event-store.js';

/** How many times a command is decided again after another writer moved its stream. */
export const DEFAULT_CONFLICT_RETRIES = 3;

export interface CommandResult<S, E extends DomainEvent> {
  /** Global position of the last event written, or of the stream's last event when nothing changed. */
  position: string;
  /** The events written (empty when the command changed nothing). */
  events: E[];
  /** The state after them. */
  state: S;
}

export interface Loaded<S> {
  state: S;
  /** The stream's last event (undefined for a new stream). */
  last: RecordedEvent | undefined;
}

export interface RunOptions {
  /** Re-read and decide again this many times on a ConcurrencyError (default 3; 0 = fail at once). */
  retries?: number;
}

/**
 * The one write path of event-sourced aggregates (docs/decisions/0041-aggregates-and-command-runner.md):
 * read the stream, fold it, decide, append at the revision read. When another writer got there first
 * (ConcurrencyError) the command is decided again on the new state, a bounded number of times, so a
 * refusal reflects the latest state and a harmless race is not an error. Then the ConcurrencyError
 * propagates (409 through the exception filter).
 */
@Injectable()
export class Commands {
  /** States folded by earlier commands: a command reads only the events after them (decision 0075). */
  private readonly folded = new FoldedStates();

  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}

  async run<S, C, E extends DomainEvent>(
    aggregate: Aggregate<S, C, E>,
    command: C,
    metadata: Partial<EventMetadata>,
    options: RunOptions = {},
  ): Promise<CommandResult<S, E>> {
    const retries = options.retries ?? DEFAULT_CONFLICT_RETRIES;
    const id = aggregate.idOf(command);
    for (let attempt = 0; ; attempt++) {
      const { state, last } = await this.load(aggregate, id);
      const events = aggregate.decide(command, state);
      if (events.length === 0) return { position: (last?.position ?? 0n).toString(), events, state };
      try {
        const stream = aggregate.stream(id);
        const written = await this.write(
          aggregate,
          { id, stream, command, state, events, metadata },
          last,
          last ? last.revision : 'no_stream',
        );
        const after = events.reduce((s, e) => aggregate.evolve(s, e), state);
        // The append checked the revision, so these events directly follow the state decided on.
        this.folded.keep(aggregate.evolve, stream, { state: after, last: written.last });
        return { position: written.position, events, state: after };
      } catch (e) {
        if (e instanceof ConcurrencyError && attempt < retries) continue;
        throw e;
      }
    }
  }

  /** The aggregate's current state, for a check before a command (e.g. to refuse early). */
  async load<S, C, E extends DomainEvent>(aggregate: Aggregate<S, C, E>, id: string): Promise<Loaded<S>> {
    const stream = aggregate.stream(id);
    const kind = aggregate.evolve;
    const kept = this.folded.get(kind, stream);
    if (kept) {
      // The tail, from the remembered last event on: if that event is not there any more (the stream
      // is not the one remembered), fold the whole stream again.
      const tail = await this.store.readStream(stream, { fromRevision: kept.last.revision });
      if (tail[0]?.id === kept.last.id) return this.fold(aggregate, stream, kept.state as S, tail, 1);
      this.folded.forget(kind, stream);
    }
    return this.fold(aggregate, stream, aggregate.initialState(), await this.store.readStream(stream), 0);
  }

  /** Folds `recorded` from index `from` on into `state`, and keeps the result for the next command. */
  private fold<S, C, E extends DomainEvent>(
    aggregate: Aggregate<S, C, E>,
    stream: string,
    initial: S,
    recorded: RecordedEvent[],
    from: number,
  ): Loaded<S> {
    let state = initial;
    for (let i = from; i < recorded.length; i++) {
      const e = recorded[i]!;
      state = aggregate.evolve(state, { type: e.type, data: e.data } as E);
    }
    const last = recorded.at(-1);
    if (last && recorded.length > from)
      this.folded.keep(aggregate.evolve, stream, { state, last: { id: last.id, revision: last.revision } });
    return { state, last };
  }

  /**
   * Appends events a caller already decided, without a revision check: only for facts that stay true
   * whatever was appended meanwhile (a feedback link used after its single-use token was consumed).
   * Hooks run as in `run`; aggregates with `linkMetadata` need the stream read, so they must use `run`.
   */
  async appendDecided<S, C, E extends DomainEvent>(
    aggregate: Aggregate<S, C, E>,
    context: Omit<AppendContext<S, C, E>, 'stream'>,
  ): Promise<string> {
    if (aggregate.linkMetadata) throw new Error('appendDecided cannot link events; use run');
    if (context.events.length === 0) throw new Error('appendDecided needs events');
    const written = await this.write(
      aggregate,
      { ...context, stream: aggregate.stream(context.id) },
      undefined,
      'any',
    );
    return written.position;
  }

  private async write<S, C, E extends DomainEvent>(
    aggregate: Aggregate<S, C, E>,
    context: AppendContext<S, C, E>,
    last: RecordedEvent | undefined,
    expectedRevision: ExpectedRevision,
  ): Promise<{ position: string; last: FoldedState['last'] }> {
    const links = aggregate.linkMetadata?.(last, context.events);
    await aggregate.beforeAppend?.(context);
    const events = context.events.map((e, i) => ({
      id: randomUUID(),
      type: e.type,
      data: e.data,
      metadata: { ...context.metadata, ...links?.[i] },
    }));
    const result = await this.store.append(context.stream, events, { expectedRevision });
    const position = result.position.toString();
    await aggregate.afterAppend?.({ ...context, position });
    return { position, last: { id: events.at(-1)!.id, revision: result.nextExpectedRevision } };
  }
}
