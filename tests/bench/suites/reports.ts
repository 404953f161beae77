/**
 * Half-term reports benchmark (decision 0060). Measured:
 * 1. the collaboration server's validation hook per update: 10 co-writers typing (edit connections:
 *    the template-section check) and 2 reviewers suggesting (suggest-only: the baseline check) on one
 *    report, each update tried on the shadow copy and checked (`validateReportUpdate`) before it is
 *    applied, beside applying the same updates without a check (what a plain y-websocket server does);
 * 2. the QA queue (`listHalfTermReports`, queue `qa`, unclaimed, oldest first, page of 50 with its
 *    count) over 20,000 reports, p50/p99, beside one hand-written SELECT + COUNT over the same rows.
 * 3. convergence p50/p99 of those 12 editors on one report through a real portal process, beside
 *    @y/websocket-server (lib/report-convergence.ts; decision 0067).
 */
import { randomUUID } from 'node:crypto';
import * as Y from 'yjs';
import { allProjections, listHalfTermReports, writeReportTemplate } from '../../../projections/src/index.js';
import { validateReportUpdate } from '../../../server/src/half-term-reports/report-text-rules.js';
import type { Actor } from '../../../server/src/platform/auth/request-context.js';
import { measurement, scaled, timed, timing, benchEnvironment } from '../lib/measure.js';
import { percentile } from '../lib/processes.js';
import type { BenchReport, BenchSuite, Measurement, SuiteContext, TargetKind } from '../lib/suite.js';
import { openBenchDatabase } from '../lib/targets.js';
import { reportConvergence } from '../lib/report-convergence.js';

const SIZES = { writers: 10, reviewers: 2, keystrokes: 300, reports: 20_000, queries: 200, rounds: 300 };
/** Convergence sessions pooled for the percentiles (decision 0085). */
const SESSIONS = 3;
const GOALS = { queueP99Ms: 30, hookP99Ms: 5 };

export const suite: BenchSuite = {
  name: 'reports',
  description:
    'Suggest-only/section validation per update (12 editors on one report) vs unchecked apply; 12 editors converging on one report vs @y/websocket-server; QA queue over 20,000 reports vs raw SQL (p50/p99)',
  async run(ctx: SuiteContext) {
    const hook = hookMeasurement(ctx);
    for (const target of ctx.targets) await ctx.report(await runOn(target, ctx, hook));
  },
};

const p = (values: number[], q: number) => Math.round(percentile(values, q) * 1000) / 1000;
const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

const actor = (userId: string) => ({ userId, permissions: new Set<string>() }) as unknown as Actor;

/** The editors' updates, in the order a server receives them: each keystroke of each editor in turn. */
function workload(keystrokes: number, editors: { id: string; suggest: boolean }[]) {
  const seed = new Y.Doc();
  writeReportTemplate(seed, 'Lessons in the period: 6 delivered, 0 planned.');
  const base = Y.encodeStateAsUpdate(seed);
  const docs = editors.map(() => {
    const d = new Y.Doc();
    Y.applyUpdate(d, base);
    return d;
  });
  const updates: { update: Uint8Array; editor: number }[] = [];
  for (let k = 0; k < keystrokes; k++)
    for (const [i, doc] of docs.entries()) {
      const paragraphs = doc
        .getXmlFragment('default')
        .toArray()
        .filter((n): n is Y.XmlElement => n instanceof Y.XmlElement && n.nodeName === 'paragraph');
      // Each editor writes in its own section's paragraph (writers) or suggests in the last one.
      const paragraph = paragraphs[editors[i]!.suggest ? paragraphs.length - 1 : i % paragraphs.length]!;
      let text = paragraph.firstChild;
      const sv = Y.encodeStateVector(doc);
      if (!(text instanceof Y.XmlText)) {
        text = new Y.XmlText();
        paragraph.insert(0, [text]);
      }
      const t = text;
      if (editors[i]!.suggest) t.insert(t.length, 'x', { insertion: { id: `u${editors[i]!.id}.bench.1` } });
      else t.insert(t.length, k % 7 === 6 ? ' ' : 'a');
      updates.push({ update: Y.encodeStateAsUpdate(doc, sv), editor: i });
    }
  return { base, updates };
}

