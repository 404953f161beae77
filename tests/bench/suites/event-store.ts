/**
 * Event store benchmark: the PostgreSQL adapter of the EventStore port and ProjectionRunner.rebuild(),
 * on PGlite and on a PostgreSQL server, each figure beside a raw-SQL baseline doing the same durable
 * work in the same run on the same database. tests/bench/README.md explains every line.
 */
import { randomUUID } from 'node:crypto';
// From the sources (not the package's build), so the bench always measures this checkout's projection.
import { USER_TYPE_LABELS, usersProjection, type UserCreatedData } from '../../../projections/src/index.js';
import type { EventData, EventStore } from '../../../server/src/platform/event-store/event-store.js';
import { PostgresEventStore } from '../../../server/src/platform/event-store/postgres/postgres-event-store.js';
import {
  DEFAULT_BATCH_SIZE,
  ProjectionRunner,
} from '../../../server/src/platform/projections/projection-runner.js';
import type { SqlClient } from '../../../server/src/platform/sql/sql-client.js';
import {
  atLeastRate,
  atLeastRatio,
  measurement,
  runConcurrently,
  scaled,
  timed,
  timing,
  benchEnvironment,
  silentLog,
} from '../lib/measure.js';
import type { BenchReport, BenchSuite, Measurement, SuiteContext, TargetKind } from '../lib/suite.js';
import { openBenchDatabase } from '../lib/targets.js';
import { copyTable, deferredIndexNames } from '../lib/raw-tables.js';

/** Sizes at BENCH_SCALE=1. */
const SIZES = {
  singleAppends: 2_000,
  writers: 8,
  batches: 100,
  batchSize: 100,
  rebuildEvents: 100_000,
  /** Events per append when generating the rebuild data. */
  generateBatch: 500,
  readPage: 1_000,
  /** Full passes over the log per side for readAll and the subscription. */
  readPasses: 1,
};

const GOALS = {
  appendRatio: 0.7,
  concurrentAppendsPostgres: 2_000,
  rebuild: { postgres: 20_000, pglite: 10_000 } satisfies Record<TargetKind, number>,
};

/** The runner's default batch size (the rebuild uses it), used by the raw rebuild too. */
const REBUILD_PAGE = DEFAULT_BATCH_SIZE;
const WARMUP_APPENDS = 50;
/** Timed rebuilds per side. */
const REBUILD_ROUNDS = 2;

export const suite: BenchSuite = {
  name: 'event-store',
  description:
    'EventStore port (PostgreSQL adapter) and ProjectionRunner.rebuild() vs raw SQL, on PGlite and PostgreSQL',
  async run(ctx: SuiteContext) {
    for (const target of ctx.targets) await ctx.report(await runOn(target, ctx));
  },
};

type Sizes = typeof SIZES & { rounds: number };

