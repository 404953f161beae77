import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { PgliteSqlClient } from './pglite-client.js';
import { PgliteWorkerSqlClient } from './pglite-worker-client.js';
import type { SqlClient } from './sql-client.js';

/** The worker client (decision 0072) against the in-process one, on the same statements. */
describe('PgliteWorkerSqlClient', () => {
  let worker: PgliteWorkerSqlClient;
  let inProcess: PgliteSqlClient;
  const schema = `
    CREATE EXTENSION IF NOT EXISTS pg_trgm;
    CREATE TABLE things (id int PRIMARY KEY, name text NOT NULL CONSTRAINT name_not_empty CHECK (name <> ''),
                         data jsonb, raw bytea, at timestamptz, day date, big bigint, tags text[]);
    CREATE UNIQUE INDEX things_name ON things (name);`;

  beforeAll(async () => {
    [worker, inProcess] = await Promise.all([PgliteWorkerSqlClient.open(), PgliteSqlClient.open()]);
    await Promise.all([worker.exec(schema), inProcess.exec(schema)]);
  });
  afterAll(async () => {
    await Promise.all([worker?.close(), inProcess?.close()]);
  });

  /** Runs the same statement on both clients and expects the same rows. */
  async function same(sql: string, params?: unknown[]): Promise<Record<string, unknown>[]> {
    const [w, p] = await Promise.all([
      worker.query<Record<string, unknown>>(sql, params),
      inProcess.query<Record<string, unknown>>(sql, params),
    ]);
    expect(w.rows).toEqual(p.rows);
    return w.rows;
  }

  class Money {
    constructor(readonly pence: number) {}
    toString() {
      return `£${(this.pence / 100).toFixed(2)}`;
    }
    toJSON() {
      return { pence: this.pence };
    }
  }

  it('parameters and rows of every type the portal uses arrive as they do in-process', async () => {
    const at = new Date('2026-11-28T09:45:25.123Z');
    const bytes = Buffer.from('héllo wörld');
    const pooled = Buffer.from('pooled'); // a view of Node's shared pool
    const cases: [string, unknown[]][] = [
      ['SELECT $1::bytea AS b, $2::bytea AS u, $3::bytea AS p', [bytes, new Uint8Array([0, 1, 255]), pooled]],
      ['SELECT $1::text AS t', [bytes]], // a Buffer as text: its UTF-8
      ['SELECT $1::timestamptz AS t, $2::date AS d, $3::timestamp AS ts', [at, at, at]],
      ['SELECT $1::timestamptz AS t', [at.getTime()]],
      [
        'SELECT $1::jsonb AS j, $2::json AS k',
        [{ a: 1, nested: { at, list: [1, 'two', null] } }, [1, { b: 2 }]],
      ],
      ['SELECT $1::jsonb AS j', [{ buf: bytes, big: 12n, money: new Money(150), none: undefined }]],
      ['SELECT $1::jsonb AS j', ['{"already":"text"}']],
      ['SELECT $1::text AS t, $2::jsonb AS j', [new Money(99), new Money(99)]],
      ['SELECT $1::jsonb[] AS js', [[{ a: 1 }, { b: [2] }]]],
      ['SELECT $1::text[] AS a, $2::int[] AS i, $3::uuid[] AS u', [['x', 'y"z', null], [1, 2], []]],
      [
        'SELECT $1::timestamptz[] AS ts, $2::bytea[] AS bs',
        [
          [at, null],
          [bytes, new Uint8Array([7])],
        ],
      ],
      ['SELECT $1::text AS n, $2::int AS u, $3::jsonb AS j', [null, undefined, null]],
      [
        'SELECT $1::bigint AS b, $2::bigint AS s, $3::int AS i, $4::numeric AS n',
        [12n, '9007199254740993', 7, 1.5],
      ],
      ['SELECT $1::boolean AS t, $2::boolean AS f, $3::boolean AS o', [true, 'false', 1]],
      [
        `SELECT 9007199254740993::bigint AS big, 1::bigint AS small, 1.5::numeric AS num, true AS yes,
                'infinity'::timestamptz AS inf, '{"a":[1,2]}'::jsonb AS j, ARRAY[1,2]::int8[] AS arr,
                NULL::text AS nul, '\\x00ff'::bytea AS b, '2026-01-02'::date AS d, gen_random_uuid() IS NOT NULL AS u`,
        [],
      ],
      ['SELECT similarity($1, $2) AS s', ['Hussain', 'Husain']], // pg_trgm is there
    ];
    for (const [sql, params] of cases) await same(sql, params);

    const [row] = await same('SELECT $1::bytea AS b, $2::timestamptz AS t, 9007199254740993::bigint AS big', [
      bytes,
      at,
    ]);
    // Types, not only values (checked by tag: the rows come from another realm under jest).
    expect(Object.prototype.toString.call(row!.b)).toBe('[object Uint8Array]');
    expect(Buffer.from(row!.b as Uint8Array).toString()).toBe('héllo wörld');
    expect(Object.prototype.toString.call(row!.t)).toBe('[object Date]');
    expect((row!.t as Date).getTime()).toBe(at.getTime());
    expect(row!.big).toBe(9007199254740993n);
  });

  it('writes and reads back the same rows as the in-process client', async () => {
    const insert = `INSERT INTO things (id, name, data, raw, at, day, big, tags) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
                    RETURNING *`;
    const params = [
      1,
      'one',
      { k: [1, { d: new Date(0) }] },
      Buffer.from([1, 2, 3]),
      new Date(5),
      '2026-03-04',
      5n,
      ['a', 'b'],
    ];
    await same(insert, params);
    await same('SELECT * FROM things ORDER BY id');
    await same('UPDATE things SET data = data || $1::jsonb WHERE id = $2 RETURNING data', [
      { more: true },
      1,
    ]);
  });

  it('errors carry the message and PostgreSQL fields (code, constraint, table, detail ...)', async () => {
    await worker.query(`INSERT INTO things (id, name) VALUES (100, 'dup')`);
    await inProcess.query(`INSERT INTO things (id, name) VALUES (100, 'dup')`);
    const failures = [
      [`INSERT INTO things (id, name) VALUES (101, 'dup')`, []],
      [`INSERT INTO things (id, name) VALUES ($1, $2)`, [102, '']],
      [`SELECT * FROM nowhere`, []],
      [`SELECT $1::int`, ['not a number']],
      [`SELECT $1::boolean`, [2]], // PGlite's own serializer refuses it (not a DatabaseError)
    ] as const;
    const fields = [
      'name',
      'message',
      'code',
      'constraint',
      'table',
      'schema',
      'detail',
      'severity',
      'position',
      'query',
    ];
    for (const [sql, params] of failures) {
      const [w, p] = await Promise.allSettled([
        worker.query(sql, [...params]),
        inProcess.query(sql, [...params]),
      ]);
      expect(w.status).toBe('rejected');
      expect(p.status).toBe('rejected');
      const we = (w as PromiseRejectedResult).reason as Record<string, unknown>;
      const pe = (p as PromiseRejectedResult).reason as Record<string, unknown>;
      expect(we).toBeInstanceOf(Error);
      for (const f of fields) expect([f, we[f]]).toEqual([f, pe[f]]);
      if (pe.code) expect(we.params).toEqual(params);
    }
    const dup = await worker
      .query(`INSERT INTO things (id, name) VALUES (103, 'dup')`)
      .catch((e: unknown) => e);
    expect(dup).toMatchObject({ code: '23505', constraint: 'things_name', table: 'things' });
    expect((dup as Error).message).toMatch(/duplicate key value violates unique constraint "things_name"/);
  });

  it('a transaction commits, rolls back when fn throws, and keeps PGlite errors inside it', async () => {
    const result = await worker.transaction(async (tx) => {
      await tx.query(`INSERT INTO things (id, name) VALUES (200, 'committed')`);
      await tx.script(`INSERT INTO things (id, name) VALUES (201, 'committed too'); SELECT 1;`);
      return (await tx.query<{ n: number }>(`SELECT count(*)::int AS n FROM things WHERE id >= 200`)).rows[0]!
        .n;
    });
    expect(result).toBe(2);
    const failure = new Error('changed my mind');
    await expect(
      worker.transaction(async (tx) => {
        await tx.query(`INSERT INTO things (id, name) VALUES (202, 'rolled back')`);
        throw failure;
      }),
    ).rejects.toBe(failure);
    const rows = (await worker.query<{ id: number }>(`SELECT id FROM things WHERE id >= 200 ORDER BY id`))
      .rows;
    expect(rows.map((r) => r.id)).toEqual([200, 201]);

    // A statement that fails inside: fn sees the error; swallowing it makes COMMIT roll back (as in PGlite).
    const swallowed = async (sql: SqlClient) =>
      sql
        .transaction(async (tx) => {
          await tx.query(`INSERT INTO things (id, name) VALUES (203, 'dup')`).catch(() => {});
        })
        .catch((e: unknown) => e);
    const [we, pe] = [await swallowed(worker), await swallowed(inProcess)];
    expect(we).toMatchObject({ code: (pe as { code: string }).code, message: (pe as Error).message });

    // The executor of a finished transaction refuses, as PGlite's does.
    let kept: { query: (sql: string) => Promise<unknown> } | null = null;
    await worker.transaction(async (tx) => {
      kept = tx;
      await Promise.resolve();
    });
    await expect(kept!.query('SELECT 1')).rejects.toThrow('Transaction is closed');
  });

  it('a statement sent outside a running transaction waits for it to end (PGlite semantics)', async () => {
    const order: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const tx = worker.transaction(async (t) => {
      await t.query(`INSERT INTO things (id, name) VALUES (300, 'in tx')`);
      order.push('tx wrote');
      await held;
      await t.query(`UPDATE things SET name = 'in tx, done' WHERE id = 300`);
      order.push('tx done');
    });
    // Wait until the transaction holds the database.
    while (!order.includes('tx wrote')) await new Promise((r) => setTimeout(r, 5));
    const outside = worker.query<{ name: string }>(`SELECT name FROM things WHERE id = 300`).then((r) => {
      order.push('outside read');
      return r.rows;
    });
    await new Promise((r) => setTimeout(r, 100));
    expect(order).toEqual(['tx wrote']); // still waiting
    release();
    await tx;
    expect(await outside).toEqual([{ name: 'in tx, done' }]);
    expect(order).toEqual(['tx wrote', 'tx done', 'outside read']);

    // Statements inside one transaction may be sent together; they run one at a time, in order.
    const n = await worker.transaction(async (t) => {
      await Promise.all(
        [1, 2, 3].map((i) => t.query(`INSERT INTO things (id, name) VALUES ($1, $2)`, [310 + i, `p${i}`])),
      );
      return (await t.query<{ n: number }>(`SELECT count(*)::int AS n FROM things WHERE id > 310`)).rows[0]!
        .n;
    });
    expect(n).toBe(3);
  });

  it('listen hears NOTIFY; the returned function stops it', async () => {
    const heard: string[] = [];
    const unlisten = await worker.listen('worker_channel', (p) => heard.push(p));
    await worker.query(`SELECT pg_notify('worker_channel', 'one')`);
    await worker.transaction(async (tx) => {
      await tx.query(`SELECT pg_notify('worker_channel', 'two')`);
    });
    await new Promise((r) => setTimeout(r, 20));
    expect(heard).toEqual(['one', 'two']);
    await unlisten();
    await worker.query(`SELECT pg_notify('worker_channel', 'three')`);
    await new Promise((r) => setTimeout(r, 20));
    expect(heard).toEqual(['one', 'two']);
  });

  it('session() is the one connection; its transaction works; lost never resolves', async () => {
    const session = await worker.session();
    const v = await session.transaction(
      async (tx) => (await tx.query<{ v: number }>('SELECT 41 + 1 AS v')).rows[0]!.v,
    );
    expect(v).toBe(42);
    const lost = await Promise.race([
      session.lost.then(() => 'lost'),
      new Promise((r) => setTimeout(() => r('alive'), 20)),
    ]);
    expect(lost).toBe('alive');
    await session.release();
  });
});

