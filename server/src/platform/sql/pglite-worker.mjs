// The embedded database's thread (decision 0072): PGlite runs here, off the main event loop. Plain
// JavaScript on purpose: worker threads load it as it is, under the compiled server and under jest
// (whose transform does not reach worker threads). The main-thread side is pglite-worker-client.ts;
// the messages are described there.
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';

const JSON_OIDS = [114, 3802]; // json, jsonb

/**
 * A parameter that was an object on the main thread (see `encodeParam` there): PGlite serialises it
 * by the parameter's type as it would have the object itself, `toString()` or, for json, its JSON.
 */
class ObjectParam {
  constructor(text, json, jsonError) {
    this.text = text;
    this.json = json;
    this.jsonError = jsonError;
  }
  toString() {
    if (this.text === undefined) throw new TypeError('Cannot convert object to primitive value');
    return this.text;
  }
}
/** The JSON text of an array parameter whose elements JSON would not survive the copy unchanged. */
const ARRAY_JSON = Symbol('arrayJson');

function decodeParam(p) {
  if (p === null || typeof p !== 'object' || p instanceof Date || ArrayBuffer.isView(p)) return p;
  if (Array.isArray(p)) return p;
  if (p.t === 'b') return Buffer.from(p.bytes.buffer, p.bytes.byteOffset, p.bytes.byteLength);
  if (p.t === 'o') return new ObjectParam(p.text, p.json, p.jsonError);
  const items = p.items.map(decodeParam);
  items[ARRAY_JSON] = p;
  return items;
}

function jsonOf(x, serialize) {
  if (x instanceof ObjectParam) {
    if (x.jsonError !== undefined) throw new TypeError(x.jsonError);
    return x.json;
  }
  if (Array.isArray(x) && x[ARRAY_JSON]) {
    if (x[ARRAY_JSON].jsonError !== undefined) throw new TypeError(x[ARRAY_JSON].jsonError);
    return x[ARRAY_JSON].json;
  }
  return serialize(x);
}

function errorOf(e) {
  if (!(e instanceof Error)) return { name: 'Error', message: String(e), fields: {} };
  const fields = {};
  for (const [k, v] of Object.entries(e)) {
    // query, params and queryOptions are the caller's own; the main thread sets them back.
    if (k === 'query' || k === 'params' || k === 'queryOptions' || k === 'name' || k === 'message') continue;
    if (v === undefined || typeof v === 'function') continue;
    fields[k] = v;
  }
  return { name: e.name, message: e.message, stack: e.stack, fields };
}

const port = parentPort;
let db;
try {
  db = await PGlite.create(workerData.dataDir ?? 'memory://', { extensions: { pg_trgm } });
  for (const oid of JSON_OIDS) {
    const serialize = db.serializers[oid];
    db.serializers[oid] = (x) => jsonOf(x, serialize);
  }
  port.postMessage({ t: 'ready' });
} catch (e) {
  port.postMessage({ t: 'failed', error: errorOf(e) });
  process.exit(1);
}

/** Open transactions by id: the PGlite transaction object and how to end it. */
const transactions = new Map();
/** LISTENs by id: the function that stops each. */
const listeners = new Map();
/** The rejection that makes PGlite roll a transaction back without it being an error of its own. */
const ROLLBACK = Symbol('rollback');

function answer(id, work) {
  work.then(
    (result) => port.postMessage({ t: 'ok', id, result }),
    (e) => port.postMessage({ t: 'error', id, error: errorOf(e) }),
  );
}

/** The executor a message runs on: the open transaction it names, or the database. */
function executor(m) {
  if (m.tx === undefined) return db;
  const tx = transactions.get(m.tx)?.tx;
  if (!tx) throw new Error('Transaction is closed');
  return tx;
}

const handlers = {
  async query(m) {
    const r = await executor(m).query(m.sql, m.params ? m.params.map(decodeParam) : undefined);
    return r.rows;
  },
  async exec(m) {
    await executor(m).exec(m.sql);
  },
  /**
   * Opens a PGlite transaction (waiting, as PGlite does, for the one before it) and answers once BEGIN
   * ran; the transaction stays open, its queries carrying this id, until 'end' commits or rolls back.
   */
  begin(m) {
    return new Promise((opened, failed) => {
      const entry = { tx: null, commit: null, rollback: null, done: null };
      entry.done = db.transaction(
        (tx) =>
          new Promise((commit, rollback) => {
            Object.assign(entry, { tx, commit, rollback });
            opened(m.id);
          }),
      );
      transactions.set(m.id, entry);
      entry.done.then(
        () => transactions.delete(m.id),
        (e) => {
          transactions.delete(m.id);
          if (!entry.commit) failed(e); // BEGIN itself failed
        },
      );
    });
  },
  async end(m) {
    const entry = transactions.get(m.tx);
    if (!entry?.tx) throw new Error('Transaction is closed');
    entry.tx = null; // later queries naming it fail, as PGlite's do once a transaction is closed
    if (m.commit) entry.commit();
    else entry.rollback(ROLLBACK);
    try {
      await entry.done;
    } catch (e) {
      if (e !== ROLLBACK) throw e;
    }
  },
  async listen(m) {
    const unlisten = await db.listen(m.channel, (payload) =>
      port.postMessage({ t: 'notify', id: m.id, payload }),
    );
    listeners.set(m.id, unlisten);
  },
  async unlisten(m) {
    const unlisten = listeners.get(m.listener);
    listeners.delete(m.listener);
    await unlisten?.();
  },
  async close() {
    if (!db.closed) await db.close();
  },
};

port.on('message', (m) => {
  const handler = handlers[m.op];
  if (!handler)
    return port.postMessage({ t: 'error', id: m.id, error: errorOf(new Error(`Unknown op ${m.op}`)) });
  let work;
  try {
    work = Promise.resolve(handler(m));
  } catch (e) {
    work = Promise.reject(e);
  }
  answer(m.id, work);
});
