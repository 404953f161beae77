/**
 * Where a rebuild of all projections together spends its time (decision 0070): per projection, the wall
 * time inside `apply`, the statements sent at once (each a round trip that flushes what waits), the
 * statements deferred, and the scripts sent; beside it the time spent reading the log and committing.
 *
 *   PROFILE_EVENTS=20000 PROFILE_TARGET=pglite BENCH_DEMO_LOG=/tmp/demo-log.json \
 *     node --conditions=source --import tsx tests/bench/tools/profile-rebuild.ts
 *
 * PROFILE_TARGET pglite | postgres; PROFILE_EVENTS the log's size (the demo log copied as by the
 * `projections` bench); PROFILE_ONLY=a,b only those projections; PROFILE_BATCH the runner's batch size;
 * PROFILE_ALL=1 also counts each projection's statements by text; PROFILE_EACH=1 sends every statement
 * on its own and times it (what each kind of statement costs; the rebuild itself is then slower);
 * PROFILE_PLAIN=1 times the rebuild alone, without wrapping the projections (no table, no flush
 * between projections; the wrapper times `apply` only, so use PLAIN for a projection whose
 * `applyBatch` folds its batch); PROFILE_TYPES=1 with PROFILE_ONLY rebuilds those projections as the
 * `projections` bench does (every projection built first, untimed; then only their event types read);
 * PROFILE_PHASES=1 times the rebuild's phases (prepare, catch-up, deferred indexes, swap, reads), and
 * says how busy the machine's cores were meanwhile (Linux: /proc/stat; every process, the database's too).
 * PROFILE_CPU=file.cpuprofile writes a V8 CPU profile of the rebuild alone (not of filling the log).
 * PROFILE_TRACE=1 (PostgreSQL) lists what the rebuild sends, grouped by its first words: how many, their
 * time from send to answer, the characters sent; PROFILE_TRACE=split sends each statement of a
 * write-behind script on its own to time it; PROFILE_TRACE_DUMP=path writes each text over 100,000
 * characters to path.1, path.2, ...
 * The time of a projection includes sending what it left waiting (it is flushed when the next
 * projection starts); what the last one of a batch leaves is sent by the runner, in "rest".
 */
import { readFileSync, writeFileSync } from 'node:fs';
import pg from 'pg';
import {
  allProjections,
  type Projection,
  type ProjectionEvent,
  type ProjectionTx,
} from '../../../projections/src/index.js';
import { ProjectionRunner } from '../../../server/src/platform/projections/projection-runner.js';
import { WriteBehindTx } from '../../../server/src/platform/projections/write-behind.js';
import type { EventStore } from '../../../server/src/platform/event-store/event-store.js';
import { silentLog } from '../lib/measure.js';
import { openBenchDatabase } from '../lib/targets.js';
import type { TargetKind } from '../lib/suite.js';
import { demoLog, LogWriter, protectedStore } from '../suites/projections.js';

interface Row {
  events: number;
  ms: number;
  direct: number;
  deferred: number;
  scripts: number;
  merged: number;
  executed: number;
  reads: Map<string, number>;
  all: Map<string, number>;
  each: Map<string, { n: number; ms: number }>;
}

let last: Row | null = null;
const events = Number(process.env.PROFILE_EVENTS ?? 50_000);
const kind = (process.env.PROFILE_TARGET ?? 'pglite') as TargetKind;
const only = process.env.PROFILE_ONLY?.split(',');

