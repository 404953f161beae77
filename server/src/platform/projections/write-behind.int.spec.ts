import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import type { SqlClient, SqlExecutor, SqlSession } from '../sql/sql-client.js';
import pg from 'pg';
import { escapeLiteral, inlineParams, placeholderCount } from '../sql/sql-literal.js';
import { PreparedStatements } from './prepared-statements.js';
import { sqlTargets } from '../testing/sql-targets.js';
import { WriteBehindTx } from './write-behind.js';

const targets = sqlTargets('portal_write_behind');

/** Values a projection writes, each with a column of the type it lands in. */
const VALUES: [column: string, type: string, value: unknown, expected: unknown][] = [
  ['t_quote', 'text', 'O\'Brien said "hi"', 'O\'Brien said "hi"'],
  ['t_backslash', 'text', 'C:\\temp\\new \\x41 \\\\', 'C:\\temp\\new \\x41 \\\\'],
  ['t_unicode', 'text', 'Zoë ✓ 日本 $1 $$ -- /* ;', 'Zoë ✓ 日本 $1 $$ -- /* ;'],
  ['t_null', 'text', null, null],
  ['t_undefined', 'text', undefined, null],
  ['b_true', 'boolean', true, true],
  ['b_false', 'boolean', false, false],
  ['i_number', 'integer', 42, 42],
  ['n_float', 'double precision', 1.5, 1.5],
  ['big', 'bigint', 9007199254740993n, '9007199254740993'],
  ['ts', 'timestamptz', new Date('2026-03-29T00:59:59.123Z'), new Date('2026-03-29T00:59:59.123Z')],
  ['ts_text', 'timestamptz', '2026-11-25T09:00:00+01:00', new Date('2026-11-25T08:00:00Z')],
  ['arr', 'text[]', ['a', 'b "c"', 'd\\e', null, "f'g"], ['a', 'b "c"', 'd\\e', null, "f'g"]],
  ['arr_empty', 'text[]', [], []],
  [
    'obj',
    'jsonb',
    { a: "it's", b: [1, null], c: 'back\\slash' },
    { a: "it's", b: [1, null], c: 'back\\slash' },
  ],
  ['bytes', 'bytea', Buffer.from([0, 1, 254, 255]), Buffer.from([0, 1, 254, 255])],
  ['id', 'uuid', '8d6c3c0e-5b1a-4a57-9f3e-0c2d7e0b1a11', '8d6c3c0e-5b1a-4a57-9f3e-0c2d7e0b1a11'],
];

describe('inlineParams', () => {
  it('leaves placeholders inside strings, quoted names, dollar quotes and comments alone', () => {
    const sql = `SELECT '$1', "$1", $q$ $1 $q$, $1 -- $2\n, /* $2 */ $2, x$1`;
    expect(inlineParams(sql, ['a', 'b'])).toBe(
      `SELECT '$1', "$1", $q$ $1 $q$, 'a' -- $2\n, /* $2 */ 'b', x$1`,
    );
  });

  it('refuses a placeholder without a parameter', () => {
    expect(() => inlineParams('SELECT $2', ['only one'])).toThrow('No parameter for $2');
  });

  it('inlines a text it has seen before with the new values ($1 and $10 told apart)', () => {
    const sql = `UPDATE t SET a = $1, b = $10, c = '$1' WHERE id = $2`;
    const params = (v: string) => [v, 'k', 3, 4, 5, 6, 7, 8, 9, `${v}!`];
    expect(inlineParams(sql, params('x'))).toBe(`UPDATE t SET a = 'x', b = 'x!', c = '$1' WHERE id = 'k'`);
    expect(inlineParams(sql, params("o'y"))).toBe(
      `UPDATE t SET a = 'o''y', b = 'o''y!', c = '$1' WHERE id = 'k'`,
    );
    expect(() => inlineParams(sql, ['too few'])).toThrow('No parameter for $10');
  });
});

