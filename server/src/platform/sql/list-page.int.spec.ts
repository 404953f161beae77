import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { filters, listPage } from '@portal/projections';
import { sqlTargets } from '../testing/sql-targets.js';
import type { SqlClient } from './sql-client.js';

/**
 * `listPage` on both real databases: the exact count, and the count that stops early (`countUpTo`,
 * decision 0069) that big lists use, which must still page correctly to the last row.
 */
describe.each(sqlTargets('list_page'))('listPage on $name', (target) => {
  let sql: SqlClient;

  beforeAll(async () => {
    sql = await target.open();
    await sql.exec(`CREATE TABLE people (id int PRIMARY KEY, team text NOT NULL)`);
    // 23 people in team a, 4 in team b.
    await sql.exec(
      `INSERT INTO people SELECT i, CASE WHEN i <= 23 THEN 'a' ELSE 'b' END FROM generate_series(1, 27) i`,
    );
  });
  afterAll(async () => {
    await sql.close();
    await target.close();
  });

  const teamA = () => filters().eq('team', 'a');

  it('counts exactly when no bound is given, and says nothing about exactness', async () => {
    const page = await listPage<{ id: number }>(sql, {
      from: 'people',
      where: teamA(),
      orderBy: 'id',
      size: 5,
    });
    expect(page.total).toBe(23);
    expect(page.total_exact).toBeUndefined();
    expect(page.items.map((r) => r.id)).toEqual([1, 2, 3, 4, 5]);
  });

  it('counts exactly when the rows fit under the bound', async () => {
    const page = await listPage<{ id: number }>(sql, {
      from: 'people',
      where: filters().eq('team', 'b'),
      orderBy: 'id',
      size: 2,
      countUpTo: 10,
    });
    expect(page).toMatchObject({ total: 4, total_exact: true });
  });

  it('stops counting past the bound and answers a lower bound that still offers the next page', async () => {
    const page = await listPage<{ id: number }>(sql, {
      from: 'people',
      where: teamA(),
      orderBy: 'id',
      size: 5,
      countUpTo: 10,
    });
    expect(page).toMatchObject({ total: 11, total_exact: false, page: 1 });
    expect(page.items.map((r) => r.id)).toEqual([1, 2, 3, 4, 5]);
  });

  it('counts up to the page asked for, so a deep page beyond the bound is counted and the end found', async () => {
    const deep = await listPage<{ id: number }>(sql, {
      from: 'people',
      where: teamA(),
      orderBy: 'id',
      size: 5,
      page: 3,
      countUpTo: 10,
    });
    // Rows 11-15; 15 counted and more exist.
    expect(deep).toMatchObject({ total: 16, total_exact: false });
    expect(deep.items.map((r) => r.id)).toEqual([11, 12, 13, 14, 15]);
    const last = await listPage<{ id: number }>(sql, {
      from: 'people',
      where: teamA(),
      orderBy: 'id',
      size: 5,
      page: 5,
      countUpTo: 10,
    });
    expect(last).toMatchObject({ total: 23, total_exact: true });
    expect(last.items.map((r) => r.id)).toEqual([21, 22, 23]);
  });

  it('with pageFirst, gives the same page and computes the select list only for its rows', async () => {
    // A sequence counts how often the select list is computed: without pageFirst PostgreSQL computes it
    // for every row OFFSET skips too.
    await sql.exec(`CREATE SEQUENCE IF NOT EXISTS select_calls`);
    const calls = async () =>
      Number((await sql.query<{ n: string }>(`SELECT last_value::text AS n FROM select_calls`)).rows[0]!.n);
    const spec = {
      select: `people.*, (SELECT count(*) FROM people o WHERE o.team = people.team AND o.id < people.id)::int
        AS before, nextval('select_calls') AS call`,
      from: 'people',
      where: teamA(),
      orderBy: 'id DESC',
      size: 5,
      page: 3,
    };
    const start = await calls();
    const plain = await listPage<{ id: number; before: number }>(sql, spec);
    const afterPlain = await calls();
    const first = await listPage<{ id: number; before: number }>(sql, { ...spec, pageFirst: true });
    const afterFirst = await calls();
    expect(first.items.map((r) => [r.id, r.before])).toEqual([
      [13, 12],
      [12, 11],
      [11, 10],
      [10, 9],
      [9, 8],
    ]);
    expect(first.items.map((r) => r.id)).toEqual(plain.items.map((r) => r.id));
    expect(first.total).toBe(23);
    expect(afterFirst - afterPlain).toBe(5);
    expect(afterPlain - start).toBeGreaterThan(5);
    await expect(listPage(sql, { ...spec, from: 'people p', pageFirst: true })).rejects.toThrow(
      /bare table name/,
    );
  });
});