const template = await demoLog();
const db = await openBenchDatabase(kind, { poolSize: 8 });
try {
  const store = await protectedStore(db.sql);
  const written = await new LogWriter(store, template).fill(events);
  const rows = new Map<string, Row>();
  const projections = allProjections
    .filter((p) => !only || only.includes(p.name) || process.env.PROFILE_TYPES)
    .map((p) => (process.env.PROFILE_PLAIN ? p : profiled(p, rows)));
  let readMs = 0;
  const reads: string[] = [];
  const timedStore: EventStore = Object.create(store) as EventStore;
  timedStore.readAll = async (o) => {
    const t = performance.now();
    const page = await store.readAll(o);
    readMs += performance.now() - t;
    reads.push(`${page.length} in ${(performance.now() - t).toFixed(0)} ms`);
    return page;
  };
  const batchSize = process.env.PROFILE_BATCH ? Number(process.env.PROFILE_BATCH) : undefined;
  const runner = new ProjectionRunner(timedStore, db.sql, projections, { log: silentLog, batchSize });
  if (process.env.PROFILE_TYPES) {
    // As the bench rebuilds one projection: the others at the head, only its event types read.
    // Built through the plain store and projections, so none of it is counted or timed.
    await new ProjectionRunner(store, db.sql, allProjections, { log: silentLog }).rebuild();
  }
  const phases = process.env.PROFILE_PHASES ? timePhases(runner) : null;
  const busyBefore = phases ? coreTimes() : null;
  const t = performance.now();
  const cpu = process.cpuUsage();
  const cpuProfile = process.env.PROFILE_CPU ? await startCpuProfile() : null;
  const trace = process.env.PROFILE_TRACE ? traceStatements() : null;
  const result = await runner.rebuild(process.env.PROFILE_TYPES && only ? only : undefined);
  if (cpuProfile) await cpuProfile(process.env.PROFILE_CPU!);
  trace?.();
  const total = performance.now() - t;
  const used = process.cpuUsage(cpu);
  const busyAfter = busyBefore ? coreTimes() : null;
  const busy = busyBefore && busyAfter ? busyShare(busyBefore, busyAfter) : null;
  const applyMs = [...rows.values()].reduce((s, r) => s + r.ms, 0);
  if (phases) console.log('phases (ms):', [...phases].map(([m, ms]) => `${m} ${ms.toFixed(0)}`).join(', '));
  if (busy !== null)
    console.log(
      `machine busy: ${(busy * 100).toFixed(0)}% of its cores (idle and I/O wait counted as not busy)`,
    );
  if (phases)
    console.log(`reads (${reads.length}):`, reads.slice(0, 5).join(', '), reads.length > 5 ? '...' : '');
  console.log(
    `${kind}: ${written} events, ${result.events} read, ${total.toFixed(0)} ms = ${((written / total) * 1000).toFixed(0)} ev/s; ` +
      `apply ${applyMs.toFixed(0)} ms, readAll (overlapped) ${readMs.toFixed(0)} ms, rest ${(total - applyMs).toFixed(0)} ms; ` +
      `this process's CPU ${((used.user + used.system) / 1000).toFixed(0)} ms (PGlite runs in it)`,
  );
  console.log(
    'projection'.padEnd(26),
    'events'.padStart(7),
    'ms'.padStart(7),
    'µs/ev'.padStart(6),
    'direct'.padStart(7),
    'deferred'.padStart(9),
    'scripts'.padStart(8),
    'merged'.padStart(7),
    'exec'.padStart(7),
    ' top direct statements',
  );
  for (const [name, r] of [...rows].sort((a, b) => b[1].ms - a[1].ms)) {
    const top = [...r.reads]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 3)
      .map(([s, n]) => `${n}× ${s}`)
      .join(' | ');
    console.log(
      name.padEnd(26),
      String(r.events).padStart(7),
      r.ms.toFixed(0).padStart(7),
      ((r.ms * 1000) / Math.max(1, r.events)).toFixed(0).padStart(6),
      String(r.direct).padStart(7),
      String(r.deferred).padStart(9),
      String(r.scripts).padStart(8),
      String(r.merged).padStart(7),
      String(r.executed).padStart(7),
      ' ',
      top,
    );
  }
  if (process.env.PROFILE_EACH) {
    const all = [...rows].flatMap(([name, r]) => [...r.each].map(([s, m]) => ({ name, s, ...m })));
    for (const x of all.sort((a, b) => b.ms - a.ms).slice(0, 40))
      console.log(
        x.name.padEnd(18),
        String(x.n).padStart(6),
        x.ms.toFixed(0).padStart(6),
        'ms',
        ((x.ms * 1000) / x.n).toFixed(0).padStart(5),
        'µs',
        x.s,
      );
  }
  if (process.env.PROFILE_ALL || process.env.PROFILE_UPDATES)
    for (const [name, r] of rows)
      for (const [s, n] of [...r.all].sort((a, b) => b[1] - a[1]).slice(0, 8))
        console.log(name.padEnd(20), String(n).padStart(6), s);
  await store.close();
} finally {
  await db.dispose();
}

