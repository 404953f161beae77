/**
 * Collaboration benchmark: 20 y-websocket editors × 500 edits on one document on a real portal server
 * process, beside @y/websocket-server 0.1.1 (the reference y-websocket backend, in memory) on the same
 * workload; server memory with the document open; loading a document with 100,000 stored updates.
 * tests/bench/README.md ("Suite collab") explains every line.
 */
import { randomUUID } from 'node:crypto';
import { WebSocket } from 'ws';
import { WebsocketProvider } from 'y-websocket';
import * as Y from 'yjs';
import { PostgresEventStore } from '../../../server/src/platform/event-store/postgres/postgres-event-store.js';
import type { EventData } from '../../../server/src/platform/event-store/event-store.js';
import {
  DOCUMENT_SNAPSHOT_TAKEN,
  DOCUMENT_UPDATED,
  type DocumentUpdatedData,
} from '../../../server/src/platform/collaboration/collab.protocol.js';
import {
  DocumentPersistence,
  fromBase64,
  toBase64,
} from '../../../server/src/platform/collaboration/document-persistence.js';
import { login, startPortal, type PortalProcess } from '../../support/portal-processes.js';
import { portalStoreEnv } from '../lib/portal-store.js';
import { measurement, scaled, timed, timing, benchEnvironment, warmUpRounds } from '../lib/measure.js';
import {
  freePort,
  percentile,
  REFERENCE_SERVER,
  rssMb,
  spawnReady,
  type ReadyProcess,
} from '../lib/processes.js';
import type { BenchSuite, Measurement, SuiteContext, TargetKind } from '../lib/suite.js';
import { openBenchDatabase } from '../lib/targets.js';
import { closeEditor } from '../lib/editors.js';

/** Sizes at BENCH_SCALE=1. */
const SIZES = { editors: 20, edits: 500, blocks: 10, storedUpdates: 100_000, loadRuns: 5 };
/** Snapshot cadence of the 100,000-update stream: the server's default COLLAB_SNAPSHOT_EVERY. */
const STORED_SNAPSHOT_EVERY = 100;
const GOALS = { convergenceP99Ms: 100, ratio: 1.3, loadMs: 100 };

interface Side {
  name: 'subject' | 'reference';
  editors: WebsocketProvider[];
  /** Per editor: when its copy reached the round's target length. */
  reachedAt: number[];
  target: number;
  waiting: (() => void) | null;
  latencies: number[];
  pid: number;
  rssBefore: number;
}

function openEditors(url: string, room: string, count: number, token: string | null): WebsocketProvider[] {
  return Array.from(
    { length: count },
    () =>
      new WebsocketProvider(url, room, new Y.Doc(), {
        WebSocketPolyfill: WebSocket as unknown as typeof globalThis.WebSocket,
        params: token ? { token } : {},
        disableBc: true,
      }),
  );
}

async function ready(side: Side): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!side.editors.every((e) => e.synced)) {
    if (Date.now() > deadline) throw new Error(`${side.name}: editors did not sync`);
    await new Promise((r) => setTimeout(r, 20));
  }
  side.editors.forEach((e, i) => {
    const items = e.doc.getArray<string>('items');
    items.observe(() => {
      if (items.length >= side.target && side.reachedAt[i] === 0) {
        side.reachedAt[i] = performance.now();
        if (side.reachedAt.every((t) => t > 0)) side.waiting?.();
      }
    });
  });
}

