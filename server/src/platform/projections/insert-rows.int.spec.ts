/**
 * `insertRows` (decision 0086) and its `COPY` path for many new rows (decision 0093), on PGlite and on
 * PostgreSQL: rows land in the table exactly as given, conflicts are treated as the clause says, and
 * the rows keep their place among the statements the write-behind holds before and after them.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { COPY_FROM_ROWS, insertRows } from '@portal/projections';
import type { SqlClient } from '../sql/sql-client.js';
import { sqlTargets } from '../testing/sql-targets.js';
import { WriteBehindTx } from './write-behind.js';

const targets = sqlTargets('portal_insert_rows');

const COLUMNS = {
  id: 'uuid',
  label: 'text',
  note: 'text',
  flag: 'boolean',
  amount: 'int',
  version: 'bigint',
  at: 'timestamptz',
  day: 'date',
  details: 'jsonb',
} as const;

type Row = Record<keyof typeof COLUMNS, unknown>;

const TABLE = `CREATE TABLE t_rows (
  id uuid PRIMARY KEY, label text NOT NULL, note text, flag boolean NOT NULL, amount int,
  version bigint NOT NULL, at timestamptz, day date, details jsonb,
  label_length int GENERATED ALWAYS AS (length(label)) STORED
)`;

/** Texts a name, note or reason may hold: every character COPY's text format escapes, and more. */
const AWKWARD = [
  'tab\there',
  'line\nbreak',
  'carriage\rreturn',
  'back\\slash \\N \\t \\\\',
  'O\'Brien said "hi"',
  'Zoë ✓ 日本 $1 $$ -- /* ;',
  '',
  '\\',
  'ends with a backslash \\',
];

const MANY = COPY_FROM_ROWS + 50;

function rows(n: number, label = (i: number) => `row ${i}`): Row[] {
  return Array.from({ length: n }, (_, i) => ({
    id: randomUUID().toUpperCase(),
    label: label(i),
    note: i % 5 === 0 ? null : i % 7 === 0 ? undefined : AWKWARD[i % AWKWARD.length]!,
    flag: i % 2 === 0,
    amount: i % 3 === 0 ? null : i - 100,
    version: (9007199254740993n + BigInt(i)).toString(),
    at: i % 4 === 0 ? new Date(Date.UTC(2026, 2, 29, 0, 59, i % 60, 123)) : '2026-11-25T09:00:00+01:00',
    day: '2026-11-30',
    details:
      i % 2 === 0
        ? JSON.stringify({ by: { id: 'u1', name: AWKWARD[i % AWKWARD.length] }, i })
        : { by: { id: 'u2', name: 'tab\there' }, list: [1, null, 'x'] },
  }));
}

/** What the table holds for `row` once written (ids read in lower case, as PostgreSQL prints them). */
function expected(row: Row): Record<string, unknown> {
  const details: unknown = typeof row.details === 'string' ? JSON.parse(row.details) : row.details;
  return {
    id: String(row.id).toLowerCase(),
    label: row.label,
    note: row.note ?? null,
    flag: row.flag,
    amount: row.amount,
    version: row.version,
    at: new Date(row.at as string | Date).toISOString(),
    day: row.day,
    details,
    label_length: String(row.label).length,
  };
}

async function read(sql: SqlClient): Promise<Map<string, Record<string, unknown>>> {
  const { rows: found } = await sql.query<Record<string, unknown>>(
    `SELECT id::text, label, note, flag, amount, version::text, at, day::text, details, label_length FROM t_rows`,
  );
  return new Map(
    found.map((r) => [String(r.id), { ...r, at: r.at === null ? null : (r.at as Date).toISOString() }]),
  );
}