function hookMeasurement(ctx: SuiteContext): Measurement {
  const keystrokes = scaled(SIZES.keystrokes, ctx.scale, 20);
  const editors = [
    ...Array.from({ length: SIZES.writers }, () => ({ id: randomUUID(), suggest: false })),
    ...Array.from({ length: SIZES.reviewers }, () => ({ id: randomUUID(), suggest: true })),
  ];
  ctx.progress(`validation hook: ${editors.length} editors × ${keystrokes} keystrokes`);
  const { base, updates } = workload(keystrokes, editors);
  const subjectMs: number[] = [];
  const baselineMs: number[] = [];
  const refused: number[] = [];
  // Subject and baseline in turns, each on its own document.
  const checked = new Y.Doc();
  Y.applyUpdate(checked, base);
  const shadow = new Y.Doc();
  Y.applyUpdate(shadow, base);
  const plain = new Y.Doc();
  Y.applyUpdate(plain, base);
  for (const [n, { update, editor }] of updates.entries()) {
    const subject = () => {
      const started = performance.now();
      Y.applyUpdate(shadow, update);
      const reason = validateReportUpdate({
        id: 'bench',
        actor: actor(editors[editor]!.id),
        suggestOnly: editors[editor]!.suggest,
        before: checked,
        after: shadow,
      });
      if (reason === null) Y.applyUpdate(checked, update);
      else refused.push(n);
      subjectMs.push(performance.now() - started);
    };
    const baseline = () => {
      const started = performance.now();
      Y.applyUpdate(plain, update);
      baselineMs.push(performance.now() - started);
    };
    if (n % 2) {
      subject();
      baseline();
    } else {
      baseline();
      subject();
    }
  }
  const m = measurement({
    key: 'validate-update',
    label: 'update checked before apply',
    unit: 'updates/s',
    subject: {
      ...timing(updates.length, sum(subjectMs)),
      p50Ms: p(subjectMs, 50),
      p99Ms: p(subjectMs, 99),
      how: `${updates.length} updates of ${editors.length} editors (${SIZES.reviewers} suggest-only), each applied to the shadow copy, checked (sections; baseline for suggest-only) and applied; ${refused.length} refused`,
    },
    baseline: {
      ...timing(updates.length, sum(baselineMs)),
      p50Ms: p(baselineMs, 50),
      p99Ms: p(baselineMs, 99),
      how: 'the same updates applied with Y.applyUpdate only (no check)',
    },
  });
  m.goals.push({ goal: 'no update refused', pass: refused.length === 0 });
  m.goals.push({ goal: `hook p99 < ${GOALS.hookP99Ms} ms`, pass: p(subjectMs, 99) < GOALS.hookP99Ms });
  return m;
}

