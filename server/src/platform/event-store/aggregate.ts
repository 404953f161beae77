import type { EventMetadata, RecordedEvent } from './event-store.js';

/** An event as a decider produces it: a type and its payload. */
export interface DomainEvent {
  type: string;
  data: unknown;
}

/** What the append hooks see: the command, the state it was decided on and the events it caused. */
export interface AppendContext<S, C, E extends DomainEvent> {
  id: string;
  stream: string;
  command: C;
  state: S;
  events: readonly E[];
  metadata: Partial<EventMetadata>;
}

/**
 * One event-sourced aggregate (docs/decisions/0041-aggregates-and-command-runner.md): where its events
 * live, how they fold into the state the rules read, and the pure rules themselves. Deciders export one
 * of these; `Commands.run` is the only loop that reads, folds, decides and appends.
 *
 * The optional hooks are for the few aggregates that need more than an append:
 * - `linkMetadata`: extra metadata per new event, computed from the last stored event (the safeguarding
 *   hash chain, decision 0026);
 * - `beforeAppend`: a side effect that must happen before the events are stored (destroying a personal
 *   data key before `UserPersonalDataErased`, decision 0014);
 * - `afterAppend`: a side effect of stored events (ending a blocked user's sessions).
 * Hooks that need services are added where the services are (see `UserCommands`).
 */
export interface Aggregate<S, C, E extends DomainEvent> {
  /** The stream of the aggregate with this id. */
  stream: (id: string) => string;
  /** Which aggregate a command addresses. */
  idOf: (command: C) => string;
  /** The state of an empty stream (a function, so that a mutable state is never shared). */
  initialState: () => S;
  evolve: (state: S, event: E) => S;
  /** The events a command causes in this state, or a thrown DomainError. Pure. */
  decide: (command: C, state: S) => E[];
  linkMetadata?: (last: RecordedEvent | undefined, events: readonly E[]) => object[];
  beforeAppend?: (context: AppendContext<S, C, E>) => Promise<void>;
  afterAppend?: (context: AppendContext<S, C, E> & { position: string }) => Promise<void>;
}
