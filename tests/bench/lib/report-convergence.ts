/**
 * Issue 17 item 15, the reports suite's convergence row (decision 0067): 12 editors on one half-term
 * report through a real portal server process: 10 editing connections (the QA reviewer who claimed it,
 * who may edit in `in_qa`; each update checked to keep the template sections) and 2 suggest-only
 * connections (the writer, who may only suggest in `in_qa`; each update checked by the baseline rule),
 * beside @y/websocket-server (in memory, no checks) with the same editors on the same text. Each round
 * every editor types one character at once (writers plain, reviewers as an attributed suggestion); the
 * round ends when every editor has every other editor's character (state vectors). The report's
 * text starts as the portal generated it (template sections), on both servers.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebSocket } from 'ws';
import { WebsocketProvider } from 'y-websocket';
import * as Y from 'yjs';
import { createTestDatabase } from '../../../server/src/platform/testing/postgres-test-database.js';
import { api, login, startPortal, type PortalProcess } from '../../support/portal-processes.js';
import { measurement, timing, warmUpRounds } from './measure.js';
import { freePort, percentile, REFERENCE_SERVER, spawnReady, type ReadyProcess } from './processes.js';
import type { Measurement, TargetKind } from './suite.js';
import { closeEditor } from './editors.js';

const RATIO_GOAL = 1.3;
const PASSWORD = 'Bench-Reports-2026!';

interface Editor {
  provider: WebsocketProvider;
  /** Types into the report as a writer (plain) or as a suggestion under this id. */
  suggestionId: string | null;
  paragraph: number;
}

const plusDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

