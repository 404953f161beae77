import { types } from 'node:util';
import { Worker } from 'node:worker_threads';
import type { SqlClient, SqlExecutor, SqlSession } from './sql-client.js';
import { acquireDirectoryLock, type DirectoryLock } from './directory-lock.js';

/**
 * SqlClient on embedded PGlite running in a worker thread (decision 0072). PGlite executes every
 * statement synchronously on the thread that calls it; in this process's main thread that blocked the
 * event loop (HTTP, Socket.IO, collaboration) for the length of each query. Here the main thread only
 * posts a message per call and gets the rows back, structured-cloned (Date, BigInt, Uint8Array, JSON
 * values keep their types), and everything else behaves as `PgliteSqlClient`:
 *
 * - one PGlite, so one connection: statements run one at a time in the order they were sent;
 * - `transaction(fn)` runs `fn` here while the worker holds a PGlite transaction open for it; its
 *   queries carry the transaction's id. Statements sent outside it meanwhile wait for it, as they do
 *   in PGlite (calling the client, not `tx`, inside `fn` waits forever, as it does in-process);
 * - errors come back with PGlite's message and fields (`code`, `constraint`, `detail`, ...);
 * - the directory lock is taken and released on this thread, as in `PgliteSqlClient`.
 *
 * Messages (worker code: pglite-worker.mjs): to the worker `{ op, id, ... }` with op `query`, `exec`
 * (optionally `tx`: a transaction's id), `begin`, `end` (`tx`, `commit`), `listen`, `unlisten`,
 * `close`; back `{ t: 'ok' | 'error', id, result | error }`, `{ t: 'notify', id, payload }` for a
 * LISTEN `id`, and once at start `{ t: 'ready' }` or `{ t: 'failed', error }`.
 */
export class PgliteWorkerSqlClient implements SqlClient {
  readonly kind = 'pglite' as const;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly listeners = new Map<number, (payload: string) => void>();
  /** Set once the worker is gone or closing: every later call fails with it. */
  private stopped: Error | null = null;
  private closing: Promise<void> | null = null;

  private constructor(
    private readonly worker: Worker,
    private readonly lock: DirectoryLock | null,
  ) {
    worker.on('message', (m: FromWorker) => this.onMessage(m));
    worker.on('error', (e) =>
      this.fail(new Error(`The embedded database's worker thread failed: ${e.message}`)),
    );
    worker.on('exit', (code) =>
      this.fail(new Error(`The embedded database's worker thread stopped (exit code ${code})`)),
    );
    worker.unref(); // held only while calls wait (see `call`), as an idle in-process PGlite holds nothing
  }

  /** `dataDir` undefined → in-memory database (tests). */
  static async open(dataDir?: string): Promise<PgliteWorkerSqlClient> {
    const lock = dataDir ? await acquireDirectoryLock(dataDir) : null;
    try {
      const worker = new Worker(new URL('./pglite-worker.mjs', import.meta.url), {
        workerData: { dataDir: dataDir ?? null },
      });
      await new Promise<void>((resolve, reject) => {
        const onMessage = (m: FromWorker) => {
          if (m.t === 'ready') done(null);
          else if (m.t === 'failed') done(toError(m.error));
        };
        const onError = (e: Error) => done(e);
        const onExit = (code: number) => done(new Error(`the worker thread stopped (exit code ${code})`));
        const done = (e: Error | null) => {
          worker.off('message', onMessage).off('error', onError).off('exit', onExit);
          if (e) {
            void worker.terminate();
            reject(e);
          } else resolve();
        };
        worker.on('message', onMessage).on('error', onError).on('exit', onExit);
      });
      return new PgliteWorkerSqlClient(worker, lock);
    } catch (e) {
      await lock?.release();
      throw e;
    }
  }

  async query<Row>(sql: string, params?: unknown[]): Promise<{ rows: Row[] }> {
    return { rows: await this.call<Row[]>({ op: 'query', sql, params: encodeParams(params) }, sql, params) };
  }