describe.each(targets)('insertRows on $name', (target) => {
  let sql: SqlClient;

  beforeAll(async () => {
    sql = await target.open();
  });

  afterAll(async () => {
    await sql?.close();
    await target.close();
  });

  /** Runs `fn` in one transaction through a write-behind, as the projection runner does. */
  async function inBatch(fn: (tx: WriteBehindTx) => Promise<void>): Promise<WriteBehindTx> {
    const session = await sql.session();
    try {
      return await session.transaction(async (direct) => {
        const tx = new WriteBehindTx(direct);
        await fn(tx);
        await tx.flush();
        return tx;
      });
    } finally {
      await session.release();
    }
  }

  async function freshTable(schema = 'public'): Promise<void> {
    await sql.exec(`DROP TABLE IF EXISTS ${schema}.t_rows; ${TABLE.replace('t_rows', `${schema}.t_rows`)}`);
  }

  it(`writes ${MANY} rows exactly as given, through COPY`, async () => {
    await freshTable();
    const given = rows(MANY);
    const tx = await inBatch((tx) => insertRows(tx, 't_rows', COLUMNS, given, { conflict: '' }));
    expect(tx.stats.copies).toBe(1);
    const held = await read(sql);
    expect(held.size).toBe(MANY);
    for (const row of given) expect(held.get(String(row.id).toLowerCase())).toEqual(expected(row));
  });

  it('keeps rows already there under ON CONFLICT DO NOTHING and replaces them under an upsert', async () => {
    await freshTable();
    const first = rows(MANY, (i) => `first ${i}`);
    await inBatch((tx) => insertRows(tx, 't_rows', COLUMNS, first, { conflict: '' }));
    // Half of them again with other values, and as many new ones.
    const again = first
      .slice(0, MANY / 2)
      .map((r) => ({ ...r, label: `again ${String(r.label)}`, flag: !r.flag }));
    const fresh = rows(MANY / 2, (i) => `fresh ${i}`);
    const tx = await inBatch((tx) => insertRows(tx, 't_rows', COLUMNS, [...again, ...fresh]));
    // Rows that may conflict go as one statement with the clause, on both stores.
    expect(tx.stats.copies).toBe(0);
    let held = await read(sql);
    expect(held.size).toBe(MANY + MANY / 2);
    for (const row of [...first, ...fresh])
      expect(held.get(String(row.id).toLowerCase())).toEqual(expected(row));

    const changed = first.map((r) => ({ ...r, label: `changed ${String(r.label)}`, note: 'changed\tnote' }));
    await inBatch((tx) =>
      insertRows(tx, 't_rows', COLUMNS, changed, {
        conflict: `ON CONFLICT (id) DO UPDATE SET label = EXCLUDED.label, note = EXCLUDED.note`,
      }),
    );
    held = await read(sql);
    expect(held.size).toBe(MANY + MANY / 2);
    for (const row of [...changed, ...fresh])
      expect(held.get(String(row.id).toLowerCase())).toEqual(expected(row));
  });

  it('keeps the rows in their place among the statements written before and after them', async () => {
    await freshTable();
    const given = rows(MANY);
    const early = { ...given[0]!, label: 'written before' };
    await inBatch(async (tx) => {
      // Waits in the write-behind; it must reach the table before the rows, so it wins the conflict.
      await tx.query(
        `INSERT INTO t_rows (id, label, flag, version) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING`,
        [early.id, early.label, early.flag, early.version],
      );
      await insertRows(tx, 't_rows', COLUMNS, given);
      // Written after: must find the rows there.
      await tx.query(`UPDATE t_rows SET amount = 7 WHERE label LIKE 'row %'`);
      await tx.query(`DELETE FROM t_rows WHERE label = $1`, [given[1]!.label]);
    });
    const held = await read(sql);
    expect(held.size).toBe(MANY - 1);
    expect(held.get(String(early.id).toLowerCase())?.label).toBe('written before');
    expect(held.has(String(given[1]!.id).toLowerCase())).toBe(false);
    for (const row of given.slice(2)) expect(held.get(String(row.id).toLowerCase())?.amount).toBe(7);
  });

  it('sends what waits before the rows, when they go straight into the table', async () => {
    await freshTable();
    const before = rows(1, () => 'before');
    const given = rows(MANY);
    await inBatch(async (tx) => {
      await insertRows(tx, 't_rows', COLUMNS, before, { conflict: '' });
      // Waits in the write-behind; run after the rows, it would change them too.
      await tx.query(`UPDATE t_rows SET amount = 99`);
      await insertRows(tx, 't_rows', COLUMNS, given, { conflict: '' });
    });
    const held = await read(sql);
    expect(held.get(String(before[0]!.id).toLowerCase())?.amount).toBe(99);
    for (const row of given) expect(held.get(String(row.id).toLowerCase())).toEqual(expected(row));
  });

  it('fails the batch when a row breaks a constraint, and keeps nothing of it', async () => {
    await freshTable();
    const given = rows(MANY);
    const duplicated = [...given, { ...given[10]!, label: 'the same id again' }];
    await expect(
      inBatch(async (tx) => {
        await tx.query(`INSERT INTO t_rows (id, label, flag, version) VALUES ($1, 'before', true, 1)`, [
          randomUUID(),
        ]);
        await insertRows(tx, 't_rows', COLUMNS, duplicated, { conflict: '' });
      }),
    ).rejects.toThrow(/duplicate key|unique/i);
    expect((await read(sql)).size).toBe(0);
  });

  it('refuses a table or column name that is not a plain SQL name, before sending anything', async () => {
    await freshTable();
    for (const [table, columns] of [
      ['t_rows; DROP TABLE t_rows', ['id']],
      ['t_rows', ['id) FROM STDIN; --']],
    ] as const)
      await expect(
        inBatch(async (tx) => {
          await tx.copyIn!(table, columns, '');
        }),
      ).rejects.toThrow('not a plain SQL name');
    expect((await read(sql)).size).toBe(0);
  });

  it('writes into the table the search path names (a projection built beside its live tables)', async () => {
    await freshTable();
    await sql.exec(`DROP SCHEMA IF EXISTS build_rows CASCADE; CREATE SCHEMA build_rows`);
    await freshTable('build_rows');
    const given = rows(MANY);
    await inBatch(async (tx) => {
      await tx.query(`SET LOCAL search_path TO build_rows, public`);
      await insertRows(tx, 't_rows', COLUMNS, given, { conflict: '' });
    });
    expect((await read(sql)).size).toBe(0);
    const { rows: built } = await sql.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM build_rows.t_rows`,
    );
    expect(built[0]!.n).toBe(MANY);
    await sql.exec(`DROP SCHEMA build_rows CASCADE`);
  });
});