/** One round: every editor appends one item at once; resolves with the time until all have all. */
async function round(side: Side, index: number): Promise<number> {
  const n = side.editors.length;
  side.target = (index + 1) * n;
  side.reachedAt = side.editors.map(() => 0);
  const done = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${side.name}: round ${index} did not converge`)),
      15_000,
    );
    side.waiting = () => {
      clearTimeout(timer);
      resolve();
    };
  });
  const t0 = performance.now();
  side.editors.forEach((e, i) => e.doc.getArray<string>('items').push([`${i}:${index}`]));
  await done;
  return Math.max(...side.reachedAt) - t0;
}

export const suite: BenchSuite = {
  name: 'collab',
  description:
    '20 editors × 500 edits on one document vs @y/websocket-server 0.1.1; memory; loading 100,000 stored updates',
  async run(ctx: SuiteContext) {
    if (!REFERENCE_SERVER) throw new Error('@y/websocket-server is not installed (npm install in tests/)');
    for (const target of ctx.targets) await runTarget(ctx, target);
  },
};

async function runTarget(ctx: SuiteContext, target: TargetKind): Promise<void> {
  const editors = scaled(SIZES.editors, Math.min(1, ctx.scale * 4), 2);
  const edits = scaled(SIZES.edits, ctx.scale, 20);
  const blocks = Math.min(SIZES.blocks, edits);
  const perBlock = Math.ceil(edits / blocks);
  const warmUp = warmUpRounds(edits);
  const storedUpdates = scaled(SIZES.storedUpdates, ctx.scale, 1_000);
  const startedAt = new Date();
  const measurements: Measurement[] = [];
  let portal: PortalProcess | null = null;
  let reference: ReadyProcess | null = null;
  let cleanup: () => Promise<void> = async () => {};
  const sides: Side[] = [];
  try {
    const store = await portalStoreEnv(target, 'collab');
    const env = store.env;
    cleanup = store.cleanup;
    ctx.progress(`${target}: starting the portal and @y/websocket-server`);
    // Rate limits raised so that the bench measures latency, not the per-connection token bucket.
    portal = await startPortal({ ...env, COLLAB_RATE_BURST: '100000', COLLAB_RATE_PER_SECOND: '100000' });
    const port = await freePort();
    reference = await spawnReady(
      [REFERENCE_SERVER!],
      { HOST: '127.0.0.1', PORT: String(port) },
      /running at/,
    );
    const token = await login(portal.url);
    const room = `test:${randomUUID()}`;
    const subject: Side = {
      name: 'subject',
      editors: [],
      reachedAt: [],
      target: 0,
      waiting: null,
      latencies: [],
      pid: portal.pid,
      rssBefore: await rssMb(portal.pid),
    };
    const ref: Side = {
      ...subject,
      name: 'reference',
      editors: [],
      latencies: [],
      pid: reference.child.pid!,
      rssBefore: await rssMb(reference.child.pid!),
    };
    sides.push(subject, ref);
    subject.editors = openEditors(`${portal.url.replace(/^http/, 'ws')}/collab`, room, editors, token);
    ref.editors = openEditors(`ws://127.0.0.1:${port}`, room, editors, null);
    await Promise.all([ready(subject), ready(ref)]);

    const index = { subject: 0, reference: 0 };
    // Untimed warm-up rounds on each side first, as in the reports suite: the first rounds measured
    // the JIT compiling each server's path (the portal's longest rounds were rounds 0–5, 1.5–2× the
    // steady state) rather than co-editing.
    ctx.progress(`${target}: ${warmUp} untimed warm-up rounds per side`);
    for (const side of [subject, ref]) for (let i = 0; i < warmUp; i++) await round(side, index[side.name]++);
    ctx.progress(`${target}: ${editors} editors × ${edits} edits per side in ${blocks} alternating blocks`);
    for (let block = 0; block < blocks; block++) {
      const order = block % 2 === 0 ? [subject, ref] : [ref, subject];
      for (const side of order)
        for (let i = 0; i < perBlock && index[side.name] < warmUp + edits; i++)
          side.latencies.push(await round(side, index[side.name]++));
    }
    // The document stays open: memory now minus memory before it was opened.
    await new Promise((r) => setTimeout(r, 500));
    const rss = {
      subject: (await rssMb(subject.pid)) - subject.rssBefore,
      reference: (await rssMb(ref.pid)) - ref.rssBefore,
    };

    for (const p of [50, 99]) {
      const s = percentile(subject.latencies, p);
      const b = percentile(ref.latencies, p);
      const m = measurement({
        key: `convergence-p${p}`,
        label: `time to convergence, p${p}`,
        unit: 'ms (lower is better)',
        subject: {
          ...timing(subject.latencies.length, s),
          rate: Math.round(s * 10) / 10,
          how: `portal /collab (y-websocket protocol, persisted in batches): ${editors} editors each append 1 item at once, until all ${editors} have all; p${p} over ${edits} rounds after ${warmUp} untimed`,
        },
        baseline: {
          ...timing(ref.latencies.length, b),
          rate: Math.round(b * 10) / 10,
          how: `@y/websocket-server 0.1.1 (in memory, no auth, no persistence), same editors and rounds`,
        },
      });
      if (p === 99) {
        m.goals.push({ goal: `p99 < ${GOALS.convergenceP99Ms} ms`, pass: s < GOALS.convergenceP99Ms });
        m.goals.push({ goal: `≤ ${GOALS.ratio}× reference`, pass: s <= GOALS.ratio * b });
      }
      measurements.push(m);
    }
    measurements.push(
      measurement({
        key: 'rss-open-document',
        label: 'server RSS growth, 1 open document',
        unit: 'MB (lower is better)',
        subject: {
          count: 1,
          ms: Math.round(rss.subject * 10) / 10,
          rate: Math.round(rss.subject * 10) / 10,
          how: `portal server RSS with the document open (${(warmUp + edits) * editors} items, ${editors} connections) minus RSS before it was opened`,
        },
        baseline: {
          count: 1,
          ms: Math.round(rss.reference * 10) / 10,
          rate: Math.round(rss.reference * 10) / 10,
          how: '@y/websocket-server RSS, the same way',
        },
      }),
    );
  } finally {
    for (const s of sides) s.editors.forEach(closeEditor);
    await portal?.stop();
    await reference?.stop();
    await cleanup();
  }

  ctx.progress(`${target}: loading a document with ${storedUpdates} stored updates`);
  measurements.push(await loadMeasurement(target, storedUpdates));

  await ctx.report({
    suite: 'collab',
    target,
    targetDetails: `portal server process (${target === 'postgres' ? 'PostgreSQL' : 'PGlite'}) vs @y/websocket-server 0.1.1 process; editors in the bench process`,
    scale: ctx.scale,
    startedAt: startedAt.toISOString(),
    durationMs: Date.now() - startedAt.getTime(),
    environment: benchEnvironment(),
    sizes: { editors, edits, warmUp, blocks, storedUpdates, storedSnapshotEvery: STORED_SNAPSHOT_EVERY },
    measurements,
    notes: [
      'Latency and memory figures: the "rate" columns hold ms or MB, and the ratio is subject/baseline (lower is better).',
      'Rounds alternate in blocks (subject, reference, reference, subject, ...) on the two servers, both loaded with their editors throughout.',
      `The stored-updates stream has one DocumentUpdated per update (the worst case: one update per flush) and a snapshot every ${STORED_SNAPSHOT_EVERY} updates (the server default), as the server writes them.`,
    ],
  });
}

