import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { FOLD_FROM, type Projection, type ProjectionEvent } from '@portal/projections';
import type { SqlClient } from '../sql/sql-client.js';
import { sqlTargets } from './sql-targets.js';

/**
 * The projection test kit (decision 0045): the contract every projection keeps, and a small
 * given/then helper, both against a real database (run them on each of `sqlTargets`).
 */

/** A table's rows, in a stable order (sorted by their JSON), so two dumps compare equal. */
export type Dump = Record<string, unknown[]>;

const stable = (v: unknown): string =>
  JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? x.toString() : x)) ?? '';

/** Drops the projection's tables and creates them again, empty. */
export async function resetProjection(sql: SqlClient, projection: Projection): Promise<void> {
  for (const t of [...projection.tables].reverse()) await sql.query(`DROP TABLE IF EXISTS ${t} CASCADE`);
  for (const ddl of projection.schema) await sql.query(ddl);
}

/**
 * Applies events the way the runner does: `batch` (default) in one transaction through `applyBatch`
 * when the projection has one; `one-by-one` in a transaction per event through `apply`.
 */
export async function applyEvents(
  sql: SqlClient,
  projection: Projection,
  events: readonly ProjectionEvent[],
  mode: 'batch' | 'one-by-one' = 'batch',
): Promise<void> {
  const mine = events.filter((e) => projection.handles.includes(e.type));
  if (mode === 'one-by-one') {
    for (const e of mine) await sql.transaction((tx) => projection.apply(e, tx));
    return;
  }
  await sql.transaction(async (tx) => {
    if (projection.applyBatch) await projection.applyBatch(mine, tx);
    else for (const e of mine) await projection.apply(e, tx);
  });
}

/** Every row of every table the projection owns. */
export async function rowsOf(sql: SqlClient, projection: Projection): Promise<Dump> {
  const out: Dump = {};
  for (const t of projection.tables) {
    const { rows } = await sql.query(`SELECT * FROM ${t}`);
    out[t] = rows
      .map((r) => [stable(r), r] as const)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([, r]) => r);
  }
  return out;
}

/**
 * The contract of every projection, on `history` (a recorded sequence of events, any types):
 * - applied event by event, it builds some state (returned, for further assertions);
 * - replaying the whole history once more, and then again, changes nothing (idempotence: the runner
 *   may deliver an event again after a crash between commit and acknowledgement);
 * - a rebuild from scratch in one batch (the runner's catch-up path, `applyBatch` when present)
 *   equals the incremental result.
 */
export async function projectionContract(
  sql: SqlClient,
  projection: Projection,
  history: readonly ProjectionEvent[],
): Promise<Dump> {
  await resetProjection(sql, projection);
  await applyEvents(sql, projection, history, 'one-by-one');
  const incremental = await rowsOf(sql, projection);

  await applyEvents(sql, projection, history, 'one-by-one');
  expect(await rowsOf(sql, projection)).toEqual(incremental);
  await applyEvents(sql, projection, history, 'batch');
  expect(await rowsOf(sql, projection)).toEqual(incremental);

  await resetProjection(sql, projection);
  await applyEvents(sql, projection, history, 'batch');
  expect(await rowsOf(sql, projection)).toEqual(incremental);
  return incremental;
}

/**
 * `await given(sql, projection, events).then('rm_x', [{ id, name }])`: resets the projection, applies
 * the events and expects the table's rows (sorted like `rowsOf`) to match the given partial rows.
 */
export function given(sql: SqlClient, projection: Projection, events: readonly ProjectionEvent[]) {
  return {
    async then(table: string, expected: Record<string, unknown>[]): Promise<unknown[]> {
      await resetProjection(sql, projection);
      await applyEvents(sql, projection, events, 'one-by-one');
      const rows = (await rowsOf(sql, projection))[table] ?? [];
      expect(rows).toMatchObject(expected);
      return rows;
    },
  };
}

/**
 * Recorded events from `[stream, type, data]` triples, with per-stream revisions, global positions
 * and one second between events, as the runner hands them over.
 */