/** The projection, its `apply` timed and its statements counted through the runner's WriteBehindTx. */
function profiled(p: Projection, rows: Map<string, Row>): Projection {
  const row: Row = {
    events: 0,
    ms: 0,
    direct: 0,
    deferred: 0,
    scripts: 0,
    merged: 0,
    executed: 0,
    reads: new Map(),
    all: new Map(),
    each: new Map(),
  };
  rows.set(p.name, row);
  const apply = async (event: ProjectionEvent, tx: ProjectionTx) => {
    const wb = tx as WriteBehindTx;
    if (last !== row) {
      // What the previous projection left waiting is its cost: send it now and charge it there.
      const t = performance.now();
      await wb.flush();
      if (last) last.ms += performance.now() - t;
      last = row;
    }
    const before = { ...wb.stats };
    const counting: ProjectionTx = {
      query: (sql, params) => {
        const d = wb.stats.deferred;
        if (process.env.PROFILE_UPDATES && /^\s*UPDATE\s+(\w+)/i.test(sql)) {
          const table = /^\s*UPDATE\s+(\w+)/i.exec(sql)![1]!;
          const word = new RegExp(`\\b${table}\\b`, 'i');
          const pending = (wb as unknown as { pending: { template: string }[] }).pending;
          let could = false;
          for (let i = pending.length - 1; i >= 0; i--) {
            if (pending[i]!.template === sql) {
              could = true;
              break;
            }
            if (word.test(pending[i]!.template)) break;
          }
          const key = `${could ? 'merge' : 'alone'} ${sql.replace(/\s+/g, ' ').trim().slice(0, 60)}`;
          row.all.set(key, (row.all.get(key) ?? 0) + 1);
        }
        const r = wb.query(sql, params);
        const key0 = sql.replace(/\s+/g, ' ').trim().slice(0, 90);
        if (process.env.PROFILE_EACH) {
          // Each statement sent on its own and timed: what each statement kind costs (not how the rebuild runs).
          return (async () => {
            await wb.flush();
            const t0 = performance.now();
            const r = await wb.query(sql, params);
            await wb.flush();
            const m = row.each.get(key0) ?? { n: 0, ms: 0 };
            m.n++;
            m.ms += performance.now() - t0;
            row.each.set(key0, m);
            return r;
          })() as never;
        }
        if (process.env.PROFILE_ALL) row.all.set(key0, (row.all.get(key0) ?? 0) + 1);
        if (wb.stats.deferred === d) {
          const key = sql.replace(/\s+/g, ' ').trim().slice(0, 70);
          row.reads.set(key, (row.reads.get(key) ?? 0) + 1);
        }
        return r as never;
      },
    };
    const t = performance.now();
    await p.apply(event, wb.stats ? counting : tx);
    row.ms += performance.now() - t;
    row.events++;
    row.direct += wb.stats.direct - before.direct;
    row.deferred += wb.stats.deferred - before.deferred;
    row.scripts += wb.stats.scripts - before.scripts;
    row.merged += wb.stats.merged - before.merged;
    row.executed += wb.stats.executed - before.executed;
  };
  return Object.assign(Object.create(p) as Projection, { apply, applyBatch: undefined });
}

/**
 * PROFILE_TRACE=1 (PostgreSQL): every statement or script the rebuild sends, grouped by its first
 * words, with how many, their time from send to answer (they may overlap) and the characters sent.
 */
