/**
 * Live channel benchmark: an HTTP command to a real portal server process → the `live` message at
 * 1,000 connected socket.io-client sockets, beside a bare Socket.IO server broadcasting the same payload
 * to 1,000 sockets on an HTTP request. tests/bench/README.md ("Suite live") explains every line.
 */
import { fileURLToPath } from 'node:url';
import type { LiveMessage } from '../../../projections/src/live-contract.js';
import { api, login, startPortal, type PortalProcess } from '../../support/portal-processes.js';
import { closeAudiences, connectAudience, receivedAll, type Audience } from '../lib/live-audience.js';
import { portalStoreEnv } from '../lib/portal-store.js';
import { measurement, scaled, timing, benchEnvironment } from '../lib/measure.js';
import { percentile, spawnReady, type ReadyProcess } from '../lib/processes.js';
import type { BenchSuite, Measurement, SuiteContext, TargetKind } from '../lib/suite.js';

/** Sizes at BENCH_SCALE=1. */
const SIZES = { sockets: 1_000, messages: 200, rounds: 10 };
const GOALS = { p99Ms: 50, ratio: 3 };
const RAW_SERVER = fileURLToPath(new URL('../lib/raw-live-server.ts', import.meta.url));

export const suite: BenchSuite = {
  name: 'live',
  description:
    'HTTP command → `live` message at 1,000 sockets (portal server process) vs a bare Socket.IO broadcast',
  async run(ctx: SuiteContext) {
    for (const target of ctx.targets) await runTarget(ctx, target);
  },
};

async function runTarget(ctx: SuiteContext, target: TargetKind): Promise<void> {
  const sockets = scaled(SIZES.sockets, ctx.scale, 10);
  const messages = scaled(SIZES.messages, ctx.scale, 10);
  const rounds = Math.min(SIZES.rounds, messages);
  const perRound = Math.ceil(messages / rounds);
  const startedAt = new Date();
  let portal: PortalProcess | null = null;
  let raw: ReadyProcess | null = null;
  let cleanup: () => Promise<void> = async () => {};
  const audiences: Audience[] = [];
  try {
    const store = await portalStoreEnv(target, 'live');
    const env = store.env;
    cleanup = store.cleanup;
    ctx.progress(`${target}: starting the portal and the bare Socket.IO server`);
    portal = await startPortal(env);
    raw = await spawnReady(['--import', 'tsx', RAW_SERVER], {}, /^RAW_READY \d+/);
    const rawUrl = `http://127.0.0.1:${raw.line.split(' ')[1]}`;
    const token = await login(portal.url);
    const me = await api(portal.url, 'GET', '/users/me', token);
    const adminId = String(me.body.id);

    ctx.progress(`${target}: connecting ${sockets} sockets to each server`);
    const subject = await connectAudience(portal.url, sockets, [token]);
    const baseline = await connectAudience(rawUrl, sockets, [null]);
    audiences.push(subject, baseline);

    const subjectLatencies: number[] = [];
    /** HTTP round trip of each command alone (the event is committed when it answers). */
    const commandMs: number[] = [];
    const baselineLatencies: number[] = [];
    const sent = { subject: 0, baseline: 0 };
    let payload: LiveMessage = {
      type: 'UserProfileUpdated',
      stream: `user-${adminId}`,
      position: '0',
      data: {},
    };
    subject.sockets[0]!.on('live', (m: LiveMessage) => (payload = m));

    const one = async (side: 'subject' | 'baseline') => {
      const audience = side === 'subject' ? subject : baseline;
      const index = sent[side]++;
      const t0 = performance.now();
      if (side === 'subject') {
        const r = await api(portal!.url, 'PUT', `/users/${adminId}`, token, { notes: `bench ${index}` });
        if (r.status !== 200) throw new Error(`command answered ${r.status}: ${JSON.stringify(r.body)}`);
        commandMs.push(performance.now() - t0);
      } else {
        const r = await fetch(`${rawUrl}/emit`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ ...payload, position: String(index) }),
        });
        if (r.status !== 204) throw new Error(`raw server answered ${r.status}`);
      }
      await receivedAll(audience, (index + 1) * sockets);
      const out = side === 'subject' ? subjectLatencies : baselineLatencies;
      for (const times of audience.received) out.push(times[index]! - t0);
    };
    // Warm-up (not measured): a few messages each.
    for (let i = 0; i < 3; i++) {
      await one('subject');
      await one('baseline');
    }
    subjectLatencies.length = 0;
    baselineLatencies.length = 0;
    commandMs.length = 0;
    ctx.progress(`${target}: ${messages} messages per side in ${rounds} alternating rounds`);
    for (let round = 0; round < rounds; round++) {
      const order: ('subject' | 'baseline')[] =
        round % 2 === 0 ? ['subject', 'baseline'] : ['baseline', 'subject'];
      for (const side of order) for (let i = 0; i < perRound; i++) await one(side);
    }

    const measurements: Measurement[] = [];
    for (const p of [50, 99]) {
      const s = percentile(subjectLatencies, p);
      const b = percentile(baselineLatencies, p);
      const m = measurement({
        key: `command-to-live-p${p}`,
        label: `command → live, p${p}`,
        unit: 'ms (lower is better)',
        subject: {
          ...timing(subjectLatencies.length, s),
          rate: Math.round(s * 10) / 10,
          how: `PUT /api/v1/users/{id} (profile notes) → UserProfileUpdated → projection → \`live\` at ${sockets} admin sockets; p${p} over every (message, socket)`,
        },
        baseline: {
          ...timing(baselineLatencies.length, b),
          rate: Math.round(b * 10) / 10,
          how: `POST /emit to a bare Socket.IO server → io.of('/live').emit('live', same payload) to ${sockets} sockets`,
        },
      });
      if (p === 99) {
        m.goals.push({ goal: `p99 < ${GOALS.p99Ms} ms`, pass: s < GOALS.p99Ms });
        m.goals.push({ goal: `≤ ${GOALS.ratio}× bare Socket.IO`, pass: s <= GOALS.ratio * b });
      }
      measurements.push(m);
    }
    await ctx.report({
      suite: 'live',
      target,
      targetDetails: `portal server process (${target === 'postgres' ? 'PostgreSQL' : 'PGlite'}) vs bare Socket.IO process; clients in the bench process`,
      scale: ctx.scale,
      startedAt: startedAt.toISOString(),
      durationMs: Date.now() - startedAt.getTime(),
      environment: benchEnvironment(),
      sizes: { sockets, messages, rounds },
      measurements,
      notes: [
        'Latency figures: the "rate" columns hold milliseconds, and the ratio is subject/baseline latency (lower is better).',
        'Messages are sent one at a time: the next only after every socket received the previous one.',
        `Of the subject's latency, the HTTP command's own round trip (answered once the event is committed): p50 ${percentile(commandMs, 50).toFixed(1)} ms, p99 ${percentile(commandMs, 99).toFixed(1)} ms.`,
      ],
    });
  } finally {
    closeAudiences(audiences);
    await portal?.stop();
    await raw?.stop();
    await cleanup();
  }
}