describe.each(targets)('WriteBehindTx on $name', (target) => {
  let sql: SqlClient;
  beforeAll(async () => {
    sql = await target.open();
  });
  afterAll(async () => {
    await sql.close();
    await target.close();
  });
  beforeEach(async () => {
    await sql.exec(`DROP TABLE IF EXISTS wb_rows, wb_totals, wb_values;
      CREATE TABLE wb_rows (id int PRIMARY KEY, name text NOT NULL, tags jsonb NOT NULL DEFAULT '[]');
      CREATE TABLE wb_totals (name text PRIMARY KEY, n int NOT NULL);
      CREATE TABLE wb_values (${VALUES.map(([c, t]) => `${c} ${t}`).join(', ')})`);
  });

  it('stores every kind of value exactly as a parameter would', async () => {
    const columns = VALUES.map(([c]) => c);
    const insert = `INSERT INTO wb_values (${columns.join(', ')}) VALUES (${columns.map((_, i) => `$${i + 1}`).join(', ')})`;
    await sql.transaction(async (direct) => {
      const tx = new WriteBehindTx(direct);
      await tx.query(
        insert,
        VALUES.map(([, , v]) => v),
      );
      await tx.flush();
      expect(tx.stats).toMatchObject({ deferred: 1, scripts: 1 });
    });
    const { rows } = await sql.query<Record<string, unknown>>(`SELECT * FROM wb_values`);
    for (const [column, , , expected] of VALUES) {
      const got = rows[0]![column];
      if (expected instanceof Date) expect(new Date(got as string).getTime()).toBe(expected.getTime());
      else if (Buffer.isBuffer(expected)) expect(Buffer.from(got as Uint8Array)).toEqual(expected);
      else expect(typeof got === 'bigint' ? String(got) : got).toEqual(expected);
    }
  });

  it('merges consecutive single-row INSERTs into one statement and keeps the order of everything else', async () => {
    await sql.transaction(async (direct) => {
      const tx = new WriteBehindTx(direct);
      for (let i = 1; i <= 5; i++) {
        await tx.query(`INSERT INTO wb_rows (id, name) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING`, [
          i,
          `r${i}`,
        ]);
        // Another table between the rows: it does not name wb_rows, so the rows still merge.
        await tx.query(
          `INSERT INTO wb_totals (name, n) VALUES ('all', 1) ON CONFLICT (name) DO UPDATE SET n = wb_totals.n + 1`,
        );
      }
      // A replayed row: DO NOTHING keeps the first, as five separate statements would.
      await tx.query(`INSERT INTO wb_rows (id, name) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING`, [
        3,
        'again',
      ]);
      // An update of a merged row waits after it; the next INSERT may not overtake the update.
      await tx.query(`UPDATE wb_rows SET tags = tags || $2::jsonb WHERE id = $1`, [2, '["x"]']);
      await tx.query(`INSERT INTO wb_rows (id, name) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING`, [6, 'r6']);
      // A read sees every write before it.
      const { rows } = await tx.query<{ n: number }>(`SELECT count(*)::int AS n FROM wb_rows`);
      expect(rows[0]!.n).toBe(6);
      // Rows 2-5 and the replay join row 1; row 6 comes after the UPDATE; the upserts of wb_totals do not
      // merge (their key is no placeholder).
      expect(tx.stats.merged).toBe(5);
    });
    const { rows } = await sql.query(`SELECT id, name, tags FROM wb_rows ORDER BY id`);
    expect(rows).toEqual([
      { id: 1, name: 'r1', tags: [] },
      { id: 2, name: 'r2', tags: ['x'] },
      { id: 3, name: 'r3', tags: [] },
      { id: 4, name: 'r4', tags: [] },
      { id: 5, name: 'r5', tags: [] },
      { id: 6, name: 'r6', tags: [] },
    ]);
    expect((await sql.query(`SELECT n FROM wb_totals`)).rows).toEqual([{ n: 5 }]);
  });

  it('merges upserts (DO UPDATE) whose keys differ, and starts a new statement at a repeated key', async () => {
    const upsert = `INSERT INTO wb_totals (name, n) VALUES ($1, $2::int)
      ON CONFLICT (name) DO UPDATE SET n = wb_totals.n * 10 + EXCLUDED.n WHERE wb_totals.n < 1000`;
    await sql.query(`INSERT INTO wb_totals (name, n) VALUES ('b', 1), ('big', 5000)`);
    await sql.transaction(async (direct) => {
      const tx = new WriteBehindTx(direct);
      await tx.query(upsert, ['a', 1]); // new row
      await tx.query(upsert, ['b', 2]); // joins: b = 12
      await tx.query(upsert, ['big', 3]); // joins: the WHERE keeps 5000
      await tx.query(upsert, ['A', 4]); // a key differing only in case: not merged (new statement)
      await tx.query(upsert, ['a', 5]); // 'a' again: a third statement, after the first (a = 15)
      await tx.query(upsert, ['c', 6]); // joins the last statement
      // A key given by an expression is never merged.
      await tx.query(
        `INSERT INTO wb_totals (name, n) VALUES (lower($1), $2::int) ON CONFLICT (name) DO UPDATE SET n = EXCLUDED.n`,
        ['D', 7],
      );
      await tx.query(
        `INSERT INTO wb_totals (name, n) VALUES (lower($1), $2::int) ON CONFLICT (name) DO UPDATE SET n = EXCLUDED.n`,
        ['E', 8],
      );
      await tx.flush();
      expect(tx.stats).toMatchObject({ deferred: 8, merged: 3, scripts: 1 });
    });
    const { rows } = await sql.query(`SELECT name, n FROM wb_totals ORDER BY name COLLATE "C"`);
    expect(rows).toEqual([
      { name: 'A', n: 4 },
      { name: 'a', n: 15 },
      { name: 'b', n: 12 },
      { name: 'big', n: 5000 },
      { name: 'c', n: 6 },
      { name: 'd', n: 7 },
      { name: 'e', n: 8 },
    ]);
  });

  it('merges UPDATEs of one text whose keys differ, typed as the single statements are', async () => {
    await sql.exec(`DROP TABLE IF EXISTS wb_marks;
      CREATE TABLE wb_marks (lesson uuid, student int, mark text, at timestamptz, tags jsonb NOT NULL DEFAULT '[]',
        n int NOT NULL DEFAULT 0, version bigint NOT NULL DEFAULT 0, PRIMARY KEY (lesson, student))`);
    const lesson = '8d6c3c0e-5b1a-4a57-9f3e-0c2d7e0b1a11';
    await sql.query(
      `INSERT INTO wb_marks (lesson, student, version) SELECT $1, s, 1 FROM generate_series(1, 250) s`,
      [lesson],
    );
    const mark = `UPDATE wb_marks SET mark = $3, at = $4, tags = tags || $5::jsonb, n = n + 1, version = $6::bigint
      WHERE lesson = $1 AND student = $2 AND version < $6::bigint`;
    await sql.transaction(async (direct) => {
      const tx = new WriteBehindTx(direct);
      for (let s = 1; s <= 250; s++)
        await tx.query(mark, [
          lesson.toUpperCase(),
          s,
          s % 2 ? 'P' : null,
          new Date(Date.UTC(2026, 0, 1, 9, s)),
          '["m"]',
          2,
        ]);
      // A repeated key waits for a statement of its own, after the first; a stale version changes nothing.
      await tx.query(mark, [lesson, 1, 'L', '2026-01-02T10:00:00+01:00', '["again"]', 3]);
      await tx.query(mark, [lesson, 2, 'X', null, '["stale"]', 1]);
      // Keys that are not uuids, integers or dates (equal values might be written differently) are not merged.
      await tx.query(`UPDATE wb_marks SET mark = $3 WHERE lesson = $1 AND mark = $2`, [lesson, 'none', 'x']);
      await tx.query(`UPDATE wb_marks SET mark = $3 WHERE lesson = $1 AND mark = $2`, [lesson, 'nil', 'y']);
      // An UPDATE with a placeholder nothing types is sent as it is.
      await tx.query(`UPDATE wb_marks SET n = n + $2 WHERE lesson = $1 AND student = 3`, [lesson, 10]);
      await tx.query(`UPDATE wb_marks SET n = n + $2 WHERE lesson = $1 AND student = 4`, [lesson, 10]);
      await tx.flush();
      // 250 rows in statements of at most 100 (100, 100, 50); student 1 again and student 2 join the
      // third (it comes after the first), the four others are not merged.
      expect(tx.stats).toMatchObject({ deferred: 256, merged: 249, scripts: 1 });
    });
    const { rows } = await sql.query<Record<string, unknown>>(
      `SELECT student, mark, at, tags, n, version::int AS version FROM wb_marks WHERE student IN (1, 2, 3, 4, 250) ORDER BY student`,
    );
    expect(rows).toEqual([
      {
        student: 1,
        mark: 'L',
        at: new Date('2026-01-02T09:00:00Z'),
        tags: ['m', 'again'],
        n: 2,
        version: 3,
      },
      { student: 2, mark: null, at: new Date(Date.UTC(2026, 0, 1, 9, 2)), tags: ['m'], n: 1, version: 2 },
      { student: 3, mark: 'P', at: new Date(Date.UTC(2026, 0, 1, 9, 3)), tags: ['m'], n: 11, version: 2 },
      { student: 4, mark: null, at: new Date(Date.UTC(2026, 0, 1, 9, 4)), tags: ['m'], n: 11, version: 2 },
      {
        student: 250,
        mark: null,
        at: new Date(Date.UTC(2026, 0, 1, 13, 10)),
        tags: ['m'],
        n: 1,
        version: 2,
      },
    ]);
  });

  it('answers a write with no rows at once and reports its error at the flush', async () => {
    await expect(
      sql.transaction(async (direct) => {
        const tx = new WriteBehindTx(direct);
        expect(await tx.query(`INSERT INTO wb_rows (id, name) VALUES ($1, $2)`, [1, 'a'])).toEqual({
          rows: [],
        });
        expect(await tx.query(`INSERT INTO wb_rows (id, name) VALUES ($1, $2)`, [1, 'b'])).toEqual({
          rows: [],
        });
        await tx.flush();
      }),
    ).rejects.toThrow(/duplicate key/);
    expect((await sql.query(`SELECT count(*)::int AS n FROM wb_rows`)).rows).toEqual([{ n: 0 }]);
  });

  it('writes a value as it was when the statement was written, though the caller changes it after', async () => {
    await sql.transaction(async (direct) => {
      const tx = new WriteBehindTx(direct);
      await tx.query(`INSERT INTO wb_rows (id, name) VALUES (1, 'a')`);
      const tags = { list: ['first'] };
      // Not merged (a repeated key would start a new statement; one UPDATE alone is inlined at the flush).
      await tx.query(`UPDATE wb_rows SET tags = $2::jsonb WHERE id = $1 AND $3::int = 1`, [1, tags, 1]);
      tags.list.push('changed after');
      await tx.flush();
    });
    expect((await sql.query(`SELECT tags FROM wb_rows`)).rows).toEqual([{ tags: { list: ['first'] } }]);
  });

  it('tells a data-modifying WITH (waits) from a WITH that reads (answers at once)', async () => {
    await sql.transaction(async (direct) => {
      const tx = new WriteBehindTx(direct);
      const write = await tx.query(
        `WITH created AS (INSERT INTO wb_rows (id, name) VALUES ($1, $2) RETURNING id)
         INSERT INTO wb_totals (name, n) SELECT 'rows', count(*)::int FROM created`,
        [1, 'a'],
      );
      expect(write).toEqual({ rows: [] });
      expect(tx.stats).toMatchObject({ deferred: 1, direct: 0 });
      const read = await tx.query<{ n: number }>(
        `WITH t AS (SELECT n FROM wb_totals WHERE name = 'rows') SELECT n FROM t`,
      );
      expect(read.rows).toEqual([{ n: 1 }]);
      expect(tx.stats).toMatchObject({ deferred: 1, direct: 1 });
    });
  });

  it('sends a statement that answers (RETURNING) at once, after what waits', async () => {
    await sql.transaction(async (direct) => {
      const tx = new WriteBehindTx(direct);
      await tx.query(`INSERT INTO wb_rows (id, name) VALUES ($1, $2)`, [1, 'a']);
      const { rows } = await tx.query(`UPDATE wb_rows SET name = $2 WHERE id = $1 RETURNING name`, [1, 'b']);
      expect(rows).toEqual([{ name: 'b' }]);
    });
  });

  describe('with prepared statements', () => {
    beforeEach(async () => {
      await sql.exec(`DROP SCHEMA IF EXISTS wb_build CASCADE`);
    });

    // Prepared statements belong to a connection: each test writes through one session, as the runner does.
    let session: SqlSession;
    beforeEach(async () => {
      session = await sql.session();
    });
    afterEach(async () => {
      await session.release();
    });

    /** Runs `write` in a transaction on the test's session, through a write-behind that uses `prepared`. */
    function onSession(
      prepared: PreparedStatements,
      write: (tx: WriteBehindTx, direct: SqlExecutor) => Promise<void>,
    ): Promise<WriteBehindTx> {
      return session.transaction(async (direct) => {
        const tx = new WriteBehindTx(direct, prepared);
        await write(tx, direct);
        await tx.flush();
        return tx;
      });
    }

    const append = `UPDATE wb_rows SET name = $2, tags = tags || $3::jsonb WHERE id = $1`;

    it('sends a text used again and again as EXECUTE of a statement prepared once, with the same effect', async () => {
      const prepared = new PreparedStatements();
      const columns = VALUES.map(([c]) => c);
      const insert = `INSERT INTO wb_values (${columns.join(', ')}) VALUES (${columns.map((_, i) => `$${i + 1}`).join(', ')})`;
      const tx = await onSession(prepared, async (tx) => {
        await tx.query(`INSERT INTO wb_rows (id, name) VALUES (1, 'a')`);
        for (let i = 1; i <= 6; i++) {
          // The same key each time: no merge, each waits for the one before.
          await tx.query(append, [1, `name ${i}`, JSON.stringify([i])]);
          await tx.query(
            insert,
            VALUES.map(([, , v]) => v),
          );
          // A statement naming wb_values between the rows keeps them apart (not merged).
          await tx.query(`UPDATE wb_values SET t_null = NULL WHERE false`);
          await tx.flush();
        }
      });
      // From the third use on, each of the three texts is an EXECUTE (3 x 4 of the 18).
      expect(prepared.stats).toEqual({ prepared: 3, refused: 0 });
      expect(tx.stats).toMatchObject({ deferred: 19, merged: 0, executed: 12 });
      expect((await sql.query(`SELECT name, tags FROM wb_rows`)).rows).toEqual([
        { name: 'name 6', tags: [1, 2, 3, 4, 5, 6] },
      ]);
      const { rows } = await sql.query<Record<string, unknown>>(`SELECT * FROM wb_values`);
      expect(rows).toHaveLength(6);
      for (const row of rows)
        for (const [column, , , expected] of VALUES) {
          const got = row[column];
          if (expected instanceof Date) expect(new Date(got as string).getTime()).toBe(expected.getTime());
          else if (Buffer.isBuffer(expected)) expect(Buffer.from(got as Uint8Array)).toEqual(expected);
          else expect(typeof got === 'bigint' ? String(got) : got).toEqual(expected);
        }
    });

    it('keeps what it prepared across transactions, also one rolled back', async () => {
      const prepared = new PreparedStatements();
      await sql.query(`INSERT INTO wb_rows (id, name) VALUES (1, 'a')`);
      await expect(
        onSession(prepared, async (tx) => {
          for (let i = 1; i <= 3; i++) await tx.query(append, [1, `x${i}`, '[0]']);
          await tx.flush();
          throw new Error('the batch fails after the PREPARE');
        }),
      ).rejects.toThrow('the batch fails');
      expect(prepared.stats.prepared).toBe(1);
      const tx = await onSession(prepared, async (tx) => {
        await tx.query(append, [1, 'b', '["kept"]']);
      });
      expect(tx.stats.executed).toBe(1);
      expect((await sql.query(`SELECT name, tags FROM wb_rows`)).rows).toEqual([
        { name: 'b', tags: ['kept'] },
      ]);
    });

    it('sends a text the server cannot prepare inlined, and the transaction goes on', async () => {
      const prepared = new PreparedStatements();
      await sql.query(`INSERT INTO wb_rows (id, name) VALUES (1, 'a'), (2, 'b')`);
      // Nothing tells the server the type of $2 in `$2 IS NULL`; as an untyped literal it is fine.
      const rename = `UPDATE wb_rows SET name = name || '!' WHERE id = $1 AND $2 IS NULL`;
      const tx = await onSession(prepared, async (tx) => {
        for (let i = 0; i < 4; i++) {
          await tx.query(rename, [1, null]);
          await tx.query(rename, [2, 'not null']);
          await tx.flush();
        }
      });
      expect(prepared.stats).toEqual({ prepared: 0, refused: 1 });
      expect(tx.stats.executed).toBe(0);
      expect((await sql.query(`SELECT id, name FROM wb_rows ORDER BY id`)).rows).toEqual([
        { id: 1, name: 'a!!!!' },
        { id: 2, name: 'b' },
      ]);
    });

    it('writes to the table on the search_path of the moment (a projection built in its own schema)', async () => {
      const prepared = new PreparedStatements();
      await sql.exec(`CREATE SCHEMA wb_build; CREATE TABLE wb_build.wb_rows (LIKE public.wb_rows INCLUDING ALL);
        INSERT INTO wb_rows (id, name) VALUES (1, 'live'); INSERT INTO wb_build.wb_rows (id, name) VALUES (1, 'build')`);
      await onSession(prepared, async (tx) => {
        for (let i = 1; i <= 3; i++) await tx.query(append, [1, 'live', JSON.stringify([i])]);
      });
      const tx = await onSession(prepared, async (tx, direct) => {
        await direct.query('SET LOCAL search_path TO wb_build, public');
        await tx.query(append, [1, 'build', '["b"]']);
      });
      expect(tx.stats.executed).toBe(1);
      expect((await sql.query(`SELECT tags FROM public.wb_rows`)).rows).toEqual([{ tags: [1, 2, 3] }]);
      expect((await sql.query(`SELECT tags FROM wb_build.wb_rows`)).rows).toEqual([{ tags: ['b'] }]);
    });

    it('fails once when a prepared statement is gone, then prepares it anew', async () => {
      const prepared = new PreparedStatements();
      await sql.query(`INSERT INTO wb_rows (id, name) VALUES (1, 'a')`);
      const write = (name: string) =>
        onSession(prepared, (tx) => tx.query(append, [1, name, '[]']).then(() => {}));
      for (let i = 0; i < 4; i++) await write(`n${i}`);
      expect(prepared.stats.prepared).toBe(1);
      await session.query('DEALLOCATE ALL');
      await expect(write('lost')).rejects.toMatchObject({ code: '26000' });
      await write('again');
      for (let i = 0; i < 3; i++) await write(`m${i}`);
      expect(prepared.stats.prepared).toBe(2);
      expect((await sql.query(`SELECT name FROM wb_rows`)).rows).toEqual([{ name: 'm2' }]);
    });
  });
});

describe('escapeLiteral', () => {
  it('writes the same literal as pg.escapeLiteral', () => {
    for (const text of [
      '',
      'plain',
      "O'Brien",
      "''",
      'C:\\temp',
      "a\\'b",
      '\\',
      'Zoë ✓ 日本 $1 -- /*',
      '\n\t',
    ])
      expect(escapeLiteral(text)).toBe(pg.escapeLiteral(text));
  });
});

describe('placeholderCount', () => {
  it('is the highest placeholder outside quotes and comments', () => {
    expect(placeholderCount(`UPDATE t SET a = $1, b = '$9' WHERE id = $3 -- $12`)).toBe(3);
    expect(placeholderCount(`DELETE FROM t`)).toBe(0);
  });
});