export function record(
  history: readonly (readonly [stream: string, type: string, data: unknown])[],
  start = Date.UTC(2026, 0, 1),
): ProjectionEvent[] {
  const revisions = new Map<string, bigint>();
  return history.map(([stream, type, data], i) => {
    const revision = revisions.get(stream) ?? 0n;
    revisions.set(stream, revision + 1n);
    return {
      id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
      stream,
      revision,
      position: BigInt(i + 1),
      type,
      data,
      metadata: { actorId: null, occurredAt: new Date(start + i * 1000).toISOString() },
      createdAt: new Date(start + i * 1000),
    };
  });
}

/**
 * Ways to cut a history of `length` events into batches, for a projection whose `applyBatch` folds
 * (decision 0086): all in one; batches of `FOLD_FROM`; one of `FOLD_FROM + 1` and then batches too
 * small to fold; and a few events first, so the rest continues rows made by an earlier batch.
 */
export function batchCuttings(length: number, foldFrom: number): [string, number[]][] {
  const small = [3, 1, foldFrom - 1];
  const rest: number[] = [];
  for (let left = length - (foldFrom + 1), i = 0; left > 0; i++) {
    const n = Math.min(left, small[i % small.length]!);
    rest.push(n);
    left -= n;
  }
  return [
    ['one batch', [length]],
    [`batches of ${foldFrom}`, Array.from({ length: Math.ceil(length / foldFrom) }, () => foldFrom)],
    [`${foldFrom + 1}, then batches too small to fold`, [foldFrom + 1, ...rest]],
    ['a few events, then one batch that continues them', [3, length - 3]],
  ];
}

/** Resets the projection and applies `history` through `applyBatch`, one transaction per batch of `sizes`. */
export async function applyInBatches(
  sql: SqlClient,
  projection: Projection,
  history: readonly ProjectionEvent[],
  sizes: readonly number[],
): Promise<Dump> {
  await resetProjection(sql, projection);
  let at = 0;
  for (const size of sizes) {
    await applyEvents(sql, projection, history.slice(at, at + size), 'batch');
    at += size;
  }
  expect(at).toBeGreaterThanOrEqual(history.length);
  return rowsOf(sql, projection);
}

/**
 * The spec of a projection whose `applyBatch` folds (decisions 0086, 0088), on PGlite and on PostgreSQL
 * (`database` names the throwaway PostgreSQL database):
 * - `history` applied event by event builds what `walk.check` expects (the history uses every rule the
 *   fold copies; `byEvent` is every row it built);
 * - cut into batches in each of the `batchCuttings` ways and applied through `applyBatch`, it gives the
 *   same rows;
 * - it keeps the projection contract.
 */
export function describeFoldInBatches(
  label: string,
  database: string,
  projection: Projection,
  history: readonly ProjectionEvent[],
  walk: { title: string; check: (sql: SqlClient, byEvent: Dump) => Promise<void> },
): void {
  // Every cutting must fold a batch, and the last one (a few events first) must fold over rows an
  // earlier batch wrote: a shorter history would pass whatever the fold does to existing rows.
  if (history.length < FOLD_FROM + 3)
    throw new Error(
      `${label}: a fold's history needs at least ${FOLD_FROM + 3} events, not ${history.length}`,
    );
  describe.each(sqlTargets(database))(`${label} in batches on $name`, (target) => {
    let sql: SqlClient;
    let byEvent: Dump;
    beforeAll(async () => {
      sql = await target.open();
      await resetProjection(sql, projection);
      await applyEvents(sql, projection, history, 'one-by-one');
      byEvent = await rowsOf(sql, projection);
    });
    afterAll(async () => {
      await sql.close();
      await target.close();
    });

    it(walk.title, () => walk.check(sql, byEvent));

    it.each(batchCuttings(history.length, FOLD_FROM))(
      '%s through applyBatch give the rows event by event gives',
      async (_name, sizes) => {
        expect(await applyInBatches(sql, projection, history, sizes)).toEqual(byEvent);
      },
    );

    it('keeps the projection contract on this history (replays change nothing)', async () => {
      expect(await projectionContract(sql, projection, history)).toEqual(byEvent);
    });
  });
}