/** Load time of a document whose stream holds `count` single-update events (+ snapshots), vs a replay. */
async function loadMeasurement(target: TargetKind, count: number): Promise<Measurement> {
  const db = await openBenchDatabase(target, { poolSize: 4 });
  try {
    const store = await PostgresEventStore.create(db.sql);
    try {
      const stream = `collab-test-${randomUUID()}`;
      const doc = new Y.Doc();
      const text = doc.getText('body');
      let pending: EventData[] = [];
      let revision: bigint | 'no_stream' = 'no_stream';
      const flush = async () => {
        if (pending.length === 0) return;
        const r = await store.append(stream, pending, { expectedRevision: revision });
        revision = r.nextExpectedRevision;
        pending = [];
      };
      doc.on('update', (update: Uint8Array) => {
        const data: DocumentUpdatedData = { update: toBase64(update), updates: 1 };
        pending.push({ id: randomUUID(), type: DOCUMENT_UPDATED, data, metadata: { actorId: null } });
      });
      for (let i = 1; i <= count; i++) {
        text.insert(text.length, String.fromCharCode(97 + (i % 26)));
        if (i % STORED_SNAPSHOT_EVERY === 0 && i < count) {
          await flush();
          pending.push({
            id: randomUUID(),
            type: DOCUMENT_SNAPSHOT_TAKEN,
            data: { state: toBase64(Y.encodeStateAsUpdate(doc)), coversRevision: String(revision) },
            metadata: { actorId: null },
          });
        }
        if (pending.length >= 1000) await flush();
      }
      await flush();
      const expected = text.toJSON();

      const loads: number[] = [];
      for (let i = 0; i < SIZES.loadRuns; i++) {
        const loaded = new Y.Doc();
        const { ms } = await timed(() =>
          new DocumentPersistence(store, stream, STORED_SNAPSHOT_EVERY).load(loaded),
        );
        if (loaded.getText('body').toJSON() !== expected) throw new Error('loaded document differs');
        loads.push(ms);
      }
      const replay = await timed(async () => {
        const replayed = new Y.Doc();
        for (const e of await store.readStream(stream)) {
          if (e.type === DOCUMENT_UPDATED)
            Y.applyUpdate(replayed, fromBase64((e.data as DocumentUpdatedData).update));
        }
        if (replayed.getText('body').toJSON() !== expected) throw new Error('replayed document differs');
      });
      const median = percentile(loads, 50);
      const m = measurement({
        key: 'load-stored-updates',
        label: `load a document of ${count.toLocaleString('en-US')} updates`,
        unit: 'ms (lower is better)',
        subject: {
          count: loads.length,
          ms: Math.round(median * 10) / 10,
          rate: Math.round(median * 10) / 10,
          how: `DocumentPersistence.load (backwards to the last snapshot, then the tail); median of ${loads.length} loads, max ${Math.round(Math.max(...loads))} ms`,
        },
        baseline: {
          count: 1,
          ms: Math.round(replay.ms * 10) / 10,
          rate: Math.round(replay.ms * 10) / 10,
          how: `readStream of the whole stream and Y.applyUpdate of all ${count.toLocaleString('en-US')} updates (no snapshots)`,
        },
      });
      m.goals.push({ goal: `< ${GOALS.loadMs} ms`, pass: median < GOALS.loadMs });
      return m;
    } finally {
      await store.close();
    }
  } finally {
    await db.dispose();
  }
}