async function must(
  base: string,
  method: string,
  path: string,
  token: string,
  body?: unknown,
): Promise<Record<string, unknown>> {
  let r = await api(base, method, path, token, body);
  // What a command just created reaches the read models a moment later (404 until then).
  for (let i = 0; i < 50 && r.status === 404; i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    r = await api(base, method, path, token, body);
  }
  if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

/** A report in `in_qa` claimed by the QA reviewer, written by the writer: both tokens and the id. */
async function reportInQa(
  base: string,
): Promise<{ reportId: string; writer: { id: string; token: string }; qa: { id: string; token: string } }> {
  const admin = await login(base);
  const stamp = randomUUID().slice(0, 8);
  const person = async (name: string, permissions: string[]) => {
    const email = `${name}.${stamp}@bench.example`;
    const { id } = (await must(base, 'POST', '/users/', admin, {
      email,
      first_name: name,
      last_name: 'Bench',
      user_type: 'teacher',
      password: PASSWORD,
    })) as { id: string };
    await must(base, 'PUT', `/users/${id}/permissions`, admin, { permissions });
    return { id, token: await login(base, email, PASSWORD) };
  };
  const writer = await person('writer', ['USER_IS_TEACHER']);
  const qa = await person('reviewer', ['USER_IS_TEACHER', 'CAN_QA_REVIEW']);
  const { id: school } = (await must(base, 'POST', '/customers/', admin, { name: `Bench ${stamp}` })) as {
    id: string;
  };
  const { id: student } = (await must(base, 'POST', '/users/', admin, {
    email: `student.${stamp}@bench.example`,
    first_name: 'Sam',
    last_name: 'Bench',
    user_type: 'student',
    customer_id: school,
  })) as { id: string };
  const { id: programme } = (await must(base, 'POST', '/programmes/', admin, {
    title: 'Bench reading',
    customer_id: school,
    kind: 'lesson',
    start_date: plusDays(-14),
    timezone: 'Europe/London',
  })) as { id: string };
  await must(base, 'PUT', `/programmes/${programme}/activate`, admin, {});
  const { id: group } = (await must(base, 'POST', '/groups/', admin, {
    programme_id: programme,
    name: 'Bench group',
    teachers: [{ teacher_id: writer.id, role: 'lead' }],
  })) as { id: string };
  await must(base, 'POST', `/groups/${group}/students`, admin, { student_id: student, from: plusDays(-14) });
  await must(base, 'POST', '/enrolments/', admin, {
    student_id: student,
    programme_id: programme,
    start_date: plusDays(-14),
  });
  await must(base, 'POST', '/lessons/', admin, {
    programme_id: programme,
    group_id: group,
    teacher_id: writer.id,
    timezone: 'Europe/London',
    local_date: plusDays(2),
    local_start: '11:00',
    duration_minutes: 45,
  });
  const { id: timeframe } = (await must(base, 'POST', '/report-submission-timeframes/', admin, {
    name: `Bench ${stamp}`,
    academic_year: '2026/27',
    half_term: 'autumn_2',
    period_from: plusDays(-7),
    period_to: plusDays(14),
    opens_at: plusDays(-1),
    submit_by: plusDays(3),
    qa_by: plusDays(4),
    release_at: plusDays(5),
    scope: { customer_ids: [school] },
  })) as { id: string };
  await must(base, 'POST', `/report-submission-timeframes/${timeframe}/generate`, admin, {});
  let reportId = '';
  for (let i = 0; i < 100 && !reportId; i++) {
    const list = (await must(base, 'GET', `/half-term-reports/?timeframe_id=${timeframe}`, admin)) as {
      items: { id: string }[];
    };
    reportId = list.items[0]?.id ?? '';
    if (!reportId) await new Promise((r) => setTimeout(r, 100));
  }
  if (!reportId) throw new Error('the bench report was not generated');
  // The writer writes the comment (a required section) and submits; the reviewer claims it.
  const [typing] = openEditors(`${base.replace(/^http/, 'ws')}/collab`, reportId, 1, writer.token, null);
  try {
    await synced([typing!]);
    const last = paragraphsOf(typing!.doc).at(-1)!;
    last.insert(last.length, [new Y.XmlText('Sam reads every day and explains his choices.')]);
    let hash = '';
    for (let i = 0; i < 100; i++) {
      const detail = (await must(base, 'GET', `/half-term-reports/${reportId}`, writer.token)) as {
        content_hash: string;
        sections: { characters: number }[];
      };
      hash = detail.content_hash;
      if (detail.sections.at(-1)!.characters > 0) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    await must(base, 'POST', `/half-term-reports/${reportId}/submit`, writer.token, { expected_hash: hash });
  } finally {
    closeEditor(typing!);
  }
  await must(base, 'POST', `/half-term-reports/${reportId}/qa/claim`, qa.token);
  // The claim reaches the read models a moment later: until then the reviewer's editors would open
  // read-only (and their first keystroke be refused), the writer's editing.
  for (let i = 0; ; i++) {
    const [q, w] = await Promise.all([
      must(base, 'GET', `/half-term-reports/${reportId}`, qa.token),
      must(base, 'GET', `/half-term-reports/${reportId}`, writer.token),
    ]);
    if (q.allowed_mode === 'edit' && w.allowed_mode === 'suggest') break;
    if (i === 100) throw new Error(`the claim did not reach the read models: ${String(q.allowed_mode)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return { reportId, writer, qa };
}

function paragraphsOf(doc: Y.Doc): Y.XmlElement[] {
  return doc
    .getXmlFragment('default')
    .toArray()
    .filter((n): n is Y.XmlElement => n instanceof Y.XmlElement && n.nodeName === 'paragraph');
}

function openEditors(
  url: string,
  reportId: string | null,
  count: number,
  token: string | null,
  base: Uint8Array | null,
  room = `half-term-report:${reportId}`,
): WebsocketProvider[] {
  return Array.from({ length: count }, () => {
    const doc = new Y.Doc();
    if (base) Y.applyUpdate(doc, base);
    return new WebsocketProvider(url, room, doc, {
      WebSocketPolyfill: WebSocket as unknown as typeof globalThis.WebSocket,
      params: token ? { token } : {},
      disableBc: true,
    });
  });
}

async function synced(providers: WebsocketProvider[]): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!providers.every((p) => p.synced)) {
    if (Date.now() > deadline) throw new Error('report editors did not sync');
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** One round: every editor types one character at once; resolves with the time until all have all. */
async function round(editors: Editor[], index: number, name: string): Promise<number> {
  const docs = editors.map((e) => e.provider.doc);
  const t0 = performance.now();
  editors.forEach((e, i) => {
    const paragraph = paragraphsOf(docs[i]!)[e.paragraph]!;
    let text = paragraph.firstChild;
    if (!(text instanceof Y.XmlText)) {
      text = new Y.XmlText();
      paragraph.insert(0, [text]);
    }
    const t = text;
    if (e.suggestionId) t.insert(t.length, 'x', { insertion: { id: e.suggestionId } });
    else t.insert(t.length, index % 7 === 6 ? ' ' : 'a', {});
  });
  const expected = docs.map((d) => [d.clientID, Y.getState(d.store, d.clientID)] as const);
  const has = (d: Y.Doc) => expected.every(([client, clock]) => Y.getState(d.store, client) >= clock);
  const reached = docs.map((d) => (has(d) ? t0 : 0));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      cleanup();
      reject(new Error(`${name}: round ${index} did not converge`));
    }, 15_000);
    const handlers = docs.map((d, i) => () => {
      if (reached[i] === 0 && has(d)) reached[i] = performance.now();
      if (reached.every((t) => t > 0)) {
        cleanup();
        resolve();
      }
    });
    const cleanup = () => {
      clearTimeout(timer);
      docs.forEach((d, i) => d.off('update', handlers[i]!));
    };
    docs.forEach((d, i) => d.on('update', handlers[i]!));
    handlers[0]!();
  });
  return Math.max(...reached) - t0;
}

/**
 * Convergence p50/p99 of 10 editing and 2 suggesting connections on one report, portal vs
 * @y/websocket-server: `sessions` sessions (each a fresh portal, reference server and report) of
 * `rounds` rounds per side in alternating blocks, the percentiles taken over the rounds of all
 * sessions (decision 0085).
 */
export async function reportConvergence(
  target: TargetKind,
  rounds: number,
  progress: (m: string) => void,
  { sessions = 1, warmUps = warmUpRounds(rounds) }: { sessions?: number; warmUps?: number } = {},
): Promise<Measurement[]> {
  const latencies = { subject: [] as number[], reference: [] as number[] };
  let closed = 0;
  for (let i = 0; i < sessions; i++) {
    const tell = sessions > 1 ? (m: string) => progress(`session ${i + 1}/${sessions}, ${m}`) : progress;
    const one = await convergenceSession(target, rounds, warmUps, tell);
    latencies.subject.push(...one.subject);
    latencies.reference.push(...one.reference);
    closed += one.closed;
  }
  const over = sessions > 1 ? `${sessions} sessions × ${rounds}` : `${rounds}`;
  const out: Measurement[] = [];
  for (const q of [50, 99]) {
    const s = percentile(latencies.subject, q);
    const b = percentile(latencies.reference, q);
    const m = measurement({
      key: `report-convergence-p${q}`,
      label: `12 editors on one report, convergence p${q}`,
      unit: 'ms (lower is better)',
      subject: {
        ...timing(latencies.subject.length, s),
        rate: Math.round(s * 10) / 10,
        how: `portal /collab, half-term-report in QA: 10 editing connections (the claimer; section check) + 2 suggest-only (the writer; baseline check), each types 1 character at once, until all 12 have all; p${q} over ${over} rounds, each session after ${warmUps} untimed`,
      },
      baseline: {
        ...timing(latencies.reference.length, b),
        rate: Math.round(b * 10) / 10,
        how: '@y/websocket-server 0.1.1 (in memory, no auth, no checks, no persistence), the same 12 editors, text and rounds',
      },
    });
    if (q === 99) {
      m.goals.push({ goal: `≤ ${RATIO_GOAL}× @y/websocket-server`, pass: s <= RATIO_GOAL * b });
      m.goals.push({ goal: 'no editor refused or closed', pass: closed === 0 });
    }
    out.push(m);
  }
  return out;
}

/** One session: a portal and a reference server, 12 editors on each; the rounds' latencies per side. */
async function convergenceSession(
  target: TargetKind,
  rounds: number,
  warmUps: number,
  progress: (m: string) => void,
): Promise<{ subject: number[]; reference: number[]; closed: number }> {
  if (!REFERENCE_SERVER) throw new Error('@y/websocket-server is not installed (npm install in tests/)');
  let portal: PortalProcess | null = null;
  let reference: ReadyProcess | null = null;
  let cleanup: () => Promise<void> = async () => {};
  const all: WebsocketProvider[] = [];
  try {
    let env: Record<string, string>;
    if (target === 'postgres') {
      const db = await createTestDatabase('portal_bench_reports');
      env = { DATABASE_URL: db.url };
      cleanup = () => db.drop();
    } else {
      const dir = await mkdtemp(join(tmpdir(), 'portal-bench-reports-'));
      env = { DATA_DIR: dir };
      cleanup = () => rm(dir, { recursive: true, force: true });
    }
    progress(`${target}: starting the portal and @y/websocket-server; a report in QA`);
    portal = await startPortal({ ...env, COLLAB_RATE_BURST: '100000', COLLAB_RATE_PER_SECOND: '100000' });
    const port = await freePort();
    reference = await spawnReady([REFERENCE_SERVER], { HOST: '127.0.0.1', PORT: String(port) }, /running at/);
    const { reportId, writer, qa } = await reportInQa(portal.url);
    const url = `${portal.url.replace(/^http/, 'ws')}/collab`;
    const editing = openEditors(url, reportId, 10, qa.token, null);
    const suggesting = openEditors(url, reportId, 2, writer.token, null);
    all.push(...editing, ...suggesting);
    await synced(all);
    const base = Y.encodeStateAsUpdate(editing[0]!.doc);
    const paragraphs = paragraphsOf(editing[0]!.doc).length;
    const refUrl = `ws://127.0.0.1:${port}`;
    const refEditing = openEditors(refUrl, null, 10, null, base, `bench-${reportId}`);
    const refSuggesting = openEditors(refUrl, null, 2, null, base, `bench-${reportId}`);
    all.push(...refEditing, ...refSuggesting);
    await synced(all);
    const sides = {
      subject: [...editing, ...suggesting],
      reference: [...refEditing, ...refSuggesting],
    };
    const editorsOf = (providers: WebsocketProvider[]): Editor[] =>
      providers.map((provider, i) => ({
        provider,
        suggestionId: i >= 10 ? `u${writer.id}.bench${i}.1` : null,
        paragraph: i >= 10 ? paragraphs - 1 : i % paragraphs,
      }));
    const editors = { subject: editorsOf(sides.subject), reference: editorsOf(sides.reference) };
    const latencies = { subject: [] as number[], reference: [] as number[] };
    const blocks = Math.min(10, rounds);
    const perBlock = Math.ceil(rounds / blocks);
    const typed = { subject: 0, reference: 0 };
    // Untimed warm-up rounds on each side first: the portal's checks are compiled by the JIT while
    // they run, and the first rounds measured that instead of the steady state.
    progress(`${target}: ${warmUps} untimed warm-up rounds per side`);
    for (const side of ['subject', 'reference'] as const)
      for (let i = 0; i < warmUps; i++) await round(editors[side], typed[side]++, side);
    progress(`${target}: 12 editors (10 editing, 2 suggesting) × ${rounds} rounds per side`);
    // PORTAL_PROFILE_ON_SIGNAL (tests/support/portal-process.ts): profile the measured rounds only.
    const profiling = !!process.env.PORTAL_PROFILE_ON_SIGNAL;
    if (profiling) process.kill(portal.pid, 'SIGWINCH');
    for (let block = 0; block < blocks; block++) {
      const order =
        block % 2 === 0 ? (['subject', 'reference'] as const) : (['reference', 'subject'] as const);
      for (const side of order)
        for (let i = 0; i < perBlock && latencies[side].length < rounds; i++)
          latencies[side].push(await round(editors[side], typed[side]++, side));
    }
    if (profiling) {
      process.kill(portal.pid, 'SIGWINCH');
      await new Promise((r) => setTimeout(r, 2000)); // the profile is written before the portal stops
    }
    return { ...latencies, closed: sides.subject.filter((p) => !p.wsconnected).length };
  } finally {
    all.forEach(closeEditor);
    await portal?.stop();
    await reference?.stop();
    await cleanup();
  }
}