  async exec(sql: string): Promise<void> {
    await this.call({ op: 'exec', sql }, sql);
  }

  script(sql: string): Promise<void> {
    return this.exec(sql);
  }

  async transaction<T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T> {
    const tx = await this.call<number>({ op: 'begin' }, 'BEGIN');
    let closed = false;
    const executor: SqlExecutor = {
      query: async <Row>(sql: string, params?: unknown[]) => {
        if (closed) throw new Error('Transaction is closed');
        return {
          rows: await this.call<Row[]>({ op: 'query', sql, params: encodeParams(params), tx }, sql, params),
        };
      },
      script: async (sql: string) => {
        if (closed) throw new Error('Transaction is closed');
        await this.call({ op: 'exec', sql, tx }, sql);
      },
    };
    let result: T;
    try {
      result = await fn(executor);
    } catch (e) {
      closed = true;
      // PGlite rolls back and rethrows `fn`'s error (or the rollback's, should that fail).
      await this.call({ op: 'end', tx, commit: false }, 'ROLLBACK');
      throw e;
    }
    closed = true;
    await this.call({ op: 'end', tx, commit: true }, 'COMMIT');
    return result;
  }

  async listen(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>> {
    const id = this.nextId; // the id `call` gives this message: notifications name it
    this.listeners.set(id, onNotify);
    try {
      await this.call({ op: 'listen', channel }, `LISTEN ${channel}`);
    } catch (e) {
      this.listeners.delete(id);
      throw e;
    }
    let stopped = false;
    return async () => {
      if (stopped) return;
      stopped = true;
      this.listeners.delete(id);
      // Closing the database ends its LISTENs: nothing left to stop (a shutdown may stop a listener
      // while another part of it closes the database).
      if (this.closing || this.stopped) return;
      await this.call({ op: 'unlisten', listener: id }, `UNLISTEN ${channel}`).catch((e: unknown) => {
        if (!this.closing) throw e;
      });
    };
  }

  /** One process owns an embedded database, so its single connection is every session. */
  session(): Promise<SqlSession> {
    return Promise.resolve({
      lost: new Promise<Error>(() => {}),
      query: (sql, params) => this.query(sql, params),
      script: (sql) => this.exec(sql),
      transaction: (fn) => this.transaction(fn),
      release: () => Promise.resolve(),
    });
  }

  /** Closes the database (after the statements already sent), stops the thread, releases the lock. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      try {
        if (!this.stopped) await this.call({ op: 'close' }, 'close');
      } finally {
        this.fail(new Error('The embedded database is closed'));
        await this.worker.terminate();
        await this.lock?.release();
      }
    })();
    return this.closing;
  }

  private call<T = void>(message: ToWorker, sql: string, params?: unknown[]): Promise<T> {
    if (this.stopped) return Promise.reject(this.stopped);
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      try {
        this.worker.postMessage({ ...message, id });
      } catch (e) {
        reject(e instanceof Error ? e : new Error(String(e))); // a value that cannot be copied (DataCloneError)
        return;
      }
      if (this.pending.size === 0) this.worker.ref();
      this.pending.set(id, { resolve: resolve, reject, sql, params });
    });
  }

  private onMessage(m: FromWorker): void {
    if (m.t === 'notify') {
      this.listeners.get(m.id)?.(m.payload);
      return;
    }
    if (m.t !== 'ok' && m.t !== 'error') return;
    const p = this.pending.get(m.id);
    if (!p) return;
    this.pending.delete(m.id);
    if (this.pending.size === 0) this.worker.unref();
    if (m.t === 'ok') p.resolve(m.result);
    else {
      const e = toError(m.error);
      // As PGlite's own errors carry them (makePGliteError): the statement and its parameters.
      if ('code' in e) Object.assign(e, { query: p.sql, params: p.params });
      p.reject(e);
    }
  }

  /** The worker is gone (or closing): every waiting call and every later one fails with `error`. */
  private fail(error: Error): void {
    this.stopped ??= error;
    const waiting = [...this.pending.values()];
    this.pending.clear();
    this.listeners.clear();
    for (const p of waiting) p.reject(this.stopped);
  }
}

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
  sql: string;
  params: unknown[] | undefined;
}

