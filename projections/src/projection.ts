/**
 * A projection is a pure definition of a read model: its tables, the event types it handles and how
 * each event changes the rows. The server's runner feeds it events in commit order, inside the same
 * transaction that advances its checkpoint, so each event is applied exactly once.
 */

export interface ProjectionEvent<Type extends string = string, Data = unknown> {
  id: string;
  stream: string;
  revision: bigint;
  position: bigint;
  type: Type;
  data: Data;
  metadata: {
    actorId: string | null;
    impersonatorId?: string | null;
    correlationId?: string | null;
    causationId?: string | null;
    occurredAt: string;
    [extra: string]: unknown;
  };
  createdAt: Date;
}

export interface ProjectionTx {
  query<Row = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<{ rows: Row[] }>;
}

export interface Projection {
  /** Unique, stable name (also the checkpoint key). */
  readonly name: string;
  /** Bump to rebuild the read model from the first event. */
  readonly version: number;
  /** Tables this projection owns; dropped and recreated on rebuild. */
  readonly tables: readonly string[];
  /** DDL statements that create the tables (and indexes). */
  readonly schema: readonly string[];
  /** Event types the projection handles; all others are never passed to `apply`. */
  readonly handles: readonly string[];
  apply(event: ProjectionEvent, tx: ProjectionTx): Promise<void>;
  /**
   * Optional, for speed: applies several of this projection's events at once, in position order, with
   * exactly the effect of calling `apply` for each in turn (typically one set-based statement per run
   * of events instead of one statement per event). The runner uses it for every batch when present;
   * when it throws, the runner rolls the batch back and goes through `apply` event by event to find
   * the event at fault. Like `apply`, it may only touch the projection's own tables.
   */
  applyBatch?(events: readonly ProjectionEvent[], tx: ProjectionTx): Promise<void>;
}

export function defineProjection<P extends Projection>(projection: P): P {
  const owned = new Set(projection.tables);
  if (owned.size !== projection.tables.length) throw new Error(`${projection.name}: duplicate table names`);
  return projection;
}
