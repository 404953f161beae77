import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { EventStore } from '../event-store/event-store.js';
import { PostgresEventStore } from '../event-store/postgres/postgres-event-store.js';
import { PgSqlClient } from '../sql/pg-client.js';
import type { SqlClient } from '../sql/sql-client.js';
import { createTestDatabase, type TestDatabase } from '../testing/postgres-test-database.js';
import { recordingLog } from '../testing/recording-log.js';
import { waitFor } from '../testing/wait-for.js';
import { CheckpointWatcher } from './checkpoint-watcher.js';
import { ProjectionRunner } from './projection-runner.js';
import { counterProjection } from './testing/counter.projection.js';
import { sqlTargets } from '../testing/sql-targets.js';

const counted = (n: number) => ({ id: randomUUID(), type: 'Counted', data: { n } });

async function appendCounted(store: EventStore, streams: number, perStream: number): Promise<bigint> {
  let last = 0n;
  for (let s = 0; s < streams; s++) {
    const stream = `counter-${randomUUID()}`;
    const r = await store.append(
      stream,
      Array.from({ length: perStream }, (_, i) => counted(i + 1)),
      { expectedRevision: 'no_stream' },
    );
    last = r.position;
  }
  return last;
}

async function dump(sql: SqlClient, name: string): Promise<unknown[]> {
  const applied = await sql.query(
    `SELECT event_id, position::text, times FROM ${name}_applied ORDER BY event_id`,
  );
  const totals = await sql.query(
    `SELECT stream, total::text, history, version FROM ${name}_totals ORDER BY stream`,
  );
  return [applied.rows, totals.rows];
}

/** `store` whose `readAll` call number `at` waits until `release()`. */
function gatedStore(store: EventStore, at: number, readsBelow?: bigint) {
  let calls = 0;
  let release: () => void = () => {};
  const held = new Promise<void>((r) => (release = r));
  const gated: EventStore = Object.create(store) as EventStore;
  gated.readAll = async (options) => {
    // `readsBelow`: only reads of old events count (a build's, not the live subscription's).
    const counts = readsBelow === undefined || (options?.fromPosition ?? 0n) < readsBelow;
    if (counts && ++calls === at) await held;
    return store.readAll(options);
  };
  return { store: gated, reached: () => calls >= at, release: () => release() };
}

const targets = sqlTargets('portal_runner');