async function runOn(kind: TargetKind, ctx: SuiteContext): Promise<BenchReport> {
  const sizes: Sizes = {
    ...SIZES,
    singleAppends: scaled(SIZES.singleAppends, ctx.scale, SIZES.writers),
    batches: scaled(SIZES.batches, ctx.scale),
    rebuildEvents: scaled(SIZES.rebuildEvents, ctx.scale, REBUILD_PAGE),
    rounds: Math.max(1, Math.round(Number(process.env.BENCH_ROUNDS ?? 20))),
  };
  const progress = (m: string) => ctx.progress(`${kind}: ${m}`);
  const startedAt = new Date();
  // PostgreSQL: a pool of 8 connections (the 8-writer scenario), shared by the port and the baseline.
  // PGlite has a single connection.
  const db = await openBenchDatabase(kind, { poolSize: SIZES.writers });
  const measurements: Measurement[] = [];
  const notes: string[] = [];
  let store: PostgresEventStore | null = null;
  try {
    store = await PostgresEventStore.create(db.sql);
    await db.sql.exec(RAW_SCHEMA);

    // 6. Projection rebuild first, so that the log holds exactly the events the projection handles.
    // A tenth of the events first, for an untimed warm-up rebuild of each side (JIT, WASM tier-up).
    progress(`generating ${sizes.rebuildEvents} UserCreated events`);
    const warmUpEvents = Math.max(1, Math.round(sizes.rebuildEvents / 10));
    const generated = await generateUsers(store, 0, warmUpEvents, sizes.generateBatch);
    await rebuildOnce(store, db.sql, warmUpEvents);
    await rawRebuildOnce(db.sql, warmUpEvents);
    generated.ms += (await generateUsers(store, warmUpEvents, sizes.rebuildEvents, sizes.generateBatch)).ms;
    progress('projection rebuild: ProjectionRunner.rebuild() of the users projection vs raw SQL');
    const rebuild = await benchRebuild(kind, store, db.sql, sizes.rebuildEvents, notes);

    // The baseline's table starts as large as the event store's (the same rows): same index depths.
    await db.sql.exec(
      `INSERT INTO raw_events (id, stream, revision, type, data, metadata, created_at)
       SELECT id, stream, revision, type, data, metadata, created_at FROM es_events ORDER BY position`,
    );
    await warmUp(store, db.sql);

    // 1. Single-event appends, one writer.
    progress(`appends: ${sizes.singleAppends} single-event appends, sequential`);
    const seq = await benchSingleAppends(store, db.sql, sizes.singleAppends, 1, sizes.rounds);
    seq.goals.push(atLeastRatio(seq, GOALS.appendRatio));

    // 2. Single-event appends, 8 writers.
    progress(`appends: ${sizes.singleAppends} single-event appends, ${sizes.writers} writers`);
    const conc = await benchSingleAppends(store, db.sql, sizes.singleAppends, sizes.writers, sizes.rounds);
    conc.goals.push(atLeastRatio(conc, GOALS.appendRatio));
    if (kind === 'postgres') conc.goals.push(atLeastRate(conc, GOALS.concurrentAppendsPostgres));

    // 3. Batches.
    progress(`appends: ${sizes.batches} batches of ${sizes.batchSize}`);
    const batch = await benchBatchAppends(store, db.sql, sizes.batches, sizes.batchSize, sizes.rounds);
    batch.goals.push(atLeastRatio(batch, GOALS.appendRatio));

    // 4. and 5. Reading everything.
    const total = await countRows(db.sql, 'es_events');
    progress(`readAll of ${total} events`);
    const readAll = await benchReadAll(store, db.sql, total, sizes.readPage, sizes.readPasses);
    progress(`catch-up subscription over ${total} events`);
    const subscribe = await benchCatchUp(store, db.sql, total, sizes.readPage, sizes.readPasses);

    measurements.push(
      seq,
      conc,
      batch,
      readAll,
      subscribe,
      rebuild,
      measurement({
        key: 'generate-batch-appends',
        label: `(rebuild data: ${sizes.generateBatch}-event appends)`,
        unit: 'events/s',
        subject: {
          ...timing(sizes.rebuildEvents, generated.ms),
          how: `EventStore.append of ${sizes.generateBatch} UserCreated events to a new stream (no baseline)`,
        },
      }),
    );
    notes.push(
      `appends: port and baseline take turns in ${sizes.rounds} rounds (AB, BA, ...) on streams of their own; ` +
        `both tables hold the same ${sizes.rebuildEvents} rows before the appends start`,
    );

    return {
      suite: 'event-store',
      target: kind,
      targetDetails: db.details,
      scale: ctx.scale,
      startedAt: startedAt.toISOString(),
      durationMs: Date.now() - startedAt.getTime(),
      environment: benchEnvironment(),
      sizes: {
        singleAppends: sizes.singleAppends,
        writers: sizes.writers,
        batches: sizes.batches,
        batchSize: sizes.batchSize,
        rebuildEvents: sizes.rebuildEvents,
        readPage: sizes.readPage,
        readPasses: sizes.readPasses,
        rounds: sizes.rounds,
        totalEvents: total,
      },
      measurements,
      notes,
    };
  } finally {
    await store?.close().catch(() => {});
    await db.dispose();
  }
}

