import { EventEmitter } from 'node:events';
import type { SqlClient } from '../../sql/sql-client.js';
import {
  matchesFilter,
  type AppendOptions,
  type AppendResult,
  type EventData,
  type EventStore,
  type ExpectedRevision,
  type ReadAllOptions,
  type ReadStreamOptions,
  type RecordedEvent,
  type SubscribeToAllOptions,
  type Subscription,
} from '../event-store.js';
import { ConcurrencyError, describeRevision } from '../errors.js';
import { APPEND_CHANNEL, EVENT_STORE_LOCK_KEY, eventStoreSchema } from './schema.js';
import { PollingSubscription } from '../polling-subscription.js';

interface EventRow {
  position: string;
  id: string;
  stream: string;
  revision: string;
  type: string;
  data: unknown;
  metadata: RecordedEvent['metadata'];
  created_at: Date | string;
}

/** The columns of an event row; `data` may be an expression (decision 0080 leaves some payloads out). */
const columnsWith = (data: string) =>
  `position::text, id::text, stream, revision::text, type, ${data}, metadata, created_at`;
const COLUMNS = columnsWith('data');

/** An event as es_append takes it (metadata completed by `append`). */
interface StoredEvent {
  id: string;
  type: string;
  data: unknown;
  metadata: Record<string, unknown>;
}

/** An append waiting for its turn (see `PostgresEventStore.drain`). */
interface PendingAppend {
  stream: string;
  expected: string;
  events: StoredEvent[];
  resolve(result: AppendResult): void;
  reject(error: unknown): void;
}

interface AppendRow {
  status: string;
  out_revision: string;
  out_position: string;
}

/** es_append's record in PostgreSQL's text form, `(status,revision,position)`. */
export function appendRowOf(text: string): AppendRow {
  const m = /^\(([a-z_]+),(-?\d+),(-?\d+)\)$/.exec(text);
  if (!m) throw new Error(`es_append returned an unexpected record: ${text}`);
  return { status: m[1]!, out_revision: m[2]!, out_position: m[3]! };
}

/**
 * The append signal of each embedded database: every store on one PGlite client (the only connection to
 * it, in this process) hears every append there without NOTIFY, which PGlite's schema leaves out.
 */
const embeddedSignals = new WeakMap<SqlClient, EventEmitter>();

/** Limits of one group of appends written together. */
const MAX_GROUP_APPENDS = 64;
const MAX_GROUP_EVENTS = 5_000;

/**
 * The event store on PostgreSQL SQL, run on embedded PGlite or on a PostgreSQL server.
 */
export class PostgresEventStore implements EventStore {
  readonly kind: 'pglite' | 'postgres';
  private readonly appended: EventEmitter;
  private stopListening: (() => Promise<void>) | null = null;
  private readonly subscriptions = new Set<PollingSubscription>();
  private readonly pending: PendingAppend[] = [];
  private writing = false;

  private constructor(private readonly sql: SqlClient) {
    this.kind = sql.kind;
    let signal = sql.kind === 'pglite' ? embeddedSignals.get(sql) : undefined;
    if (!signal) {
      signal = new EventEmitter();
      signal.setMaxListeners(0);
      if (sql.kind === 'pglite') embeddedSignals.set(sql, signal);
    }
    this.appended = signal;
  }

  static async create(sql: SqlClient): Promise<PostgresEventStore> {
    await migrate(sql);
    const store = new PostgresEventStore(sql);
    // PostgreSQL: appends of other processes arrive as NOTIFY. PGlite has no other process.
    if (sql.kind === 'postgres')
      store.stopListening = await sql.listen(APPEND_CHANNEL, () => store.appended.emit('appended'));
    return store;
  }

  async append(stream: string, events: EventData[], options: AppendOptions): Promise<AppendResult> {
    const now = new Date().toISOString();
    const payload = events.map((e) => ({
      id: e.id,
      type: e.type,
      data: e.data ?? null,
      metadata: { actorId: null, ...e.metadata, occurredAt: e.metadata?.occurredAt ?? now },
    }));
    const expected = expectedToText(options.expectedRevision);
    return new Promise<AppendResult>((resolve, reject) => {
      this.pending.push({ stream, expected, events: payload, resolve, reject });
      this.drain();
    });
  }

