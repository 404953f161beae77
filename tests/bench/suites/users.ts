/**
 * Users list benchmark: GET /api/v1/users/ (filter + sort + page) through the real HTTP API of a
 * running portal, against the same two SQL statements (count + page) run directly on the same users
 * read model table, on PGlite and on PostgreSQL. tests/bench/README.md ("Suite `users`") explains it.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { pino } from 'pino';
import type { RunningApp } from '../../../server/src/app.js';
import type { SqlClient } from '../../../server/src/platform/sql/sql-client.js';
import { measurement, scaled, timing, benchEnvironment } from '../lib/measure.js';
import type { BenchReport, BenchSuite, Measurement, SuiteContext, TargetKind } from '../lib/suite.js';
import { BENCH_POSTGRES_ADMIN_URL } from '../lib/targets.js';

/** Sizes at BENCH_SCALE=1. */
const SIZES = { users: 100_000, requests: 300, warmUp: 30, customers: 200 };
const GOALS = { p99Ms: 30, maxSlowdown: 2 };
const ADMIN = 'bench.admin@example.com';
const PASSWORD = 'correct horse battery staple';
const PAGE_SIZE = 50;
/** USER_LIST_COUNT_UP_TO (server/src/identity/lists/user-list-query.ts): lists stop counting past it. */
const COUNT_UP_TO = 10_000;
/** The compiled server, relative to this file. */
const SERVER_DIST: string = '../../../server/dist';

const FIRST = [
  'Olivia',
  'Amelia',
  'Isla',
  'Ava',
  'Mia',
  'Ivy',
  'Lily',
  'Isabella',
  'Rosie',
  'Sophia',
  'Grace',
  'Freya',
  'Willow',
  'Florence',
  'Emily',
  'Ella',
  'Poppy',
  'Evie',
  'Elsie',
  'Charlotte',
  'Noah',
  'Oliver',
  'George',
  'Arthur',
  'Muhammad',
  'Leo',
  'Harry',
  'Oscar',
  'Archie',
  'Henry',
  'Theodore',
  'Freddie',
  'Jack',
  'Charlie',
  'Theo',
  'Alfie',
  'Jacob',
  'Thomas',
  'Finley',
  'Arlo',
  'Lucas',
  'Tommy',
  'Isaac',
  'Albie',
  'James',
  'Edward',
  'Ezra',
  'Mohammed',
  'Luca',
  'Max',
];
const LAST = [
  'Smith',
  'Jones',
  'Taylor',
  'Brown',
  'Williams',
  'Wilson',
  'Johnson',
  'Davies',
  'Patel',
  'Robinson',
  'Wright',
  'Thompson',
  'Evans',
  'Walker',
  'White',
  'Roberts',
  'Green',
  'Hall',
  'Thomas',
  'Clarke',
  'Jackson',
  'Wood',
  'Harris',
  'Edwards',
  'Turner',
  'Martin',
  'Cooper',
  'Hill',
  'Ward',
  'Hughes',
  'Moore',
  'Clark',
  'King',
  'Harrison',
  'Lewis',
  'Baker',
  'Lee',
  'Allen',
  'Morris',
  'Khan',
  'Scott',
  'Watson',
  'Davis',
  'Parker',
  'James',
  'Bennett',
  'Young',
  'Phillips',
  'Richardson',
  'Mitchell',
];

export const suite: BenchSuite = {
  name: 'users',
  description:
    'GET /api/v1/users/ (filter + sort + page) over HTTP on 100,000 users vs the same SQL on the read model',
  async run(ctx: SuiteContext) {
    for (const target of ctx.targets) await ctx.report(await runOn(target, ctx));
  },
};

/** One kind of list request: its query string and the equivalent WHERE / ORDER BY for the baseline. */
interface QueryKind {
  key: string;
  label: string;
  /** Query string for request i. */
  query(i: number): string;
  /** The same filter as SQL, for request i. */
  sql(i: number): { where: string; params: unknown[]; orderBy: string; offset: number };
  /** Asks for the exact count (`exact_total=true`), as every list did before decision 0069. */
  exact?: boolean;
}