/**
 * Runs the subject and the baseline in `rounds` alternating rounds (AB, BA, AB, ...), each round doing
 * its share of the work, and sums each side's milliseconds: both sides see the same machine conditions.
 */
async function interleaved(
  rounds: number,
  subject: (round: number) => Promise<number>,
  baseline: (round: number) => Promise<number>,
): Promise<[number, number]> {
  let subjectMs = 0;
  let baselineMs = 0;
  for (let r = 0; r < rounds; r++) {
    if (r % 2 === 0) {
      subjectMs += await subject(r);
      baselineMs += await baseline(r);
    } else {
      baselineMs += await baseline(r);
      subjectMs += await subject(r);
    }
  }
  return [subjectMs, baselineMs];
}

/** Round r's share of `total` items split over `rounds` rounds. */
function share(total: number, rounds: number, r: number): number {
  return Math.floor((total * (r + 1)) / rounds) - Math.floor((total * r) / rounds);
}

// ---------------------------------------------------------------------------------------------------
// Payloads: the same shape and size for the port and the baseline.

function appendedEvent(writer: number, n: number): EventData {
  return {
    id: randomUUID(),
    type: 'BenchAppended',
    data: {
      writer,
      n,
      lessonId: randomUUID(),
      subject: 'Mathematics',
      startsAt: '2026-11-23T09:30:00.000Z',
      durationMinutes: 60,
      note: 'Worked through fractions and decimals; homework set for Thursday.',
    },
    metadata: { actorId: randomUUID(), correlationId: randomUUID() },
  };
}

/** The metadata the adapter stores (it fills in occurredAt). */
function storedMetadata(e: EventData): Record<string, unknown> {
  return { actorId: null, ...e.metadata, occurredAt: new Date().toISOString() };
}

// ---------------------------------------------------------------------------------------------------
// The raw-SQL baseline's tables: the event store's columns and indexes (position, id, stream +
// revision), and the users read model's. Its appends are plain INSERTs; the unique (stream, revision)
// index is its optimistic concurrency check.

const RAW_SCHEMA = /* sql */ `
CREATE TABLE raw_events (
  position   bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  id         uuid NOT NULL UNIQUE,
  stream     text NOT NULL,
  revision   bigint NOT NULL,
  type       text NOT NULL,
  data       jsonb NOT NULL,
  metadata   jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  UNIQUE (stream, revision)
);
CREATE TABLE raw_checkpoint (name text PRIMARY KEY, position bigint NOT NULL);
INSERT INTO raw_checkpoint VALUES ('raw_users', 0);
`;

const RAW_INSERT = `INSERT INTO raw_events (id, stream, revision, type, data, metadata)
  VALUES ($1, $2, $3::bigint, $4, $5::jsonb, $6::jsonb) RETURNING position`;

/** Set-based insert of a batch (faster here than a multi-row VALUES list). */
const RAW_BATCH_INSERT = `INSERT INTO raw_events (id, stream, revision, type, data, metadata)
  SELECT r.id, r.stream, r.revision, r.type, r.data, r.metadata
    FROM jsonb_to_recordset($1::jsonb)
      AS r(id uuid, stream text, revision bigint, type text, data jsonb, metadata jsonb)`;

function rawParams(stream: string, revision: number, e: EventData): unknown[] {
  return [e.id, stream, revision, e.type, JSON.stringify(e.data), JSON.stringify(storedMetadata(e))];
}

const READ_COLUMNS = 'position, id, stream, revision, type, data, metadata, created_at';

// ---------------------------------------------------------------------------------------------------
// 1-3. Appends