  /**
   * Group commit. Every append takes the global append lock and holds it until its commit is durable,
   * so appends are written one at a time anyway; rather than each waiting for the lock and its own
   * commit, an append that arrives while another is being written waits in `pending`, and everything
   * waiting then goes out together: one round trip, one transaction, one commit (es_append_many). Each
   * append keeps its own checks and result. A lone append is written at once, as before.
   */
  private drain(): void {
    if (this.writing || this.pending.length === 0) return;
    const group = [this.pending.shift()!];
    let events = group[0]!.events.length;
    while (
      this.pending.length > 0 &&
      group.length < MAX_GROUP_APPENDS &&
      events + this.pending[0]!.events.length <= MAX_GROUP_EVENTS
    ) {
      const next = this.pending.shift()!;
      events += next.events.length;
      group.push(next);
    }
    this.writing = true;
    const next = () => {
      this.writing = false;
      this.drain();
    };
    void this.write(group).finally(() =>
      // After a group (writers are busy), not before the callers just settled have run on: a caller
      // that appends again right away then joins the next group instead of going out alone ahead of
      // it. After a lone append, at once: a single writer's next append should not wait a turn of the
      // event loop (issue 19: that turn cost a third of a sequential append on PGlite).
      group.length > 1 ? setImmediate(next) : next(),
    );
  }

  /** Writes a group of appends and settles each one; never rejects. */
  private async write(group: PendingAppend[]): Promise<void> {
    if (group.length === 1) return this.writeOne(group[0]!);
    let rows: (AppendRow & { ord: number })[];
    try {
      ({ rows } = await this.sql.query<AppendRow & { ord: number }>(
        'SELECT ord, status, out_revision::text, out_position::text FROM es_append_many($1::jsonb)',
        [JSON.stringify(group.map((a) => ({ stream: a.stream, expected: a.expected, events: a.events })))],
      ));
    } catch {
      // One append of the group failed (an event id that is not a UUID, say), so the transaction wrote
      // nothing. Write each on its own: each caller gets its own result or error.
      for (const append of group) await this.writeOne(append);
      return;
    }
    group.forEach((append, i) =>
      this.settle(
        append,
        rows.find((r) => Number(r.ord) === i + 1),
      ),
    );
  }

  /**
   * One append, one statement: a one-event append (the usual one) passes the event's fields as typed
   * parameters to es_append_one, others the events as a JSON array to es_append. The function is
   * called as a value (its record as text), not as a table in FROM, which builds a tuplestore for its
   * one row. Both together were a quarter of a single append on PGlite (issue 19, decision 0077).
   */
  private async writeOne(append: PendingAppend): Promise<void> {
    try {
      const { stream, expected, events } = append;
      const [one] = events.length === 1 ? events : [];
      const { rows } = one
        ? await this.sql.query<{ r: string }>(
            'SELECT es_append_one($1, $2, $3::uuid, $4, $5::jsonb, $6::jsonb)::text AS r',
            [stream, expected, one.id, one.type, JSON.stringify(one.data), JSON.stringify(one.metadata)],
          )
        : await this.sql.query<{ r: string }>('SELECT es_append($1, $2, $3::jsonb)::text AS r', [
            stream,
            expected,
            JSON.stringify(events),
          ]);
      this.settle(append, rows[0] && appendRowOf(rows[0].r));
    } catch (e) {
      append.reject(e);
    }
  }

  /** Resolves or rejects the append's promise with what its row says. */
  private settle(append: PendingAppend, row: AppendRow | undefined): void {
    try {
      append.resolve(this.outcome(append, row));
    } catch (e) {
      append.reject(e);
    }
  }

  private outcome({ stream, expected, events }: PendingAppend, row: AppendRow | undefined): AppendResult {
    if (!row) throw new Error('es_append returned no row');
    const revision = BigInt(row.out_revision);
    if (row.status === 'conflict') {
      throw new ConcurrencyError(stream, expected, describeRevision(revision < 0n ? null : revision));
    }
    if (row.status === 'duplicate_id') {
      throw new ConcurrencyError(stream, expected, 'a different set of already stored event ids');
    }
    if (row.status === 'ok' && events.length > 0) this.appended.emit('appended');
    return { nextExpectedRevision: revision, position: BigInt(row.out_position) };
  }