describe('PgliteWorkerSqlClient: lifetime', () => {
  it('close() lets the sent statements finish, then refuses later calls', async () => {
    const sql = await PgliteWorkerSqlClient.open();
    const before = sql.query<{ v: number }>('SELECT 1 AS v');
    await sql.close();
    expect((await before).rows).toEqual([{ v: 1 }]);
    await expect(sql.query('SELECT 1')).rejects.toThrow('The embedded database is closed');
    await sql.close(); // twice is fine

    // A listener stopped while (or after) the database closes: nothing to stop, no error.
    const other = await PgliteWorkerSqlClient.open();
    const unlisten = await other.listen('closing_channel', () => {});
    const closed = other.close();
    await unlisten();
    await closed;
  });

  it('a worker that dies rejects every waiting call with a clear error, and every later one', async () => {
    const sql = await PgliteWorkerSqlClient.open();
    await sql.exec(`CREATE TABLE t (n int)`);
    const tx = sql.transaction(async (t) => {
      await t.query('SELECT 1');
      await new Promise((r) => setTimeout(r, 1_000));
    });
    const waiting = [sql.query('SELECT 2'), sql.query('SELECT pg_sleep(0.2)')];
    await new Promise((r) => setTimeout(r, 50));
    // Kill the thread from outside, as a crash would.
    await (sql as unknown as { worker: { terminate(): Promise<number> } }).worker.terminate();
    for (const w of waiting) await expect(w).rejects.toThrow(/worker thread stopped/);
    await expect(sql.query('SELECT 3')).rejects.toThrow(/worker thread stopped/);
    void tx.catch(() => {});
    await sql.close();
  });

  it('the data directory lock refuses a second open (either client) and is released on close', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'pglite-worker-'));
    try {
      const first = await PgliteWorkerSqlClient.open(dir);
      await first.exec(`CREATE TABLE kept (v text); INSERT INTO kept VALUES ('on disk')`);
      await expect(PgliteWorkerSqlClient.open(dir)).rejects.toThrow(/in use by another portal process/);
      await expect(PgliteSqlClient.open(dir)).rejects.toThrow(/in use by another portal process/);
      await first.close();
      // Released, and the data is there for the next process (in-process client this time).
      const second = await PgliteSqlClient.open(dir);
      expect((await second.query('SELECT v FROM kept')).rows).toEqual([{ v: 'on disk' }]);
      await second.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