async function warmUp(store: EventStore, sql: SqlClient): Promise<void> {
  const stream = `bench-warmup-${randomUUID()}`;
  for (let i = 0; i < WARMUP_APPENDS; i++) {
    await store.append(stream, [appendedEvent(0, i)], { expectedRevision: i === 0 ? 'no_stream' : i - 1 });
    await sql.query(RAW_INSERT, rawParams(`raw-${stream}`, i, appendedEvent(0, i)));
  }
}

async function benchSingleAppends(
  store: EventStore,
  sql: SqlClient,
  count: number,
  writers: number,
  rounds: number,
): Promise<Measurement> {
  // Each writer appends to its own stream; the port's writers track their stream's revision.
  const portStreams = Array.from({ length: writers }, () => `bench-single-${randomUUID()}`);
  const portRevisions = portStreams.map(() => -1n);
  const rawStreams = Array.from({ length: writers }, () => `raw-single-${randomUUID()}`);
  const rawRevisions = rawStreams.map(() => -1);

  const port = async (round: number) =>
    (
      await timed(() =>
        runConcurrently(share(count, rounds, round), writers, async (w) => {
          const expected = portRevisions[w]!;
          const r = await store.append(portStreams[w]!, [appendedEvent(w, Number(expected + 1n))], {
            expectedRevision: expected < 0n ? 'no_stream' : expected,
          });
          portRevisions[w] = r.nextExpectedRevision;
        }),
      )
    ).ms;
  const raw = async (round: number) =>
    (
      await timed(() =>
        runConcurrently(share(count, rounds, round), writers, async (w) => {
          const revision = rawRevisions[w]! + 1;
          await sql.query(RAW_INSERT, rawParams(rawStreams[w]!, revision, appendedEvent(w, revision)));
          rawRevisions[w] = revision;
        }),
      )
    ).ms;
  const [portMs, rawMs] = await interleaved(rounds, port, raw);

  const who = writers === 1 ? '1 writer' : `${writers} concurrent writers`;
  return measurement({
    key: writers === 1 ? 'append-single-sequential' : 'append-single-concurrent',
    label: `append 1 event, ${writers === 1 ? 'sequential' : `${writers} writers`} (${count})`,
    unit: 'events/s',
    subject: {
      ...timing(count, portMs),
      how: `EventStore.append of 1 event, ${who}, each on its own stream with the exact expected revision`,
    },
    baseline: {
      ...timing(count, rawMs),
      how: `INSERT ... RETURNING position of 1 row into raw_events, ${who}, one transaction each`,
    },
  });
}

async function benchBatchAppends(
  store: EventStore,
  sql: SqlClient,
  batches: number,
  size: number,
  rounds: number,
): Promise<Measurement> {
  const port = async (round: number) => {
    const work = Array.from({ length: share(batches, rounds, round) }, () =>
      Array.from({ length: size }, (_, i) => appendedEvent(0, i)),
    );
    return (
      await timed(async () => {
        for (const events of work) {
          await store.append(`bench-batch-${randomUUID()}`, events, { expectedRevision: 'no_stream' });
        }
      })
    ).ms;
  };
  const raw = async (round: number) => {
    const work = Array.from({ length: share(batches, rounds, round) }, () =>
      Array.from({ length: size }, (_, i) => appendedEvent(0, i)),
    );
    return (
      await timed(async () => {
        for (const events of work) {
          const stream = `raw-batch-${randomUUID()}`;
          const rows = events.map((e, revision) => ({
            id: e.id,
            stream,
            revision,
            type: e.type,
            data: e.data,
            metadata: storedMetadata(e),
          }));
          await sql.query(RAW_BATCH_INSERT, [JSON.stringify(rows)]);
        }
      })
    ).ms;
  };
  const [portMs, rawMs] = await interleaved(rounds, port, raw);
  const events = batches * size;
  return measurement({
    key: 'append-batch',
    label: `append ${size}-event batches (${batches})`,
    unit: 'events/s',
    subject: {
      ...timing(events, portMs),
      how: `EventStore.append of ${size} events to a new stream (expected revision no_stream)`,
    },
    baseline: {
      ...timing(events, rawMs),
      how: `INSERT ... SELECT FROM jsonb_to_recordset of ${size} rows into raw_events, one transaction each`,
    },
  });
}