describe.each(targets)('ProjectionRunner on $name', (target) => {
  let sql: SqlClient;
  let store: PostgresEventStore;
  beforeAll(async () => {
    sql = await target.open();
    store = await PostgresEventStore.create(sql);
  });
  afterAll(async () => {
    await store.close();
    await sql.close();
    await target.close();
  });

  const runnerFor = (name: string, version = 1, log = recordingLog()) =>
    new ProjectionRunner(store, sql, [counterProjection(version, name)], {
      log,
      batchSize: 20,
      standbyRetryMs: 200,
    });

  it(`${target.name}: applies every event once, advances the checkpoint and answers read-your-writes`, async () => {
    const runner = runnerFor(`p_${randomUUID().slice(0, 8)}`);
    await runner.start();
    try {
      const last = await appendCounted(store, 3, 30);
      expect(await runner.waitForPosition(last, 10_000)).toBe(true);
      const name = runner.projections[0]!.name;
      const { rows } = await sql.query<{ n: string; max: number }>(
        `SELECT count(*)::text AS n, max(times) AS max FROM ${name}_applied`,
      );
      expect(rows[0]).toEqual({ n: '90', max: 1 });
      const status = await runner.status();
      expect(status.projections[0]!.position).toBe(last);
      // A position nobody has written yet: the wait gives up after its bound.
      const started = Date.now();
      expect(await runner.waitForPosition(last + 1_000_000n, 300)).toBe(false);
      expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    } finally {
      await runner.stop();
    }
  });

  it(`${target.name}: the leader is told its own checkpoints (no query on its NOTIFY); a watcher elsewhere hears them`, async () => {
    // Counts the watchers' checkpoint queries (a SqlClient that passes everything on).
    let minQueries = 0;
    const counting: SqlClient = Object.create(sql) as SqlClient;
    counting.query = (text, params) => {
      if (text.includes('min(position)')) minQueries++;
      return sql.query(text, params);
    };
    const name = `p_${randomUUID().slice(0, 8)}`;
    const runner = new ProjectionRunner(store, counting, [counterProjection(1, name)], {
      log: recordingLog(),
      batchSize: 20,
      standbyRetryMs: 200,
    });
    const elsewhere = new CheckpointWatcher(counting, [{ name, version: 1 }]);
    await runner.start();
    await elsewhere.start();
    try {
      await waitFor('leading', () => runner.isLeader);
      expect(await runner.waitForPosition(await store.headPosition(), 10_000)).toBe(true);
      minQueries = 0;
      const last = await appendCounted(store, 3, 30);
      await waitFor('the leader applied', () => runner.watcher.position >= last);
      await waitFor('the other watcher heard', () => elsewhere.position >= last);
      // Every checkpoint query was the other watcher's: 3 appends in batches of 20, each NOTIFY heard once.
      expect(minQueries).toBeGreaterThan(0);
      const others = minQueries;
      await new Promise((r) => setTimeout(r, 100));
      expect(minQueries).toBe(others);
      await elsewhere.stop();
      minQueries = 0;
      const more = await appendCounted(store, 2, 25);
      await waitFor('the leader applied more', () => runner.watcher.position >= more);
      await new Promise((r) => setTimeout(r, 100));
      expect(minQueries).toBe(0);
    } finally {
      await elsewhere.stop();
      await runner.stop();
    }
  });

  it(`${target.name}: a rebuild produces tables identical to the incremental run`, async () => {
    const name = `p_${randomUUID().slice(0, 8)}`;
    const runner = runnerFor(name);
    await runner.start();
    let incremental: unknown[];
    try {
      const last = await appendCounted(store, 5, 17);
      expect(await runner.waitForPosition(last, 10_000)).toBe(true);
      incremental = await dump(sql, name);
    } finally {
      await runner.stop();
    }
    const result = await runnerFor(name).rebuild();
    expect(result.events).toBeGreaterThanOrEqual(85);
    expect(await dump(sql, name)).toEqual(incremental);
  });

  it(`${target.name}: onApplied announces each committed batch once, in order, and a rebuild announces nothing`, async () => {
    const name = `p_${randomUUID().slice(0, 8)}`;
    const runner = runnerFor(name);
    const announced: bigint[] = [];
    const committed: Promise<boolean>[] = [];
    runner.onApplied((events) => {
      announced.push(...events.map((e) => e.position));
      const last = events[events.length - 1]!.position;
      // Another connection already sees the checkpoint of this batch: the listener runs after COMMIT.
      committed.push(
        sql
          .query<{ p: string }>('SELECT position::text AS p FROM proj_checkpoints WHERE name = $1', [name])
          .then(({ rows }) => BigInt(rows[0]!.p) >= last),
      );
    });
    await runner.start();
    try {
      const last = await appendCounted(store, 3, 15);
      await waitFor('the last append to be announced', () => announced.includes(last));
      const sorted = [...announced].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      expect(announced).toEqual(sorted);
      expect(new Set(announced).size).toBe(announced.length);
      expect(announced.length).toBeGreaterThanOrEqual(45);
      expect(await Promise.all(committed)).not.toContain(false);
    } finally {
      await runner.stop();
    }
    const rebuilder = runnerFor(name);
    const again: bigint[] = [];
    rebuilder.onApplied((events) => again.push(...events.map((e) => e.position)));
    expect((await rebuilder.rebuild()).events).toBeGreaterThanOrEqual(45);
    expect(again).toEqual([]);
  });

  it(`${target.name}: reads payload-free event types without their data, announces them and does not warn (decision 0080)`, async () => {
    const name = `p_${randomUUID().slice(0, 8)}`;
    const log = recordingLog();
    const bulky = `Bulky${randomUUID().slice(0, 8)}`;
    const runner = new ProjectionRunner(store, sql, [counterProjection(1, name)], {
      log,
      batchSize: 20,
      standbyRetryMs: 200,
      // 'Counted' is handled by the projection: it is read in full even if named here.
      payloadFreeEventTypes: [bulky, 'Counted'],
    });
    const seen: { type: string; data: unknown }[] = [];
    runner.onApplied((events) => seen.push(...events.map((e) => ({ type: e.type, data: e.data }))));
    await runner.start();
    try {
      const stream = `counter-${randomUUID()}`;
      const r = await store.append(
        stream,
        [counted(1), { id: randomUUID(), type: bulky, data: { bytes: 'x'.repeat(1000) } }, counted(2)],
        { expectedRevision: 'no_stream' },
      );
      expect(await runner.waitForPosition(r.position, 10_000)).toBe(true);
      await waitFor('the batch to be announced', () => seen.length >= 3);
      expect(seen.filter((e) => e.type === bulky)).toEqual([{ type: bulky, data: null }]);
      expect(seen.filter((e) => e.type === 'Counted').map((e) => e.data)).toEqual([{ n: 1 }, { n: 2 }]);
      const totals = await sql.query<{ total: string }>(
        `SELECT total::text FROM ${name}_totals WHERE stream = $1`,
        [stream],
      );
      expect(totals.rows).toEqual([{ total: '3' }]);
      expect(log.entries.filter((e) => e.msg === 'skipping event of unknown type')).toEqual([]);
    } finally {
      await runner.stop();
    }
  });

  it(`${target.name}: a batch nothing applies moves the checkpoints in memory only on an embedded store, and status still counts it (decision 0081)`, async () => {
    const name = `p_${randomUUID().slice(0, 8)}`;
    const runner = runnerFor(name);
    const stored = async () =>
      BigInt(
        (
          await sql.query<{ p: string }>('SELECT position::text AS p FROM proj_checkpoints WHERE name = $1', [
            name,
          ])
        ).rows[0]!.p,
      );
    await runner.start();
    try {
      const applied = await appendCounted(store, 1, 1);
      expect(await runner.waitForPosition(applied, 10_000)).toBe(true);
      const other = await store.append(
        `other-${randomUUID()}`,
        [{ id: randomUUID(), type: 'NotCounted', data: {} }],
        { expectedRevision: 'no_stream' },
      );
      // Readers waiting for the event are answered, and the runner's status is at it.
      expect(await runner.waitForPosition(other.position, 10_000)).toBe(true);
      const status = (await runner.status()).projections.find((p) => p.name === name)!;
      expect(status.position).toBe(other.position);
      expect(status.lag).toBe(0n);
      // Stored: only on PostgreSQL (other processes read it); on PGlite it waits for the next batch.
      expect(await stored()).toBe(sql.kind === 'pglite' ? applied : other.position);
      const next = await appendCounted(store, 1, 1);
      expect(await runner.waitForPosition(next, 10_000)).toBe(true);
      expect(await stored()).toBe(next);
    } finally {
      await runner.stop();
    }
  });

  /** Waits until the runner's status shows `name` at `version`, serving its own tables, at `position`. */
  const swappedIn = (runner: ProjectionRunner, version: number, position: bigint) =>
    waitFor(
      'the new version swapped in',
      async () => {
        const p = (await runner.status()).projections[0]!;
        return p.version === version && p.servingVersion === null && p.position >= position;
      },
      30_000,
    );

  it(`${target.name}: a new projection version is rebuilt from the first event`, async () => {
    const name = `p_${randomUUID().slice(0, 8)}`;
    const v1 = runnerFor(name, 1);
    await v1.start();
    const last = await appendCounted(store, 2, 10);
    expect(await v1.waitForPosition(last, 10_000)).toBe(true);
    await v1.stop();
    const v2 = runnerFor(name, 2);
    await v2.start();
    try {
      await swappedIn(v2, 2, last);
      const { rows } = await sql.query<{ version: number; n: string }>(
        `SELECT min(version) AS version, count(*)::text AS n FROM ${name}_totals`,
      );
      // Every stream (including those written before v1 existed) was re-applied by version 2.
      expect(rows[0]!.version).toBe(2);
      expect(Number(rows[0]!.n)).toBeGreaterThanOrEqual(2);
    } finally {
      await v2.stop();
    }
  });

  it(`${target.name}: a new version is built beside the live tables, which answer reads until it is swapped in`, async () => {
    const name = `p_${randomUUID().slice(0, 8)}`;
    const v1 = runnerFor(name, 1);
    await v1.start();
    const last = await appendCounted(store, 3, 20);
    expect(await v1.waitForPosition(last, 10_000)).toBe(true);
    await v1.stop();
    const before = await dump(sql, name);

    // Version 2's build holds before its third page of events until released (outside any
    // transaction: PGlite has one connection, and the reads below must get through).
    const gate = gatedStore(store, 3);
    const v2 = new ProjectionRunner(gate.store, sql, [counterProjection(2, name)], {
      log: recordingLog(),
      batchSize: 20,
      standbyRetryMs: 200,
    });
    await v2.start();
    try {
      await waitFor('the build to reach its third page', () => gate.reached());
      // Mid-build: the old version's rows answer, and health shows the build's progress.
      expect(await dump(sql, name)).toEqual(before);
      const building = (await v2.status()).projections[0]!;
      expect(building).toMatchObject({ version: 2, servingVersion: 1 });
      expect(building.position).toBeLessThan(last);
      gate.release();
      await swappedIn(v2, 2, last);
      const { rows } = await sql.query<{ version: number; n: string }>(
        `SELECT min(version) AS version, count(*)::text AS n FROM ${name}_totals`,
      );
      expect(rows[0]!.version).toBe(2);
      expect(Number(rows[0]!.n)).toBeGreaterThanOrEqual(3);
      // Each event applied once by version 2, and nothing of the build left behind.
      const { rows: twice } = await sql.query(`SELECT 1 FROM ${name}_applied WHERE times <> 1`);
      expect(twice).toEqual([]);
      const { rows: left } = await sql.query(
        `SELECT (SELECT count(*)::int FROM proj_builds WHERE name = $1) AS builds,
                (SELECT count(*)::int FROM pg_namespace WHERE nspname = $2) AS schemas`,
        [name, `proj_next_${name}`],
      );
      expect(left).toEqual([{ builds: 0, schemas: 0 }]);
      // Live events keep flowing into the swapped-in tables.
      const more = await appendCounted(store, 1, 5);
      expect(await v2.waitForPosition(more, 10_000)).toBe(true);
    } finally {
      gate.release();
      await v2.stop();
    }
  });

  it(`${target.name}: while a new version is built, the other projections keep following live appends`, async () => {
    const steady = `p_${randomUUID().slice(0, 8)}`;
    const bumped = `p_${randomUUID().slice(0, 8)}`;
    const v1 = new ProjectionRunner(
      store,
      sql,
      [counterProjection(1, steady), counterProjection(1, bumped)],
      {
        log: recordingLog(),
        batchSize: 20,
        standbyRetryMs: 200,
      },
    );
    await v1.start();
    const last = await appendCounted(store, 4, 20);
    expect(await v1.waitForPosition(last, 10_000)).toBe(true);
    await v1.stop();

    // The build of `bumped` version 2 holds before its second page of old events until released.
    const gate = gatedStore(store, 2, last);
    const v2 = new ProjectionRunner(
      gate.store,
      sql,
      [counterProjection(1, steady), counterProjection(2, bumped)],
      {
        log: recordingLog(),
        batchSize: 20,
        standbyRetryMs: 200,
      },
    );
    await v2.start();
    try {
      await waitFor('the build to reach its second page', () => gate.reached());
      // Mid-build, a new append reaches the projection that is not being rebuilt.
      const more = await appendCounted(store, 1, 5);
      expect(await v2.waitForPosition(more, 10_000)).toBe(true);
      const { rows: live } = await sql.query<{ n: string }>(
        `SELECT count(*)::text AS n FROM ${steady}_applied WHERE position > $1::bigint`,
        [last.toString()],
      );
      expect(Number(live[0]!.n)).toBe(5);
      const building = (await v2.status()).projections.find((p) => p.name === bumped)!;
      expect(building).toMatchObject({ version: 2, servingVersion: 1 });
      gate.release();
      await waitFor(
        'the new version swapped in',
        async () => {
          const p = (await v2.status()).projections.find((x) => x.name === bumped)!;
          return p.servingVersion === null && p.position >= more;
        },
        30_000,
      );
      // The swapped-in version has every event once, the ones appended during the build too.
      const { rows: twice } = await sql.query(`SELECT 1 FROM ${bumped}_applied WHERE times <> 1`);
      expect(twice).toEqual([]);
      const { rows: all } = await sql.query<{ n: string }>(
        `SELECT count(*)::text AS n FROM ${bumped}_applied WHERE position > $1::bigint`,
        [last.toString()],
      );
      expect(Number(all[0]!.n)).toBe(5);
      // And it follows live appends from then on.
      const after = await appendCounted(store, 1, 3);
      expect(await v2.waitForPosition(after, 10_000)).toBe(true);
      const { rows: latest } = await sql.query<{ n: string }>(
        `SELECT count(*)::text AS n FROM ${bumped}_applied WHERE position > $1::bigint`,
        [more.toString()],
      );
      expect(Number(latest[0]!.n)).toBe(3);
    } finally {
      gate.release();
      await v2.stop();
    }
  });

  it(`${target.name}: a build interrupted by a stop resumes from where it got to`, async () => {
    const name = `p_${randomUUID().slice(0, 8)}`;
    const v1 = runnerFor(name, 1);
    await v1.start();
    const last = await appendCounted(store, 4, 20);
    expect(await v1.waitForPosition(last, 10_000)).toBe(true);
    await v1.stop();
    const gate = gatedStore(store, 3);
    const stopping = new ProjectionRunner(gate.store, sql, [counterProjection(2, name)], {
      log: recordingLog(),
      batchSize: 20,
      standbyRetryMs: 200,
    });
    await stopping.start();
    await waitFor('the build to reach its third page', () => gate.reached());
    const stopped = stopping.stop();
    gate.release();
    await stopped;
    const { rows: progress } = await sql.query<{ position: string }>(
      'SELECT position::text FROM proj_builds WHERE name = $1',
      [name],
    );
    expect(BigInt(progress[0]!.position)).toBeGreaterThan(0n);
    const log = recordingLog();
    const v2 = runnerFor(name, 2, log);
    await v2.start();
    try {
      await swappedIn(v2, 2, last);
      // It went on from its recorded position instead of starting the build again.
      expect(log.entries).toContainEqual(
        expect.objectContaining({ fields: expect.objectContaining({ projection: name, resume: true }) }),
      );
      const { rows: twice } = await sql.query(`SELECT 1 FROM ${name}_applied WHERE times <> 1`);
      expect(twice).toEqual([]);
    } finally {
      await v2.stop();
    }
  });

  it(`${target.name}: logs an event of unknown type with its position, skips it and keeps going`, async () => {
    const log = recordingLog();
    const runner = runnerFor(`p_${randomUUID().slice(0, 8)}`, 1, log);
    await runner.start();
    try {
      const stream = `mystery-${randomUUID()}`;
      const unknown = await store.append(
        stream,
        [{ id: randomUUID(), type: 'SomethingNobodyKnows', data: {} }],
        {
          expectedRevision: 'no_stream',
        },
      );
      const after = await appendCounted(store, 1, 3);
      expect(await runner.waitForPosition(after, 10_000)).toBe(true);
      const warning = log.entries.find((e) => e.level === 'warn' && e.fields.type === 'SomethingNobodyKnows');
      expect(warning?.fields.position).toBe(unknown.position.toString());
      expect(runner.isLeader).toBe(true);
    } finally {
      await runner.stop();
    }
  });

  it(`${target.name}: a projection rebuilt alone reads only the events it handles and ends at the head`, async () => {
    const name = `p_${randomUUID().slice(0, 8)}`;
    await appendCounted(store, 2, 5);
    // The log ends with events no projection here handles.
    const head = (
      await store.append(
        `other-${randomUUID()}`,
        Array.from({ length: 30 }, () => ({ id: randomUUID(), type: 'NotCounted', data: {} })),
        { expectedRevision: 'no_stream' },
      )
    ).position;
    const types = new Set<string>();
    let read = 0;
    let reads = 0;
    const watched: EventStore = Object.create(store) as EventStore;
    watched.readAll = async (options) => {
      const page = await store.readAll(options);
      reads += 1;
      read += page.length;
      for (const e of page) types.add(e.type);
      return page;
    };
    // Another projection, at the head, handles the other events and is not rebuilt.
    const other = { ...counterProjection(1, `${name}_o`), handles: ['NotCounted'] };
    const runner = new ProjectionRunner(watched, sql, [counterProjection(1, name), other], {
      log: recordingLog(),
      batchSize: 20,
    });
    await runner.rebuild();
    types.clear();
    read = 0;
    reads = 0;
    const result = await runner.rebuild([name]);
    expect([...types]).toEqual(['Counted']);
    expect(result.events).toBe(read);
    // Pages of 20 until one is short, which ends the read (decision 0090): no read of nothing after it.
    expect(reads).toBe(Math.floor(read / 20) + 1);
    const { rows } = await sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${name}_applied`);
    expect(rows[0]!.n).toBe(read);
    // Caught up although its last event is far behind the head: health and read-your-writes agree.
    const status = await runner.status();
    expect(status.projections.find((p) => p.name === name)).toMatchObject({ position: head, lag: 0n });
    expect(await runner.waitForPosition(head, 1_000)).toBe(true);
  });

  it(`${target.name}: a rebuild's first page, read while the tables are made, loses no event appended after it (decision 0091)`, async () => {
    const name = `p_${randomUUID().slice(0, 8)}`;
    await appendCounted(store, 1, 3);
    const runner = new ProjectionRunner(store, sql, [counterProjection(1, name)], {
      log: recordingLog(),
      batchSize: 1_000_000,
    });
    await runner.rebuild();
    // The rebuild's one read (a short page) returns; then an event lands before the rebuild's
    // catch-up has applied that page. The catch-up ends at the head taken before its read, so that
    // event stays after the checkpoint, for the next catch-up.
    let late: { id: string; position: bigint } | null = null;
    const watched: EventStore = Object.create(store) as EventStore;
    watched.readAll = async (options) => {
      const page = await store.readAll(options);
      if (!late) {
        const event = counted(1);
        const { position } = await store.append(`counter-${randomUUID()}`, [event], {
          expectedRevision: 'no_stream',
        });
        late = { id: event.id, position };
      }
      return page;
    };
    const rebuilding = new ProjectionRunner(watched, sql, [counterProjection(1, name)], {
      log: recordingLog(),
      batchSize: 1_000_000,
    });
    const result = await rebuilding.rebuild([name]);
    expect(late).not.toBeNull();
    const { id, position } = late!;
    expect(result.position).toBeLessThan(position);
    const applied = async () =>
      (
        await sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${name}_applied WHERE event_id = $1`, [
          id,
        ])
      ).rows[0]!.n;
    expect(await applied()).toBe(0);
    expect((await runner.status()).projections[0]).toMatchObject({ position: result.position });
    await runner.start();
    try {
      expect(await runner.waitForPosition(position, 10_000)).toBe(true);
      expect(await applied()).toBe(1);
    } finally {
      await runner.stop();
    }
  });

  it(`${target.name}: a rebuild reads the log sealed only when no projection it rebuilds reads personal data (decision 0089)`, async () => {
    const name = `p_${randomUUID().slice(0, 8)}`;
    await store.append(`c-${randomUUID()}`, [{ id: randomUUID(), type: 'UserCreated', data: { n: 1 } }], {
      expectedRevision: 'no_stream',
    });
    const sealed: boolean[] = [];
    const watched: EventStore = Object.create(store) as EventStore;
    watched.readAll = async (options) => {
      sealed.push(options?.sealed === true);
      return store.readAll(options);
    };
    // Both handle an event type that carries personal fields; one declares that it reads none.
    const free = {
      ...counterProjection(1, `${name}_f`),
      handles: ['UserCreated'],
      readsPersonalData: false as const,
    };
    const reads = { ...counterProjection(1, `${name}_r`), handles: ['UserCreated'] };
    const runner = new ProjectionRunner(watched, sql, [free, reads], { log: recordingLog(), batchSize: 20 });
    const readsOf = async (names?: string[]) => {
      sealed.length = 0;
      await runner.rebuild(names);
      return [...new Set(sealed)];
    };
    expect(await readsOf()).toEqual([false]);
    expect(await readsOf([free.name])).toEqual([true]);
    expect(await readsOf([reads.name])).toEqual([false]);
    // A catch-up whose events reach the `onApplied` listeners (a live update may show a name) decrypts,
    // even when no projection it serves reads personal data.
    const { position } = await store.append(
      `c-${randomUUID()}`,
      [{ id: randomUUID(), type: 'UserCreated', data: { n: 1 } }],
      { expectedRevision: 'no_stream' },
    );
    const alone = new ProjectionRunner(watched, sql, [free], { log: recordingLog(), batchSize: 20 });
    const announced: bigint[] = [];
    alone.onApplied((events) => announced.push(...events.map((e) => e.position)));
    sealed.length = 0;
    await alone.start();
    try {
      expect(await alone.waitForPosition(position, 10_000)).toBe(true);
    } finally {
      await alone.stop();
    }
    expect(announced).toContain(position);
    expect(sealed).toContain(false);
    expect(sealed).not.toContain(true);
  });

  it(`${target.name}: the schema of projections at their version runs again, so a missing index comes back (decision 0088)`, async () => {
    const name = `p_${randomUUID().slice(0, 8)}`;
    await appendCounted(store, 1, 3);
    // Its index is in the schema, after a statement ending in a line comment (the script joins them).
    const base = counterProjection(1, name);
    const indexed = {
      ...base,
      schema: [
        `${base.schema[0]} -- a trailing comment`,
        ...base.schema.slice(1),
        `CREATE INDEX IF NOT EXISTS ${name}_by_position ON ${name}_applied (position)`,
      ],
    };
    const other = counterProjection(1, `${name}_o`);
    const runner = new ProjectionRunner(store, sql, [indexed, other], { log: recordingLog(), batchSize: 20 });
    await runner.rebuild();
    const indexes = async () =>
      (
        await sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_indexes WHERE indexname = $1`, [
          `${name}_by_position`,
        ])
      ).rows[0]!.n;
    expect(await indexes()).toBe(1);
    // Gone (a rebuild that crashed before building its deferred indexes, or one added without a version bump).
    await sql.query(`DROP INDEX ${name}_by_position`);
    const before = await dump(sql, name);
    // An explicit rebuild of another projection leaves this one's schema alone (decision 0090)...
    await runner.rebuild([`${name}_o`]);
    expect(await indexes()).toBe(0);
    // ...and leading, as every start does, runs it again.
    await runner.start();
    try {
      for (let waited = 0; (await indexes()) === 0 && waited < 10_000; waited += 50) await sleep(50);
      expect(await indexes()).toBe(1);
    } finally {
      await runner.stop();
    }
    expect(await dump(sql, name)).toEqual(before);
  });

  it(`${target.name}: records an event a projection cannot apply as a dead letter and applies the rest`, async () => {
    const log = recordingLog();
    const name = `p_${randomUUID().slice(0, 8)}`;
    const runner = runnerFor(name, 1, log);
    await runner.start();
    try {
      const stream = `poison-${randomUUID()}`;
      await store.append(stream, [counted(1), { id: randomUUID(), type: 'Poison', data: {} }, counted(2)], {
        expectedRevision: 'no_stream',
      });
      const last = await appendCounted(store, 1, 2);
      expect(await runner.waitForPosition(last, 10_000)).toBe(true);
      const { rows } = await sql.query<{ total: string }>(
        `SELECT total::text FROM ${name}_totals WHERE stream = $1`,
        [stream],
      );
      expect(rows[0]!.total).toBe('3');
      const dead = await sql.query<{ event_type: string }>(
        'SELECT event_type FROM proj_dead_letters WHERE projection = $1',
        [name],
      );
      expect(dead.rows).toEqual([{ event_type: 'Poison' }]);
      expect(log.entries.some((e) => e.level === 'error' && e.fields.type === 'Poison')).toBe(true);
    } finally {
      await runner.stop();
    }
  });
});

