/**
 * PGlite in this thread vs in a worker thread (decision 0072): what a statement costs the caller and
 * what it costs the event loop. Not a suite of `npm run bench`; run it alone (a minute):
 *
 *   node --import tsx tests/bench/tools/pglite-worker-overhead.ts
 *
 * Both clients on a data directory of their own (the file system sync is part of the cost). For each
 * workload: wall time per statement; the main thread's CPU time per statement (Linux schedstat of the
 * main thread: what the statement takes from the thread that serves HTTP, Socket.IO and co-editing);
 * its event-loop busy time per statement (event-loop utilisation; on a loaded machine it also counts
 * time the thread waited for a CPU); and, while one caller sends statements back to back, how late a
 * 1 ms timer fires on the same loop (p50 / p99 / max, and how many fired).
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { PgliteSqlClient } from '../../../server/src/platform/sql/pglite-client.js';
import { PgliteWorkerSqlClient } from '../../../server/src/platform/sql/pglite-worker-client.js';
import type { SqlClient } from '../../../server/src/platform/sql/sql-client.js';

const N = Number(process.env.OVERHEAD_N ?? 2000);

/** CPU time of this process's main thread so far, in µs (Linux). */
function mainThreadCpuUs(): number {
  return Number(readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ')[0]) / 1000;
}

interface Workload {
  name: string;
  run(sql: SqlClient, i: number): Promise<unknown>;
}

const workloads: Workload[] = [
  { name: 'SELECT 1', run: (sql) => sql.query('SELECT 1 AS v') },
  {
    name: 'row by key (jsonb)',
    run: (sql, i) => sql.query('SELECT * FROM items WHERE id = $1', [(i % 1000) + 1]),
  },
  {
    name: 'INSERT (autocommit)',
    run: (sql, i) =>
      sql.query('INSERT INTO log (n, data) VALUES ($1, $2)', [i, { i, at: new Date().toISOString() }]),
  },
  {
    name: 'transaction: read + write',
    run: (sql, i) =>
      sql.transaction(async (tx) => {
        await tx.query('SELECT data FROM items WHERE id = $1', [(i % 1000) + 1]);
        await tx.query('UPDATE items SET n = n + 1 WHERE id = $1', [(i % 1000) + 1]);
      }),
  },
  {
    name: '50 rows (jsonb)',
    run: (sql, i) => sql.query('SELECT * FROM items WHERE id > $1 LIMIT 50', [i % 900]),
  },
];

async function prepare(sql: SqlClient): Promise<void> {
  await sql.exec(`
    CREATE TABLE items (id int PRIMARY KEY, n int NOT NULL, data jsonb NOT NULL);
    INSERT INTO items SELECT g, 0, jsonb_build_object('name', 'item ' || g, 'tags', jsonb_build_array('a', 'b'), 'g', g)
      FROM generate_series(1, 1000) g;
    CREATE TABLE log (n int, data jsonb);`);
}

async function measure(sql: SqlClient, w: Workload) {
  for (let i = 0; i < 200; i++) await w.run(sql, i); // warm-up
  const delay = monitorEventLoopDelay({ resolution: 1 });
  let stop = false;
  // A 1 ms timer on the same loop: how late it fires while the statements run.
  const lateness: number[] = [];
  const tick = () => {
    const due = performance.now() + 1;
    setTimeout(() => {
      lateness.push(performance.now() - due);
      if (!stop) tick();
    }, 1);
  };
  tick();
  delay.enable();
  const elu0 = performance.eventLoopUtilization();
  const cpu0 = mainThreadCpuUs();
  const t0 = performance.now();
  for (let i = 0; i < N; i++) await w.run(sql, i);
  const wall = performance.now() - t0;
  const cpu = mainThreadCpuUs() - cpu0;
  const elu = performance.eventLoopUtilization(elu0);
  stop = true;
  delay.disable();
  await new Promise((r) => setTimeout(r, 5)); // the tick due during the run fires now (if it never could)
  lateness.sort((a, b) => a - b);
  const q = (p: number) => lateness[Math.min(lateness.length - 1, Math.floor(p * lateness.length))] ?? 0;
  return {
    wallUs: (wall * 1000) / N,
    cpuUs: cpu / N,
    busyUs: (elu.active * 1000) / N,
    ticks: lateness.length,
    timerLateP50Ms: q(0.5),
    timerLateP99Ms: q(0.99),
    timerLateMaxMs: lateness.at(-1) ?? 0,
  };
}

const fmt = (n: number, d = 0) => n.toFixed(d).padStart(8);
const results: Record<string, Record<string, Awaited<ReturnType<typeof measure>>>> = {};
for (const [label, open] of [
  ['in-process', (dir: string) => PgliteSqlClient.open(dir)],
  ['worker', (dir: string) => PgliteWorkerSqlClient.open(dir)],
] as const) {
  const dir = await mkdtemp(join(tmpdir(), 'pglite-overhead-'));
  const sql = await open(dir);
  try {
    await prepare(sql);
    results[label] = {};
    for (const w of workloads) results[label][w.name] = await measure(sql, w);
  } finally {
    await sql.close();
    await rm(dir, { recursive: true, force: true });
  }
}

console.log(`${N} statements per workload, sequential (one caller)\n`);
console.log(
  'workload'.padEnd(28) +
    'client'.padEnd(12) +
    '  wall µs' +
    '   cpu µs' +
    '  busy µs' +
    '   ticks  timer late p50 / p99 / max (ms)',
);
for (const w of workloads)
  for (const label of ['in-process', 'worker']) {
    const r = results[label]![w.name]!;
    console.log(
      w.name.padEnd(28) +
        label.padEnd(12) +
        fmt(r.wallUs) +
        ' ' +
        fmt(r.cpuUs) +
        ' ' +
        fmt(r.busyUs) +
        ' ' +
        fmt(r.ticks) +
        '  ' +
        `${r.timerLateP50Ms.toFixed(2)} / ${r.timerLateP99Ms.toFixed(2)} / ${r.timerLateMaxMs.toFixed(2)}`,
    );
  }