// ---------------------------------------------------------------------------------------------------
// 4-5. Reads of the whole log. The baseline reads the same table (es_events) with plain paging. The two
// sides take turns page by page (who goes first alternates), each timed on its own, so that both
// see the same machine conditions and the same caches.

/** One page read by the baseline: the rows after `from`; visits each row. */
async function rawPage(sql: SqlClient, from: string, page: number): Promise<{ count: number; last: string }> {
  const { rows } = await sql.query<{ position: string | number | bigint }>(
    `SELECT ${READ_COLUMNS} FROM es_events WHERE position > $1 ORDER BY position LIMIT ${page}`,
    [from],
  );
  let last = from;
  for (const row of rows) last = String(row.position);
  return { count: rows.length, last };
}

/**
 * Reads the whole log `passCount` times on each side, taking turns page by page: `next()` of the
 * subject yields the number of events it got for one page (0 at the end).
 */
async function takeTurns(
  total: number,
  page: number,
  passCount: number,
  sql: SqlClient,
  subjectPass: () => { next(): Promise<number>; done(): Promise<void> },
): Promise<[number, number]> {
  let subjectMs = 0;
  let baselineMs = 0;
  let turn = 0;
  for (let pass = 0; pass < passCount; pass++) {
    const subject = subjectPass();
    let subjectSeen = 0;
    let rawSeen = 0;
    let rawFrom = '0';
    let subjectDone = false;
    let rawDone = false;
    const subjectTurn = async () => {
      if (subjectDone) return;
      const { result, ms } = await timed(() => subject.next());
      subjectMs += ms;
      subjectSeen += result;
      subjectDone = result === 0 || subjectSeen >= total;
    };
    const rawTurn = async () => {
      if (rawDone) return;
      const { result, ms } = await timed(() => rawPage(sql, rawFrom, page));
      baselineMs += ms;
      rawSeen += result.count;
      rawFrom = result.last;
      rawDone = result.count === 0 || rawSeen >= total;
    };
    while (!subjectDone || !rawDone) {
      if (turn++ % 2 === 0) {
        await subjectTurn();
        await rawTurn();
      } else {
        await rawTurn();
        await subjectTurn();
      }
    }
    subjectMs += (await timed(() => subject.done())).ms;
    if (subjectSeen !== total || rawSeen !== total) {
      throw new Error(`read ${subjectSeen} (subject) and ${rawSeen} (baseline) events, expected ${total}`);
    }
  }
  return [subjectMs, baselineMs];
}

async function benchReadAll(
  store: EventStore,
  sql: SqlClient,
  total: number,
  page: number,
  passCount: number,
): Promise<Measurement> {
  const [portMs, rawMs] = await takeTurns(total, page, passCount, sql, () => {
    let from = 0n;
    return {
      next: async () => {
        const events = await store.readAll({ fromPosition: from, maxCount: page });
        if (events.length > 0) from = events[events.length - 1]!.position;
        return events.length;
      },
      done: () => Promise.resolve(),
    };
  });
  return measurement({
    key: 'read-all',
    label: `readAll, pages of ${page} (${total})`,
    unit: 'events/s',
    subject: {
      ...timing(total * passCount, portMs),
      how: `EventStore.readAll({ fromPosition, maxCount: ${page} }) from 0 until empty; ${plural(passCount, 'pass', 'passes')}`,
    },
    baseline: {
      ...timing(total * passCount, rawMs),
      how: `SELECT ${READ_COLUMNS} FROM es_events WHERE position > $1 ORDER BY position LIMIT ${page}, until empty; ${plural(passCount, 'pass', 'passes')}, taking turns page by page`,
    },
  });
}