/** A valid (version 4 shaped) UUID per customer number; the seeding SQL builds the same. */
const customerId = (n: number) => `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;

const QUERY_KINDS: QueryKind[] = [
  {
    key: 'active-by-name',
    label: 'status=active, sort full_name, pages 1-20',
    query: (i) => `status=active&sort_by=full_name&page=${1 + (i % 20)}`,
    sql: (i) => ({
      where: `status = ANY($1::text[])`,
      params: [['active']],
      orderBy: 'full_name ASC, id ASC',
      offset: (i % 20) * PAGE_SIZE,
    }),
  },
  {
    key: 'active-by-name-exact',
    label: 'status=active, sort full_name, pages 1-20, exact_total=true (the count before decision 0069)',
    query: (i) => `status=active&sort_by=full_name&page=${1 + (i % 20)}&exact_total=true`,
    sql: (i) => ({
      where: `status = ANY($1::text[])`,
      params: [['active']],
      orderBy: 'full_name ASC, id ASC',
      offset: (i % 20) * PAGE_SIZE,
    }),
    exact: true,
  },
  {
    key: 'active-text-newest',
    label: 'status=active, query=<surname>, sort -created_at, pages 1-3',
    query: (i) =>
      `status=active&query=${LAST[i % LAST.length]!.toLowerCase()}&sort_by=-created_at&page=${1 + (i % 3)}`,
    sql: (i) => {
      const pattern = `%${LAST[i % LAST.length]!.toLowerCase()}%`;
      return {
        where: `search_text LIKE $1 AND status = ANY($2::text[])`,
        params: [pattern, ['active']],
        orderBy: 'created_at DESC, id ASC',
        offset: (i % 3) * PAGE_SIZE,
      };
    },
  },
  {
    key: 'customer-students',
    label: 'type=students, customer_id, sort last_name',
    query: (i) => `type=students&customer_id=${customerId(i % SIZES.customers)}&sort_by=last_name`,
    sql: (i) => ({
      where: `user_type = ANY($1::text[]) AND customer_id = $2`,
      params: [['student'], customerId(i % SIZES.customers)],
      orderBy: 'last_name ASC, id ASC',
      offset: 0,
    }),
  },
  {
    key: 'login-lookup',
    label: 'query=<login fragment>, sort full_name',
    query: (i) => `query=user${(i * 7919) % 100_000}%40&sort_by=full_name`,
    sql: (i) => ({
      where: `search_text LIKE $1`,
      params: [`%user${(i * 7919) % 100_000}@%`],
      orderBy: 'full_name ASC, id ASC',
      offset: 0,
    }),
  },
];

async function runOn(kind: TargetKind, ctx: SuiteContext): Promise<BenchReport> {
  const sizes = {
    users: scaled(SIZES.users, ctx.scale, 1000),
    requests: Number(process.env.BENCH_REQUESTS ?? 0) || scaled(SIZES.requests, ctx.scale, 20),
    warmUp: SIZES.warmUp,
  };
  const progress = (m: string) => ctx.progress(`${kind}: ${m}`);
  const startedAt = new Date();
  const target = await openTarget(kind);
  let running: RunningApp | null = null;
  try {
    // The compiled server (`npm run bench` builds it): Nest's dependency injection needs the decorator
    // metadata that tsc emits and tsx (esbuild) does not.
    const { startApp } = (await import(
      `${SERVER_DIST}/app.js`
    )) as typeof import('../../../server/src/app.js');
    const { loadConfig } = (await import(
      `${SERVER_DIST}/platform/config/config.js`
    )) as typeof import('../../../server/src/platform/config/config.js');
    running = await startApp(
      loadConfig({
        PORT: '0',
        HOST: '127.0.0.1',
        FIRST_SUPERUSER: ADMIN,
        FIRST_SUPERUSER_PASSWORD: PASSWORD,
        ...target.env,
      }),
      pino({ level: 'silent' }),
    );
    const sql = running.infra.sql;
    progress(`seeding ${sizes.users} users into the users read model`);
    await seedUsers(sql, sizes.users);
    const token = await login(running.url);
    const measurements: Measurement[] = [];
    for (const q of QUERY_KINDS) {
      progress(`${q.label}: ${sizes.requests} requests per side`);
      measurements.push(await benchQuery(running.url, token, sql, q, sizes.requests, sizes.warmUp));
    }
    return {
      suite: 'users',
      target: kind,
      targetDetails: target.details,
      scale: ctx.scale,
      startedAt: startedAt.toISOString(),
      durationMs: Date.now() - startedAt.getTime(),
      environment: benchEnvironment(),
      sizes: { users: sizes.users + 1, requests: sizes.requests, warmUp: sizes.warmUp, pageSize: PAGE_SIZE },
      measurements,
      notes: [
        'one sequential client; subject (HTTP: auth guard, actor lookup, validation, read model, JSON) and ' +
          'baseline (the count + page SELECTs on the same SqlClient) alternate request by request (AB, BA, ...)',
        `users written straight into rm_users (${sizes.users} rows: 70% students, 20% teachers, 5% partners, ` +
          '5% admins; 90% with access, 10% of those blocked), then VACUUM ANALYZE',
      ],
    };
  } finally {
    await running?.close().catch(() => {});
    await target.dispose();
  }
}

async function benchQuery(
  base: string,
  token: string,
  sql: SqlClient,
  q: QueryKind,
  requests: number,
  warmUp: number,
): Promise<Measurement> {
  const subject = async (i: number) => {
    const started = process.hrtime.bigint();
    const res = await fetch(`${base}/api/v1/users/?${q.query(i)}`, {
      headers: { RequestVerificationToken: token },
    });
    const body = (await res.json()) as { items: unknown[]; total: number };
    if (res.status !== 200)
      throw new Error(`GET /users/?${q.query(i)}: ${res.status} ${JSON.stringify(body)}`);
    return { ms: Number(process.hrtime.bigint() - started) / 1e6, total: body.total };
  };
  const baseline = async (i: number) => {
    const { where, params, orderBy, offset } = q.sql(i);
    const started = process.hrtime.bigint();
    // The same bounded count as the API (decision 0069): up to the bound or the end of the page.
    const bound = Math.max(COUNT_UP_TO, offset + PAGE_SIZE);
    const count = await sql.query<{ total: string }>(
      q.exact
        ? `SELECT count(*)::text AS total FROM rm_users WHERE ${where}`
        : `SELECT count(*)::text AS total FROM (SELECT 1 FROM rm_users WHERE ${where} LIMIT ${bound + 1}) counted`,
      params,
    );
    await sql.query(
      `SELECT rm_users.*, (SELECT c.name FROM rm_customers c WHERE c.id = rm_users.customer_id) AS customer_name
         FROM rm_users WHERE ${where} ORDER BY ${orderBy} LIMIT ${PAGE_SIZE} OFFSET ${offset}`,
      params,
    );
    return { ms: Number(process.hrtime.bigint() - started) / 1e6, total: Number(count.rows[0]?.total) };
  };
  if (process.env.BENCH_EXPLAIN) {
    // BENCH_EXPLAIN=1: the baseline's plans, to see which indexes the queries use.
    const { where, params, orderBy, offset } = q.sql(1);
    const indexes = await sql.query<{ indexname: string }>(
      `SELECT indexname FROM pg_indexes WHERE tablename = 'rm_users' ORDER BY 1`,
    );
    process.stderr.write(`rm_users indexes: ${indexes.rows.map((r) => r.indexname).join(', ')}\n`);
    for (const statement of [
      `SELECT count(*) FROM rm_users WHERE ${where}`,
      `SELECT * FROM rm_users WHERE ${where} ORDER BY ${orderBy} LIMIT ${PAGE_SIZE} OFFSET ${offset}`,
    ]) {
      const { rows } = await sql.query<Record<string, string>>(`EXPLAIN ANALYZE ${statement}`, params);
      process.stderr.write(`${q.key}: ${statement}\n${rows.map((r) => Object.values(r)[0]).join('\n')}\n`);
    }
  }
  for (let i = 0; i < warmUp; i++) {
    await subject(i);
    await baseline(i);
  }
  const subjectMs: number[] = [];
  const baselineMs: number[] = [];
  for (let i = 0; i < requests; i++) {
    if (i % 2 === 0) {
      const s = await subject(i);
      const b = await baseline(i);
      if (s.total !== b.total) throw new Error(`${q.key}: API total ${s.total} ≠ SQL total ${b.total}`);
      subjectMs.push(s.ms);
      baselineMs.push(b.ms);
    } else {
      baselineMs.push((await baseline(i)).ms);
      subjectMs.push((await subject(i)).ms);
    }
  }
  const s = latency(subjectMs);
  const b = latency(baselineMs);
  const m = measurement({
    key: q.key,
    label: q.label,
    unit: 'req/s',
    subject: {
      ...timing(requests, sum(subjectMs)),
      p50Ms: s.p50,
      p99Ms: s.p99,
      how: `GET /api/v1/users/?${q.query(0)} (page size ${PAGE_SIZE}) over HTTP`,
    },
    baseline: {
      ...timing(requests, sum(baselineMs)),
      p50Ms: b.p50,
      p99Ms: b.p99,
      how: `${q.exact ? 'SELECT count(*)' : `SELECT count(*) of at most ${COUNT_UP_TO} + 1 rows`} + SELECT page with the same WHERE / ORDER BY / LIMIT on rm_users`,
    },
  });
  m.goals.push(
    { goal: `p99 < ${GOALS.p99Ms} ms`, pass: s.p99 < GOALS.p99Ms },
    { goal: `p99 ≤ ${GOALS.maxSlowdown}× baseline p99`, pass: s.p99 <= GOALS.maxSlowdown * b.p99 },
  );
  return m;
}

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

function latency(samples: number[]): { p50: number; p99: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)] ?? 0;
  return { p50: Math.round(at(0.5) * 100) / 100, p99: Math.round(at(0.99) * 100) / 100 };
}

/** Rows straight into the users read model (the bench measures the list query, not the projection). */
async function seedUsers(sql: SqlClient, count: number): Promise<void> {
  const chunk = 10_000;
  const first = `ARRAY[${FIRST.map((n) => `'${n}'`).join(',')}]`;
  const last = `ARRAY[${LAST.map((n) => `'${n}'`).join(',')}]`;
  for (let from = 0; from < count; from += chunk) {
    const to = Math.min(count, from + chunk) - 1;
    await sql.query(
      `INSERT INTO rm_users (id, login, email, first_name, last_name, user_type, type_label, permissions,
                             customer_id, customer_type, has_access, is_blocked, created_at, updated_at, version)
       SELECT md5('bench-user-' || i)::uuid, 'user' || i || '@bench.example', 'user' || i || '@bench.example',
              (${first})[1 + (i * 7) % ${FIRST.length}], (${last})[1 + (i * 13) % ${LAST.length}],
              t.type, t.label, jsonb_build_array(t.marker),
              CASE WHEN t.type IN ('student', 'partner')
                   THEN ('00000000-0000-4000-8000-' || lpad(to_hex(i % ${SIZES.customers}), 12, '0'))::uuid END,
              CASE WHEN t.type = 'partner' THEN 'admin' END,
              i % 10 <> 0, i % 10 = 1,
              now() - make_interval(mins => i), now() - make_interval(mins => i), 1
         FROM generate_series($1::int, $2::int) AS i
         CROSS JOIN LATERAL (SELECT CASE WHEN i % 20 < 14 THEN 'student' WHEN i % 20 < 18 THEN 'teacher'
                                         WHEN i % 20 < 19 THEN 'partner' ELSE 'super_admin' END AS type) k
         CROSS JOIN LATERAL (SELECT k.type,
                                    CASE k.type WHEN 'student' THEN 'Student' WHEN 'teacher' THEN 'Teacher'
                                                WHEN 'partner' THEN 'Customer' ELSE 'Administrator' END AS label,
                                    CASE k.type WHEN 'student' THEN 'USER_IS_STUDENT' WHEN 'teacher' THEN 'USER_IS_TEACHER'
                                                WHEN 'partner' THEN 'USER_IS_PARTNER' ELSE 'USER_IS_ADMIN' END AS marker) t`,
      [from, to],
    );
  }
  // As autovacuum would: statistics, and the visibility map that index-only scans (counts) need.
  await sql.exec('VACUUM ANALYZE rm_users');
}

async function login(base: string): Promise<string> {
  const res = await fetch(`${base}/api/v1/login/access-token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ username: ADMIN, password: PASSWORD }),
  });
  if (res.status !== 200) throw new Error(`login: ${res.status}`);
  return ((await res.json()) as { access_token: string }).access_token;
}

/** A fresh database for the portal: a PGlite directory or a new PostgreSQL database, removed after. */
async function openTarget(
  kind: TargetKind,
): Promise<{ env: Record<string, string>; details: string; dispose: () => Promise<void> }> {
  if (kind === 'pglite') {
    const dir = await mkdtemp(join(tmpdir(), 'portal-bench-users-'));
    return {
      env: { DATA_DIR: dir },
      details: `PGlite 0.5.16 in the portal process, data directory ${dir}`,
      dispose: () => rm(dir, { recursive: true, force: true }),
    };
  }
  const name = `portal_bench_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: BENCH_POSTGRES_ADMIN_URL });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE ${pg.escapeIdentifier(name)}`);
  const url = new URL(BENCH_POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    env: { DATABASE_URL: url.toString() },
    details: `PostgreSQL at ${url.host}, database ${name}, the portal's own pool`,
    dispose: () => admin(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`),
  };
}