async function runOn(kind: TargetKind, ctx: SuiteContext, hook: Measurement): Promise<BenchReport> {
  const progress = (m: string) => ctx.progress(`${kind}: ${m}`);
  const startedAt = new Date();
  const db = await openBenchDatabase(kind, { poolSize: 4 });
  const measurements: Measurement[] = [hook];
  const reports = scaled(SIZES.reports, ctx.scale, 500);
  const queries = scaled(SIZES.queries, ctx.scale, 20);
  const details = db.details;
  let seedMs: number;
  try {
    for (const projection of allProjections) for (const ddl of projection.schema) await db.sql.exec(ddl);
    progress(`seeding ${reports} reports`);
    const timeframe = randomUUID();
    const seed = await timed(async () => {
      await db.sql.query(
        `INSERT INTO rm_report_timeframes (id, name, academic_year, half_term, network_id, timezone, period_from,
           period_to, opens_at, submit_by, qa_by, release_at, closes_at, scope, created_at, updated_at, version)
         VALUES ($1, 'Autumn 2', '2026/27', 'autumn_2', NULL, 'Europe/London', '2026-10-01', '2026-12-15',
           '2026-11-01', '2026-11-20', '2026-11-27', '2026-12-01', NULL, '{}'::jsonb, now(), now(), 0)`,
        [timeframe],
      );
      // States spread as in a busy week: a quarter waiting for QA, some in QA, the rest elsewhere.
      await db.sql.query(
        `INSERT INTO rm_half_term_reports (id, timeframe_id, student_id, programme_id, customer_id, writer_ids,
           state, state_since, qa_claimed_by, created_at, updated_at, version)
         SELECT gen_random_uuid(), $1::uuid, gen_random_uuid(), gen_random_uuid(), gen_random_uuid(),
                jsonb_build_array(gen_random_uuid()::text),
                (ARRAY['draft','submitted','in_qa','returned','qa_approved','published','submitted','draft'])[1 + i % 8],
                now() - (i || ' minutes')::interval,
                CASE WHEN i % 8 = 2 THEN gen_random_uuid() END, now(), now(), 0
           FROM generate_series(1, $2::int) i`,
        [timeframe, reports],
      );
      await db.sql.exec('ANALYZE rm_half_term_reports');
    });
    seedMs = seed.ms;
    progress(`${queries} QA queue reads (subject and baseline in turns)`);
    const subjectMs: number[] = [];
    const baselineMs: number[] = [];
    let same = true;
    for (let i = 0; i < queries; i++) {
      const subject = async () => {
        const { result, ms } = await timed(() =>
          listHalfTermReports(db.sql, {
            page: 1,
            size: 50,
            state: ['submitted', 'in_qa'],
            queue: 'qa',
            claimedBy: null,
          }),
        );
        subjectMs.push(ms);
        return result.items.map((r) => r.id);
      };
      const baseline = async () => {
        const { result, ms } = await timed(async () => {
          const rows = await db.sql.query<{ id: string }>(
            `SELECT r.id FROM rm_half_term_reports r
              WHERE r.state = ANY($1::text[]) AND r.qa_claimed_by IS NULL
              ORDER BY r.state_since ASC, r.id ASC LIMIT 50`,
            [['submitted', 'in_qa']],
          );
          await db.sql.query(
            `SELECT count(*) FROM rm_half_term_reports r WHERE r.state = ANY($1::text[]) AND r.qa_claimed_by IS NULL`,
            [['submitted', 'in_qa']],
          );
          return rows.rows.map((r) => r.id);
        });
        baselineMs.push(ms);
        return result;
      };
      const [a, b] =
        i % 2 ? [await subject(), await baseline()] : [await baseline(), await subject()].reverse();
      if (JSON.stringify(a) !== JSON.stringify(b)) same = false;
    }
    const m = measurement({
      key: 'qa-queue',
      label: `QA queue over ${reports.toLocaleString('en-US')} reports`,
      unit: 'queries/s',
      subject: {
        ...timing(queries, sum(subjectMs)),
        p50Ms: p(subjectMs, 50),
        p99Ms: p(subjectMs, 99),
        how: 'listHalfTermReports, queue qa (submitted + in_qa), unclaimed, oldest first, page 1 of 50 with its count and joins (student, programme, school, timeframe)',
      },
      baseline: {
        ...timing(queries, sum(baselineMs)),
        p50Ms: p(baselineMs, 50),
        p99Ms: p(baselineMs, 99),
        how: 'one SELECT id … ORDER BY state_since, id LIMIT 50 and one COUNT over the same rows (no joins)',
      },
    });
    m.goals.push({ goal: 'same first page as the baseline', pass: same });
    if (kind === 'postgres')
      m.goals.push({ goal: `p99 < ${GOALS.queueP99Ms} ms`, pass: p(subjectMs, 99) < GOALS.queueP99Ms });
    measurements.push(m);
  } finally {
    await db.dispose();
  }
  // After the QA queue's database is closed: on PGlite it lives in this process, beside the editors.
  const rounds = scaled(SIZES.rounds, ctx.scale, 20);
  measurements.push(
    ...(await reportConvergence(kind, rounds, (m) => ctx.progress(m), { sessions: SESSIONS })),
  );
  return {
    suite: 'reports',
    target: kind,
    targetDetails: details,
    scale: ctx.scale,
    startedAt: startedAt.toISOString(),
    durationMs: Date.now() - startedAt.getTime(),
    environment: benchEnvironment(),
    sizes: {
      writers: SIZES.writers,
      reviewers: SIZES.reviewers,
      keystrokes: scaled(SIZES.keystrokes, ctx.scale, 20),
      reports,
      queries,
      rounds,
      sessions: SESSIONS,
    },
    measurements,
    notes: [
      `Seeding ${reports} reports by set-based SQL took ${Math.round(seedMs)} ms (not a measurement).`,
      'The validation measurement runs in-process (no database): the same figure is reported for each target.',
      `Convergence: 10 editing connections (the QA claimer) and 2 suggest-only (the writer) on one report in QA through a portal server process, rounds alternating in blocks with @y/websocket-server; editors in the bench process; percentiles over ${SESSIONS} sessions (a fresh portal, reference server and report each) of ${rounds} rounds per side.`,
    ],
  };
}