async function benchCatchUp(
  store: EventStore,
  sql: SqlClient,
  total: number,
  page: number,
  passCount: number,
): Promise<Measurement> {
  const [portMs, rawMs] = await takeTurns(total, page, passCount, sql, () => {
    const sub = store.subscribeToAll({ fromPosition: 0n });
    const it = sub[Symbol.asyncIterator]();
    let seen = 0;
    return {
      // One turn: the next `page` events (or the rest) from the subscription.
      next: async () => {
        let n = 0;
        while (n < page && seen < total) {
          const r = await it.next();
          if (r.done) break;
          n++;
          seen++;
        }
        return n;
      },
      done: () => sub.close(),
    };
  });
  return measurement({
    key: 'subscribe-catch-up',
    label: `subscribeToAll catch-up (${total})`,
    unit: 'events/s',
    subject: {
      ...timing(total * passCount, portMs),
      how: `for await over EventStore.subscribeToAll({ fromPosition: 0n }) until all ${total} seen; ${plural(passCount, 'pass', 'passes')}`,
    },
    baseline: {
      ...timing(total * passCount, rawMs),
      how: `the same paging SELECT (LIMIT ${page}), visiting each row, until all seen; ${plural(passCount, 'pass', 'passes')}, taking turns every ${page} events`,
    },
  });
}

// ---------------------------------------------------------------------------------------------------
// 6. Projection rebuild

function userCreated(i: number): EventData {
  const types = ['teacher', 'student', 'student', 'student', 'partner'] as const;
  const userType = types[i % types.length]!;
  const data: UserCreatedData = {
    userId: randomUUID(),
    login: `Bench.User.${i}@Example.org`,
    email: `bench.user.${i}@example.org`,
    firstName: `First${i}`,
    lastName: `Last${i}`,
    userType,
    permissions: [`USER_IS_${userType.toUpperCase()}`],
  };
  return {
    id: randomUUID(),
    type: 'UserCreated',
    data,
    metadata: { actorId: null, correlationId: randomUUID() },
  };
}

/** Appends UserCreated events number `from` to `to` - 1, `batch` per append (each to a new stream). */
async function generateUsers(
  store: EventStore,
  from: number,
  to: number,
  batch: number,
): Promise<{ ms: number }> {
  return timed(async () => {
    for (let start = from; start < to; start += batch) {
      const events = Array.from({ length: Math.min(batch, to - start) }, (_, i) => userCreated(start + i));
      await store.append(`bench-users-${randomUUID()}`, events, { expectedRevision: 'no_stream' });
    }
  });
}

/** One ProjectionRunner.rebuild() of the users projection; returns ms. */
async function rebuildOnce(store: EventStore, sql: SqlClient, events: number): Promise<number> {
  const runner = new ProjectionRunner(store, sql, [usersProjection], { log: silentLog });
  const { result, ms } = await timed(() => runner.rebuild());
  const rows = await countRows(sql, 'rm_users');
  if (result.events !== events || rows !== events) {
    throw new Error(`rebuild applied ${result.events} events (${rows} rows), expected ${events}`);
  }
  return ms;
}

/** One raw-SQL rebuild; returns ms. */
async function rawRebuildOnce(sql: SqlClient, events: number): Promise<number> {
  const { result, ms } = await timed(() => rawRebuild(sql, REBUILD_PAGE));
  const rows = await countRows(sql, 'raw_rm_users');
  if (result !== events || rows !== events) {
    throw new Error(`raw rebuild read ${result} events (${rows} rows), expected ${events}`);
  }
  return ms;
}