describe('ProjectionRunner across processes on postgres', () => {
  const worker = fileURLToPath(new URL('./testing/runner-worker.ts', import.meta.url));
  let db: TestDatabase;
  let sql: PgSqlClient;
  let store: PostgresEventStore;
  const children = new Set<ChildProcess>();

  function startWorker(batch = 7): { child: ChildProcess; output: () => string; exited: Promise<unknown> } {
    const child = spawn(
      process.execPath,
      ['--conditions=source', '--import', 'tsx', worker, db.url, String(batch)],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    children.add(child);
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.on('exit', () => children.delete(child));
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    return { child, output: () => out, exited };
  }

  beforeAll(async () => {
    db = await createTestDatabase('portal_runner_proc');
    sql = new PgSqlClient(db.url);
    store = await PostgresEventStore.create(sql);
  });
  afterAll(async () => {
    for (const c of children) c.kill('SIGKILL');
    await store.close();
    await sql.close();
    await db.drop();
  });

  it('postgres: a runner killed (SIGKILL) in the middle of batches never applies an event twice', async () => {
    const streams = Array.from({ length: 4 }, () => `counter-${randomUUID()}`);
    let n = 0;
    const revisions = new Map(streams.map((s) => [s, -1n]));
    const appendRound = async (count: number) => {
      for (let i = 0; i < count; i++) {
        const s = streams[i % streams.length]!;
        const r = await store.append(s, [counted(++n)], {
          expectedRevision: revisions.get(s)! < 0n ? 'no_stream' : revisions.get(s)!,
        });
        revisions.set(s, r.nextExpectedRevision);
      }
    };
    await appendRound(400);
    for (let round = 0; round < 3; round++) {
      const w = startWorker(7);
      await waitFor('the worker to apply some events', () => /applied [1-9]/.test(w.output()), 20_000);
      const appending = appendRound(100);
      w.child.kill('SIGKILL');
      await appending;
      await w.exited;
    }
    const log = recordingLog();
    const runner = new ProjectionRunner(store, sql, [counterProjection()], { log, batchSize: 50 });
    await runner.start();
    try {
      const head = await store.headPosition();
      expect(await runner.waitForPosition(head, 20_000)).toBe(true);
      const { rows } = await sql.query<{ n: string; max: number; min: number }>(
        'SELECT count(*)::text AS n, max(times) AS max, min(times) AS min FROM test_counter_applied',
      );
      expect(rows[0]).toEqual({ n: String(n), max: 1, min: 1 });
      const totals = await sql.query<{ sum: string }>(
        'SELECT sum(total)::text AS sum FROM test_counter_totals',
      );
      expect(totals.rows[0]!.sum).toBe(String((n * (n + 1)) / 2));
    } finally {
      await runner.stop();
    }
  });

  it('postgres: when the leading process dies, a standby takes over within 10 s and misses nothing', async () => {
    const leader = startWorker(10);
    await waitFor('the worker to lead', () => leader.output().includes('leader'), 20_000);
    const log = recordingLog();
    const standby = new ProjectionRunner(store, sql, [counterProjection()], {
      log,
      batchSize: 50,
      standbyRetryMs: 500,
    });
    await standby.start();
    try {
      expect(standby.isLeader).toBe(false);
      leader.child.kill('SIGKILL');
      const killedAt = Date.now();
      await waitFor('the standby to take over', () => standby.isLeader, 10_000);
      expect(Date.now() - killedAt).toBeLessThan(10_000);
      const last = await appendCounted(store, 2, 5);
      expect(await standby.waitForPosition(last, 10_000)).toBe(true);
      const { rows } = await sql.query<{ max: number }>('SELECT max(times) AS max FROM test_counter_applied');
      expect(rows[0]!.max).toBe(1);
    } finally {
      await standby.stop();
    }
  });
});
