/** Streams kept per aggregate kind (decision 0075). A user's state is well under a kilobyte. */
export const FOLDED_STATES_PER_AGGREGATE = 2_000;

/** A stream folded up to and including the event `last` (its id, to check it is still that event). */
export interface FoldedState {
  state: unknown;
  last: { id: string; revision: bigint };
}

/**
 * The states `Commands` folded, kept between commands so that the next command on the stream reads
 * only the events after them (decision 0075). One least-recently-used table per `evolve` function: two
 * aggregates over the same stream (a lesson and its register) fold it differently, and one aggregate
 * (users) is built per issuer around the same `evolve`.
 *
 * Only a cache: `Commands.load` always reads the stream's tail from the store, starting at the
 * remembered last event and checking that it is still there, so a write by another process is folded
 * in and a stream that is not the one remembered is read again in full.
 *
 * A kept state is a private copy (`structuredClone` in, a new clone out): an `evolve` or a caller that
 * changes a state in place cannot change what the next command starts from. A state that cannot be
 * cloned (it holds a function) is not kept.
 */
export class FoldedStates {
  private readonly tables = new WeakMap<object, Map<string, FoldedState>>();

  constructor(private readonly perAggregate = FOLDED_STATES_PER_AGGREGATE) {}

  get(kind: object, stream: string): FoldedState | undefined {
    const table = this.tables.get(kind);
    const hit = table?.get(stream);
    if (!hit || !table) return undefined;
    table.delete(stream);
    table.set(stream, hit);
    return structuredClone(hit);
  }

  keep(kind: object, stream: string, folded: FoldedState): void {
    let copy: FoldedState;
    try {
      copy = structuredClone(folded);
    } catch {
      this.forget(kind, stream);
      return;
    }
    let table = this.tables.get(kind);
    if (!table) this.tables.set(kind, (table = new Map<string, FoldedState>()));
    table.delete(stream);
    table.set(stream, copy);
    if (table.size > this.perAggregate) table.delete(table.keys().next().value!);
  }

  forget(kind: object, stream: string): void {
    this.tables.get(kind)?.delete(stream);
  }
}