async function benchRebuild(
  kind: TargetKind,
  store: EventStore,
  sql: SqlClient,
  events: number,
  notes: string[],
): Promise<Measurement> {
  const [portMs, rawMs] = await interleaved(
    REBUILD_ROUNDS,
    () => rebuildOnce(store, sql, events),
    () => rawRebuildOnce(sql, events),
  );
  notes.push(
    `rebuild: ${REBUILD_ROUNDS} rebuilds per side (AB, BA) after an untimed warm-up on a tenth of the events; ` +
      `the runner reads the next page while it applies one, the baseline loop does not`,
  );
  const m = measurement({
    key: 'projection-rebuild',
    label: `projection rebuild, users (${events})`,
    unit: 'events/s',
    subject: {
      ...timing(events * REBUILD_ROUNDS, portMs),
      how: `ProjectionRunner.rebuild() of the users projection: readAll pages of ${REBUILD_PAGE}, each applied in one transaction with the checkpoint`,
    },
    baseline: {
      ...timing(events * REBUILD_ROUNDS, rawMs),
      how: `DROP/CREATE the table LIKE rm_users (its indexes; GIN and query indexes built at the end), SELECT pages of ${REBUILD_PAGE} from es_events; per page one transaction: one INSERT ... SELECT FROM jsonb_to_recordset of the same rows + checkpoint UPDATE`,
    },
  });
  m.goals.push(atLeastRate(m, GOALS.rebuild[kind]));
  return m;
}

/** The users projection's row changes in raw SQL: pages of `page` events, one transaction per page. */
async function rawRebuild(sql: SqlClient, page: number): Promise<number> {
  // The projection's own table definition (columns, generated columns, indexes), its deferred
  // indexes built at the end as the runner does: the same durable work.
  const table = await copyTable(sql, 'rm_users', 'raw_rm_users', deferredIndexNames([usersProjection]));
  await sql.query(`UPDATE raw_checkpoint SET position = 0 WHERE name = 'raw_users'`);
  let count = 0;
  let from = '0';
  for (;;) {
    const { rows } = await sql.query<{
      position: string | number | bigint;
      revision: string | number | bigint;
      type: string;
      data: UserCreatedData;
      metadata: { occurredAt: string };
    }>(`SELECT ${READ_COLUMNS} FROM es_events WHERE position > $1 ORDER BY position LIMIT ${page}`, [from]);
    if (rows.length === 0) {
      for (const ddl of table.deferred) await sql.query(ddl);
      return count;
    }
    const last = String(rows[rows.length - 1]!.position);
    const users = rows
      .filter((r) => r.type === 'UserCreated')
      .map(({ data: d, metadata, revision }) => ({
        id: d.userId,
        login: d.login.toLowerCase(),
        email: d.email,
        first_name: d.firstName,
        last_name: d.lastName,
        user_type: d.userType,
        type_label: USER_TYPE_LABELS[d.userType] ?? '',
        permissions: d.permissions,
        created_at: metadata.occurredAt,
        version: String(revision),
      }));
    await sql.transaction(async (tx) => {
      if (users.length > 0) {
        await tx.query(
          `INSERT INTO raw_rm_users (id, login, email, first_name, last_name, user_type, type_label, permissions,
                                     has_access, awaiting_activation, custom_fields, created_at, updated_at, version)
           SELECT r.id, r.login, r.email, r.first_name, r.last_name, r.user_type, r.type_label, r.permissions,
                  true, false, '{}', r.created_at, r.created_at, r.version
             FROM jsonb_to_recordset($1::jsonb) AS r(id uuid, login text, email text, first_name text,
                  last_name text, user_type text, type_label text, permissions jsonb, created_at timestamptz,
                  version bigint)`,
          [JSON.stringify(users)],
        );
      }
      await tx.query(`UPDATE raw_checkpoint SET position = $1::bigint WHERE name = 'raw_users'`, [last]);
    });
    count += rows.length;
    from = last;
  }
}

async function countRows(sql: SqlClient, table: string): Promise<number> {
  const { rows } = await sql.query<{ n: string | number }>(`SELECT count(*)::int AS n FROM ${table}`);
  return Number(rows[0]?.n ?? 0);
}

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}