type ToWorker =
  | { op: 'query'; sql: string; params: unknown[] | undefined; tx?: number }
  | { op: 'exec'; sql: string; tx?: number }
  | { op: 'begin' }
  | { op: 'end'; tx: number; commit: boolean }
  | { op: 'listen'; channel: string }
  | { op: 'unlisten'; listener: number }
  | { op: 'close' };

interface WireError {
  name: string;
  message: string;
  stack?: string;
  fields: Record<string, unknown>;
}

type FromWorker =
  | { t: 'ready' }
  | { t: 'failed'; error: WireError }
  | { t: 'ok'; id: number; result: unknown }
  | { t: 'error'; id: number; error: WireError }
  | { t: 'notify'; id: number; payload: string };

/** An error of the worker as one of this thread: same message, name and fields (`code`, `constraint`...). */
function toError(w: WireError): Error {
  const e = new Error(w.message);
  Object.assign(e, w.fields);
  Object.defineProperty(e, 'name', { value: w.name, writable: true, configurable: true, enumerable: false });
  if (w.stack) e.stack = `${e.stack}\n    --- in the embedded database's worker thread ---\n${w.stack}`;
  return e;
}

/**
 * Parameters as the worker needs them to serialise them as PGlite would have here. Primitives, Dates,
 * byte arrays and arrays of those survive the structured clone unchanged. An object would arrive as a
 * plain copy (no prototype, no `toJSON`; a Buffer inside JSON would become a Uint8Array), so it goes as
 * the two forms PGlite could make of it: `toString()` and its JSON (for json/jsonb parameters, with
 * PGlite's replacer for BigInt). An array holding objects goes as its encoded items plus its JSON.
 */
function encodeParams(params: unknown[] | undefined): unknown[] | undefined {
  return params?.map(encodeParam);
}

function encodeParam(p: unknown): unknown {
  if (p === null || p === undefined || types.isDate(p)) return p; // (a Date of any realm)
  switch (typeof p) {
    case 'string':
    case 'number':
    case 'boolean':
    case 'bigint':
      return p;
  }
  if (types.isUint8Array(p)) {
    // A Buffer is often a view of a larger pooled buffer, all of which the clone would copy. It is
    // made a Buffer again in the worker (as text, PGlite would take its UTF-8, not its byte list).
    const bytes = p.byteLength === p.buffer.byteLength ? p : new Uint8Array(p);
    return Buffer.isBuffer(p) ? { t: 'b', bytes } : bytes;
  }
  if (Array.isArray(p)) {
    if (p.every(cloneKeepsJson)) return p;
    return { t: 'a', items: p.map(encodeParam), ...jsonForms(p) };
  }
  let text: string | undefined;
  try {
    // What PGlite makes of an object for a non-JSON parameter: its toString(), '[object Object]' or not.
    // eslint-disable-next-line @typescript-eslint/no-base-to-string
    text = String(p);
  } catch {
    text = undefined;
  }
  return { t: 'o', text, ...jsonForms(p) };
}

/** Whether JSON of the structured clone of `x` equals JSON of `x`. */
function cloneKeepsJson(x: unknown): boolean {
  if (x === null || x === undefined || types.isDate(x)) return true;
  const t = typeof x;
  if (t === 'string' || t === 'number' || t === 'boolean' || t === 'bigint') return true;
  return Array.isArray(x) && x.every(cloneKeepsJson);
}

function jsonForms(p: unknown): { json?: string; jsonError?: string } {
  try {
    return { json: JSON.stringify(p, (_, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)) };
  } catch (e) {
    return { jsonError: (e as Error).message };
  }
}
