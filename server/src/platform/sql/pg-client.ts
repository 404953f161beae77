import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { SqlClient, SqlExecutor, SqlSession } from './sql-client.js';
import { copyStatement } from './sql-literal.js';

/** SqlClient on a PostgreSQL server (`DATABASE_URL`). */
export class PgSqlClient implements SqlClient {
  readonly kind = 'postgres' as const;
  private readonly pool: pg.Pool;
  private listener: pg.Client | null = null;
  private listenerReady: Promise<pg.Client> | null = null;
  private readonly handlers = new Map<string, Set<(payload: string) => void>>();
  private closed = false;

  constructor(
    private readonly connectionString: string,
    poolSize = 10,
  ) {
    this.pool = new pg.Pool({ connectionString, max: poolSize });
    this.pool.on('error', () => {
      // Idle clients that lose their connection are dropped by the pool; queries report their own errors.
    });
  }

  /** Fails fast with the driver's error when the server cannot be reached. */
  async connectCheck(): Promise<void> {
    await this.pool.query('SELECT 1');
  }

  async query<Row>(sql: string, params?: unknown[]): Promise<{ rows: Row[] }> {
    const result = await this.pool.query(sql, params);
    return { rows: result.rows as Row[] };
  }

  async exec(sql: string): Promise<void> {
    await this.pool.query(sql);
  }

  script(sql: string): Promise<void> {
    return this.exec(sql);
  }

  async transaction<T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    try {
      return await runTransaction(client, fn);
    } finally {
      client.release();
    }
  }

  async session(): Promise<SqlSession> {
    const client = new pg.Client({ connectionString: this.connectionString });
    let markLost: (e: Error) => void = () => {};
    const lost = new Promise<Error>((resolve) => (markLost = resolve));
    client.on('error', (e) => markLost(e));
    client.on('end', () => markLost(new Error('session connection ended')));
    await client.connect();
    return {
      lost,
      query: async <Row>(sql: string, params?: unknown[]) => {
        const r = await client.query(sql, params);
        return { rows: r.rows as Row[] };
      },
      script: async (sql: string) => {
        await client.query(sql);
      },
      copyIn: (table, columns, text) => copyIn(client, table, columns, text),
      transaction: (fn) => runTransaction(client, fn),
      release: async () => {
        await client.end().catch(() => {});
      },
    };
  }

  async listen(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>> {
    let set = this.handlers.get(channel);
    const client = await this.ensureListener();
    if (!set) {
      set = new Set();
      this.handlers.set(channel, set);
      await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    }
    set.add(onNotify);
    return () => {
      set.delete(onNotify);
      return Promise.resolve();
    };
  }

  private ensureListener(): Promise<pg.Client> {
    if (this.listenerReady) return this.listenerReady;
    const client = new pg.Client({ connectionString: this.connectionString });
    client.on('notification', (msg) => {
      for (const h of this.handlers.get(msg.channel) ?? []) h(msg.payload ?? '');
    });
    client.on('error', () => {
      // Reconnect: subscribers also poll, so a missed notification only delays them.
      this.listener = null;
      this.listenerReady = null;
      if (!this.closed) setTimeout(() => void this.relisten(), 500).unref();
    });
    this.listenerReady = client.connect().then(() => {
      this.listener = client;
      return client;
    });
    return this.listenerReady;
  }

  private async relisten(): Promise<void> {
    if (this.closed) return;
    try {
      const client = await this.ensureListener();
      for (const channel of this.handlers.keys())
        await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
      // Wake everyone up: something may have been appended while we were away.
      for (const set of this.handlers.values()) for (const h of set) h('');
    } catch {
      this.listenerReady = null;
      setTimeout(() => void this.relisten(), 1000).unref();
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    const listener = this.listener;
    this.listener = null;
    this.listenerReady = null;
    if (listener) await listener.end().catch(() => {});
    await this.pool.end();
  }
}

async function runTransaction<T>(client: pg.ClientBase, fn: (tx: SqlExecutor) => Promise<T>): Promise<T> {
  await client.query('BEGIN');
  try {
    const tx: SqlExecutor = {
      query: async <Row>(sql: string, params?: unknown[]) => {
        const r = await client.query(sql, params);
        return { rows: r.rows as Row[] };
      },
      script: async (sql: string) => {
        await client.query(sql);
      },
      copyIn: (table, columns, text) => copyIn(client, table, columns, text),
    };
    const result = await fn(tx);
    await client.query('COMMIT');
    return result;
  } catch (e) {
    await client.query('ROLLBACK').catch(() => {});
    throw e;
  }
}

/** `SqlExecutor.copyIn` on one connection: `COPY ... FROM STDIN` fed with `text`. */
async function copyIn(
  client: pg.ClientBase,
  table: string,
  columns: readonly string[],
  text: string,
): Promise<void> {
  const stream = client.query(copyFrom(copyStatement(table, columns, 'STDIN')));
  await pipeline(Readable.from([Buffer.from(text)]), stream);
}