function traceStatements(): () => void {
  const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const original = proto.query;
  const groups = new Map<string, { n: number; ms: number; chars: number }>();
  let dumped = 0;
  const count = (key: string, ms: number, chars: number) => {
    const g = groups.get(key) ?? { n: 0, ms: 0, chars: 0 };
    g.n++;
    g.ms += ms;
    g.chars += chars;
    groups.set(key, g);
  };
  proto.query = function (this: unknown, ...args: unknown[]) {
    const first = args[0];
    const text = typeof first === 'string' ? first : ((first as { text?: string } | null)?.text ?? '');
    const key = text.replace(/\s+/g, ' ').trim().slice(0, 70);
    if (process.env.PROFILE_TRACE_DUMP && text.length > 100_000)
      writeFileSync(`${process.env.PROFILE_TRACE_DUMP}.${++dumped}`, text);
    if (
      process.env.PROFILE_TRACE === 'split' &&
      typeof first === 'string' &&
      first.includes(';\n') &&
      !first.includes('PREPARE')
    ) {
      // Each statement of a write-behind script sent and timed on its own (what each one costs the server).
      return (async () => {
        for (const part of first.split(';\n')) {
          const t0 = performance.now();
          await (original.call(this, part) as Promise<unknown>);
          count(part.replace(/\s+/g, ' ').trim().slice(0, 50), performance.now() - t0, part.length);
        }
        return { rows: [] };
      })();
    }
    const t = performance.now();
    const result = original.apply(this, args);
    const done = () => count(key, performance.now() - t, text.length);
    if (result instanceof Promise) void result.then(done, done);
    // A COPY (decision 0093) answers with its stream, which finishes once the server has the rows.
    else if (typeof (result as { once?: unknown } | null)?.once === 'function')
      (result as NodeJS.EventEmitter).once('finish', done).once('error', done);
    return result;
  };
  return () => {
    proto.query = original;
    for (const [key, g] of [...groups].sort((a, b) => b[1].ms - a[1].ms).slice(0, 25))
      console.log(
        String(g.n).padStart(6),
        g.ms.toFixed(0).padStart(6),
        'ms',
        String(Math.round(g.chars / g.n)).padStart(8),
        'ch',
        key,
      );
  };
}

/** Starts V8's CPU profiler; the function returned stops it and writes the profile to `path`. */
async function startCpuProfile(): Promise<(path: string) => Promise<void>> {
  const { Session } = await import('node:inspector/promises');
  const { writeFile } = await import('node:fs/promises');
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  return async (path) => {
    const { profile } = await session.post('Profiler.stop');
    await writeFile(path, JSON.stringify(profile));
    session.disconnect();
  };
}

/** Wraps the runner's rebuild phases (private methods, by name) with timers: ms per phase. */
function timePhases(runner: ProjectionRunner): Map<string, number> {
  const ms = new Map<string, number>();
  const target = runner as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
  for (const name of ['prepare', 'catchUp', 'buildDeferredIndexes', 'swapInBuilds', 'ensureSchema']) {
    const original = target[name]!.bind(runner);
    target[name] = async (...args: unknown[]) => {
      const t = performance.now();
      try {
        return await original(...args);
      } finally {
        ms.set(name, (ms.get(name) ?? 0) + performance.now() - t);
      }
    };
  }
  return ms;
}

/** The machine's CPU times since boot (jiffies: user, nice, system, idle, iowait, ...), null off Linux. */
function coreTimes(): number[] | null {
  try {
    return readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  } catch {
    return null;
  }
}

/** The share of the cores' time between two `coreTimes` that was neither idle nor waiting for I/O. */
function busyShare(before: number[], after: number[]): number {
  const d = after.map((v, i) => v - (before[i] ?? 0));
  const total = d.reduce((a, b) => a + b, 0);
  return total > 0 ? 1 - ((d[3] ?? 0) + (d[4] ?? 0)) / total : 0;
}