  async readStream(stream: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    const backwards = options.direction === 'backwards';
    const params: unknown[] = [stream];
    let where = 'stream = $1';
    if (options.fromRevision !== undefined) {
      params.push(BigInt(options.fromRevision).toString());
      where += backwards ? ` AND revision <= $2::bigint` : ` AND revision >= $2::bigint`;
    }
    let limit = '';
    if (options.maxCount !== undefined) {
      params.push(options.maxCount);
      limit = ` LIMIT $${params.length}::int`;
    }
    const { rows } = await this.sql.query<EventRow>(
      `SELECT ${COLUMNS} FROM es_events WHERE ${where} ORDER BY es_events.revision ${backwards ? 'DESC' : 'ASC'}${limit}`,
      params,
    );
    return rows.map(toRecorded);
  }

  async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    const params: unknown[] = [(options.fromPosition ?? 0n).toString(), options.maxCount ?? 1000];
    let where = 'es_events.position > $1::bigint';
    if (options.types) {
      params.push([...options.types]);
      where += ` AND es_events.type = ANY($${params.length}::text[])`;
    }
    let columns = COLUMNS;
    if (options.withoutData?.length) {
      params.push([...options.withoutData]);
      columns = columnsWith(
        `CASE WHEN es_events.type = ANY($${params.length}::text[]) THEN NULL ELSE data END AS data`,
      );
    }
    const { rows } = await this.sql.query<EventRow>(
      `SELECT ${columns} FROM es_events WHERE ${where} ORDER BY es_events.position LIMIT $2::int`,
      params,
    );
    return rows.map(toRecorded);
  }

  subscribeToAll(options: SubscribeToAllOptions = {}): Subscription {
    const sub = new PollingSubscription({
      fromPosition: options.fromPosition ?? 0n,
      read: (from, max) =>
        this.readAll({ fromPosition: from, maxCount: max, withoutData: options.withoutData }),
      accept: (e) => matchesFilter(e, options.filter),
      signal: this.appended,
      onClose: () => this.subscriptions.delete(sub),
    });
    this.subscriptions.add(sub);
    return sub;
  }

  async headPosition(): Promise<bigint> {
    const { rows } = await this.sql.query<{ p: string | null }>(
      'SELECT max(position)::text AS p FROM es_events',
    );
    return BigInt(rows[0]?.p ?? 0);
  }

  async close(): Promise<void> {
    await Promise.all([...this.subscriptions].map((s) => s.close()));
    await this.stopListening?.();
  }
}

async function migrate(sql: SqlClient): Promise<void> {
  // Several processes may start at once: serialise the DDL.
  await sql.transaction(async (tx) => {
    await tx.query(`SELECT pg_advisory_xact_lock(${EVENT_STORE_LOCK_KEY + 1})`);
    for (const statement of splitSchema(eventStoreSchema(sql.kind))) await tx.query(statement);
  });
}

/** Splits the schema at top-level semicolons, keeping $fn$ bodies whole. */
export function splitSchema(script: string): string[] {
  const parts: string[] = [];
  let current = '';
  let inBody = false;
  for (const line of script.split('\n')) {
    current += line + '\n';
    if ((line.match(/\$fn\$/g) ?? []).length % 2 === 1) inBody = !inBody;
    if (!inBody && line.trimEnd().endsWith(';')) {
      if (current.trim()) parts.push(current.trim());
      current = '';
    }
  }
  if (current.trim()) parts.push(current.trim());
  return parts;
}

function expectedToText(expected: ExpectedRevision): string {
  if (typeof expected === 'bigint' || typeof expected === 'number') {
    const n = BigInt(expected);
    if (n < 0n) throw new RangeError('expectedRevision must be >= 0');
    return n.toString();
  }
  return expected;
}

function toRecorded(row: EventRow): RecordedEvent {
  return {
    id: row.id,
    stream: row.stream,
    revision: BigInt(row.revision),
    position: BigInt(row.position),
    type: row.type,
    data: row.data,
    metadata: row.metadata,
    createdAt: row.created_at instanceof Date ? row.created_at : new Date(row.created_at),
  };
}
