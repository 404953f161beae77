/**
 * Lesson planner benchmark (decision 0053): 1,000 weekly schedules (Mon + Thu) planned 26 weeks ahead,
 * i.e. 52,000 lessons. Measured: the pure planner (occurrences with Temporal, deterministic ids), the
 * planner writing one `LessonPlanned` stream per lesson through the EventStore port, beside a raw-SQL
 * baseline inserting the same rows one statement each, and the second, idempotent pass (planSteps
 * against what exists: nothing to write). Not measured: the runner's clash check per occurrence (a read
 * of rm_lessons), which the running portal adds.
 */
import { randomUUID } from 'node:crypto';
import { PostgresEventStore } from '../../../server/src/platform/event-store/postgres/postgres-event-store.js';
import {
  meetingIdOf,
  occurrences,
  planningWindow,
  planSteps,
  type Occurrence,
  type PlannableSchedule,
} from '../../../server/src/lessons/planner.js';
import {
  OCCUPYING_STATUSES,
  availabilityOfUsers,
  availabilityProjection,
  gridTeachers,
  groupsProjection,
  lessonStream,
  lessonsBetween,
  lessonsOfTeachers,
  lessonsProjection,
  programmesProjection,
  usersProjection,
} from '../../../projections/src/index.js';
import { teacherWeek } from '../../../server/src/lessons/teacher-grid.js';
import type { SqlClient } from '../../../server/src/platform/sql/sql-client.js';
import { measurement, scaled, timed, timing, benchEnvironment } from '../lib/measure.js';
import type { BenchReport, BenchSuite, Measurement, SuiteContext, TargetKind } from '../lib/suite.js';
import { openBenchDatabase } from '../lib/targets.js';

const SIZES = { schedules: 1_000, weeks: 26, weekLessons: 100_000, teachers: 400, weekRequests: 200 };
const WEEK_GOALS = { p99Ms: 30 };
/** The weeks the 100k read-model lessons are spread over (from TODAY's Monday). */
const SEEDED_WEEKS = 50;

/** `timed` for synchronous work (the pure planner). */
function timedSync<T>(fn: () => T): { result: T; ms: number } {
  const start = performance.now();
  const result = fn();
  return { result, ms: performance.now() - start };
}
const TODAY = '2026-09-07';

const RAW_SCHEMA = `
  CREATE TABLE IF NOT EXISTS raw_lessons (
    id uuid PRIMARY KEY, schedule_id uuid NOT NULL, teacher_id uuid NOT NULL, local_date text NOT NULL,
    local_start text NOT NULL, starts_at timestamptz NOT NULL, ends_at timestamptz NOT NULL, data jsonb NOT NULL
  )`;

export const suite: BenchSuite = {
  name: 'lessons',
  description: 'Lesson planner: 1,000 weekly schedules × 26 weeks as lesson streams vs raw SQL inserts',
  async run(ctx: SuiteContext) {
    for (const target of ctx.targets) await ctx.report(await runOn(target, ctx));
  },
};

function schedulesOf(count: number): PlannableSchedule[] {
  return Array.from({ length: count }, (_, i) => ({
    id: randomUUID(),
    timezone: i % 2 ? 'Europe/London' : 'Europe/Madrid',
    weekdays: [1, 4],
    localStart: `${String(8 + (i % 10)).padStart(2, '0')}:30`,
    durationMinutes: 60,
    intervalWeeks: 1,
    validFrom: TODAY,
    validUntil: null,
    exceptions: [],
  }));
}

async function runOn(kind: TargetKind, ctx: SuiteContext): Promise<BenchReport> {
  const progress = (m: string) => ctx.progress(`${kind}: ${m}`);
  const schedules = schedulesOf(scaled(SIZES.schedules, ctx.scale));
  const startedAt = new Date();
  const db = await openBenchDatabase(kind, { poolSize: 4 });
  const measurements: Measurement[] = [];
  try {
    const store = await PostgresEventStore.create(db.sql);
    await db.sql.exec(RAW_SCHEMA);
    const teacherId = randomUUID();
    const window = planningWindow({ validFrom: TODAY, validUntil: null }, TODAY, null, SIZES.weeks)!;

    progress(`planning ${schedules.length} schedules (pure)`);
    const planned = timedSync(() => schedules.map((s) => occurrences(s, window)));
    const plans = planned.result;
    const lessons = plans.reduce((n, p) => n + p.length, 0);
    measurements.push(
      measurement({
        key: 'plan-pure',
        label: `occurrences of ${schedules.length} schedules × ${SIZES.weeks} weeks`,
        unit: 'lessons/s',
        subject: { ...timing(lessons, planned.ms), how: 'planner.occurrences (Temporal, uuid v5 ids)' },
      }),
    );

    const event = (s: PlannableSchedule, o: Occurrence) => ({
      id: randomUUID(),
      type: 'LessonPlanned',
      data: {
        lessonId: o.lessonId,
        customerId: teacherId,
        teacherId,
        coverTeacherId: null,
        kind: 'lesson',
        programmeId: teacherId,
        groupId: teacherId,
        scheduleId: s.id,
        meetingId: meetingIdOf(o.lessonId),
        timezone: s.timezone,
        localDate: o.localDate,
        localStart: o.localStart,
        durationMinutes: s.durationMinutes,
        startsAt: o.startsAt,
        endsAt: o.endsAt,
      },
    });

    progress(`writing ${lessons} lesson streams through the EventStore port`);
    const port = await timed(async () => {
      for (const [i, s] of schedules.entries())
        for (const o of plans[i]!)
          await store.append(lessonStream(o.lessonId), [event(s, o)], { expectedRevision: 'no_stream' });
    });
    progress(`inserting ${lessons} rows with raw SQL`);
    const raw = await timed(async () => {
      for (const [i, s] of schedules.entries())
        for (const o of plans[i]!)
          await db.sql.query(
            `INSERT INTO raw_lessons (id, schedule_id, teacher_id, local_date, local_start, starts_at, ends_at, data)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb)`,
            [
              o.lessonId,
              s.id,
              teacherId,
              o.localDate,
              o.localStart,
              o.startsAt,
              o.endsAt,
              JSON.stringify(event(s, o).data),
            ],
          );
    });
    measurements.push(
      measurement({
        key: 'plan-write',
        label: `materialise ${lessons} lessons (one stream each)`,
        unit: 'lessons/s',
        subject: {
          ...timing(lessons, port.ms),
          how: 'EventStore.append(lesson-{id}, [LessonPlanned], no_stream)',
        },
        baseline: { ...timing(lessons, raw.ms), how: 'INSERT one row per lesson' },
      }),
    );

    progress('second pass: planSteps against the lessons that exist');
    const again = timedSync(() => {
      let steps = 0;
      for (const [i, s] of schedules.entries()) {
        const existing = plans[i]!.map((o) => ({
          id: o.lessonId,
          status: 'planned',
          detached: false,
          localDate: o.localDate,
          teacherId,
          startsAt: o.startsAt,
          durationMinutes: s.durationMinutes,
          timezone: s.timezone,
        }));
        steps += planSteps(occurrences(s, window), existing, { teacherId, ...s }, window).length;
      }
      return steps;
    });
    measurements.push(
      measurement({
        key: 'plan-again',
        label: `re-plan ${schedules.length} schedules (idempotent: ${again.result} steps)`,
        unit: 'lessons/s',
        subject: { ...timing(lessons, again.ms), how: 'occurrences + planSteps over existing lessons' },
        goals: [{ goal: 'second pass writes nothing', pass: again.result === 0 }],
      }),
    );

    progress(`seeding ${scaled(SIZES.weekLessons, ctx.scale)} lessons into the read models`);
    measurements.push(...(await weekQueries(db.sql, ctx, progress)));

    return {
      suite: 'lessons',
      target: kind,
      targetDetails: db.details,
      scale: ctx.scale,
      startedAt: startedAt.toISOString(),
      durationMs: Date.now() - startedAt.getTime(),
      environment: benchEnvironment(),
      sizes: { schedules: schedules.length, weeks: SIZES.weeks, lessons },
      measurements,
      notes: [
        'The runner also reads rm_lessons once per new occurrence for the clash rule; not measured here.',
        'Week queries: the portal’s query functions (the SQL the API runs, count included) against the same rows read by hand-written SQL, without HTTP.',
      ],
    };
  } finally {
    await db.dispose();
  }
}

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

function latency(samples: number[]): { p50: number; p99: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)] ?? 0;
  return { p50: Math.round(at(0.5) * 100) / 100, p99: Math.round(at(0.99) * 100) / 100 };
}

const msSince = (started: bigint) => Number(process.hrtime.bigint() - started) / 1e6;

/** Teachers, programmes, groups, availability and lessons straight into the read models (set-based). */
async function seedReadModels(sql: SqlClient, lessons: number, teachers: number): Promise<void> {
  for (const p of [
    usersProjection,
    programmesProjection,
    groupsProjection,
    lessonsProjection,
    availabilityProjection,
  ])
    for (const statement of p.schema) await sql.exec(statement);
  const teacherId = `md5('bench-teacher-' || i)::uuid`;
  await sql.query(
    `INSERT INTO rm_users (id, login, email, first_name, last_name, user_type, type_label, permissions,
                           has_access, is_blocked, created_at, updated_at, version)
     SELECT ${teacherId}, 'teacher' || i || '@bench.example', 'teacher' || i || '@bench.example',
            'Teacher', lpad(i::text, 5, '0'), 'teacher', 'Teacher', '["USER_IS_TEACHER"]'::jsonb,
            true, false, now(), now(), 1
       FROM generate_series(0, $1::int - 1) AS i`,
    [teachers],
  );
  await sql.query(
    `INSERT INTO rm_user_availability (user_id, type, week, availabilities, updated_at, version)
     SELECT ${teacherId}, 'default', '',
            '[{"dayOfWeek":0,"startMinute":480,"endMinute":1080},{"dayOfWeek":1,"startMinute":480,"endMinute":1080},
              {"dayOfWeek":2,"startMinute":480,"endMinute":1080},{"dayOfWeek":3,"startMinute":480,"endMinute":1080},
              {"dayOfWeek":4,"startMinute":480,"endMinute":1080}]'::jsonb, now(), 1
       FROM generate_series(0, $1::int - 1) AS i`,
    [teachers],
  );
  await sql.query(
    `INSERT INTO rm_programmes (id, customer_id, kind, title, start_date, timezone, status, created_at, updated_at, version)
     SELECT md5('bench-programme-' || i)::uuid, md5('bench-customer-' || (i % 20))::uuid, 'lesson',
            'Programme ' || i, '2026-09-01', 'Europe/London', 'active', now(), now(), 1
       FROM generate_series(0, $1::int - 1) AS i`,
    [teachers],
  );
  await sql.query(
    `INSERT INTO rm_groups (id, programme_id, name, created_at, updated_at, version)
     SELECT md5('bench-group-' || i)::uuid, md5('bench-programme-' || i)::uuid, 'Group ' || i, now(), now(), 1
       FROM generate_series(0, $1::int - 1) AS i`,
    [teachers],
  );
  // Lesson n: teacher n % teachers, week n / (teachers × 5) … spread Monday–Friday at 09:00–16:00 London.
  const chunk = 20_000;
  for (let from = 0; from < lessons; from += chunk) {
    const to = Math.min(lessons, from + chunk) - 1;
    await sql.query(
      `INSERT INTO rm_lessons (id, kind, programme_id, group_id, customer_id, teacher_id, starts_at, ends_at,
                               duration_minutes, timezone, local_date, local_start, status, created_at, updated_at, version)
       SELECT md5('bench-lesson-' || n)::uuid, 'lesson', md5('bench-programme-' || t)::uuid, md5('bench-group-' || t)::uuid,
              md5('bench-customer-' || (t % 20))::uuid, md5('bench-teacher-' || t)::uuid,
              s.at, s.at + interval '60 minutes', 60, 'Europe/London', to_char(s.at, 'YYYY-MM-DD'),
              to_char(s.at, 'HH24:MI'), CASE WHEN n % 17 = 0 THEN 'cancelled' ELSE 'planned' END, now(), now(), 1
         FROM generate_series($1::int, $2::int) AS n
        CROSS JOIN LATERAL (SELECT n % $3::int AS t, (n / $3::int) AS k) x
        CROSS JOIN LATERAL (SELECT ('${TODAY}'::date + ((k / 5) % ${SEEDED_WEEKS}) * 7 + (k % 5))::timestamp AT TIME ZONE 'Europe/London'
                                   + make_interval(hours => 9 + (t % 7)) AS at) s`,
      [from, to, teachers],
    );
  }
  await sql.exec('ANALYZE');
}

/** A teacher's week and the teachers' grid at 100k lessons, each beside hand-written SQL. */
async function weekQueries(
  sql: SqlClient,
  ctx: SuiteContext,
  progress: (m: string) => void,
): Promise<Measurement[]> {
  const lessons = scaled(SIZES.weekLessons, ctx.scale);
  const teachers = scaled(SIZES.teachers, ctx.scale, 10);
  const requests = scaled(SIZES.weekRequests, Math.max(ctx.scale, 0.5), 20);
  await seedReadModels(sql, lessons, teachers);
  const weekOf = (i: number) => {
    const monday = new Date(Date.parse(`${TODAY}T00:00:00Z`) + ((i * 7) % SEEDED_WEEKS) * 7 * 86_400_000);
    const from = monday.toISOString();
    return { monday: from.slice(0, 10), from, to: new Date(monday.getTime() + 7 * 86_400_000).toISOString() };
  };
  const teacherOf = async (i: number) =>
    (await sql.query<{ id: string }>(`SELECT md5('bench-teacher-' || $1::int)::uuid AS id`, [i % teachers]))
      .rows[0]!.id;
  const teacherIds = await Promise.all(Array.from({ length: requests }, (_, i) => teacherOf(i * 37)));
  const out: Measurement[] = [];

  progress(`a teacher's week × ${requests}`);
  const rawWeek = (teacherId: string, w: { from: string; to: string }) =>
    sql.query(
      `SELECT l.*, p.title AS programme_title, g.name AS group_name, t.full_name AS teacher_name, c.full_name AS cover_teacher_name
         FROM rm_lessons l LEFT JOIN rm_programmes p ON p.id = l.programme_id LEFT JOIN rm_groups g ON g.id = l.group_id
         LEFT JOIN rm_users t ON t.id = l.teacher_id LEFT JOIN rm_users c ON c.id = l.cover_teacher_id
        WHERE (l.teacher_id = $1 OR l.cover_teacher_id = $1) AND l.starts_at >= $2 AND l.starts_at < $3
          AND l.status = ANY($4::text[]) ORDER BY l.starts_at, l.id`,
      [teacherId, w.from, w.to, OCCUPYING_STATUSES],
    );
  const portalWeek = (teacherId: string, w: { from: string; to: string }) =>
    lessonsBetween(sql, { from: w.from, to: w.to, status: [...OCCUPYING_STATUSES], teacherId });
  out.push(
    await paired({
      key: 'teacher-week',
      label: `a teacher's week at ${lessons} lessons`,
      requests,
      subject: async (i) => (await portalWeek(teacherIds[i]!, weekOf(i))).length,
      baseline: async (i) => (await rawWeek(teacherIds[i]!, weekOf(i))).rows.length,
      subjectHow: 'lessonsBetween (count + page, names joined)',
      baselineHow: 'one SELECT with the same joins, WHERE and ORDER BY',
    }),
  );

  progress(`the teachers' grid (50 teachers × a week) × ${requests}`);
  const pages = Math.max(1, Math.ceil(teachers / 50));
  const portalGrid = async (i: number) => {
    const w = weekOf(i);
    const page = await gridTeachers(sql, { page: 1 + (i % pages), size: 50 });
    const ids = page.items.map((t) => t.id);
    const [rows, availability] = await Promise.all([
      lessonsOfTeachers(sql, {
        teacherIds: ids,
        from: w.from,
        to: w.to,
        statuses: OCCUPYING_STATUSES,
        scope: null,
      }),
      availabilityOfUsers(sql, ids, 'default', w.monday),
    ]);
    let cells = 0;
    for (const t of page.items) {
      const own = rows
        .filter((l) => (l.cover_teacher_id ?? l.teacher_id) === t.id)
        .map((l) => ({
          id: l.id,
          starts_at: new Date(l.starts_at).toISOString(),
          ends_at: new Date(l.ends_at).toISOString(),
        }));
      cells +=
        teacherWeek(w.monday, 'Europe/London', availability.get(t.id)?.availabilities ?? null, own).free
          .length + own.length;
    }
    return cells;
  };
  const rawGrid = async (i: number) => {
    const w = weekOf(i);
    const page = await sql.query<{ id: string }>(
      `SELECT id, full_name, timezone, requested_number_of_lessons_per_week FROM rm_users
        WHERE user_type = 'teacher' AND status = 'active' AND deleted_at IS NULL
        ORDER BY full_name, id LIMIT 50 OFFSET $1`,
      [(i % pages) * 50],
    );
    const ids = page.rows.map((r) => r.id);
    const [rows] = await Promise.all([
      sql.query(
        `SELECT l.id, l.teacher_id, l.cover_teacher_id, l.starts_at, l.ends_at, l.status, p.title FROM rm_lessons l
           LEFT JOIN rm_programmes p ON p.id = l.programme_id
          WHERE (l.teacher_id = ANY($1::uuid[]) OR l.cover_teacher_id = ANY($1::uuid[]))
            AND l.starts_at >= $2 AND l.starts_at < $3 AND l.status = ANY($4::text[]) ORDER BY l.starts_at, l.id`,
        [ids, w.from, w.to, OCCUPYING_STATUSES],
      ),
      sql.query(`SELECT * FROM rm_user_availability WHERE user_id = ANY($1::uuid[]) AND type = 'default'`, [
        ids,
      ]),
    ]);
    return rows.rows.length;
  };
  out.push(
    await paired({
      key: 'teachers-grid',
      label: `timetables/teachers, 50 teachers × a week at ${lessons} lessons`,
      requests,
      subject: portalGrid,
      baseline: rawGrid,
      subjectHow:
        'gridTeachers (count + page) + lessonsOfTeachers + availabilityOfUsers + free-slot arithmetic',
      baselineHow: 'teachers page + their week’s lessons + their availability, hand-written SQL',
    }),
  );
  return out;
}

/** Alternating subject/baseline requests after a warm-up; p50/p99 of each. */
async function paired(q: {
  key: string;
  label: string;
  requests: number;
  subject: (i: number) => Promise<number>;
  baseline: (i: number) => Promise<number>;
  subjectHow: string;
  baselineHow: string;
}): Promise<Measurement> {
  for (let i = 0; i < 10; i++) {
    await q.subject(i);
    await q.baseline(i);
  }
  const subjectMs: number[] = [];
  const baselineMs: number[] = [];
  for (let i = 0; i < q.requests; i++) {
    const order = i % 2 === 0 ? (['subject', 'baseline'] as const) : (['baseline', 'subject'] as const);
    for (const which of order) {
      const started = process.hrtime.bigint();
      await q[which](i);
      (which === 'subject' ? subjectMs : baselineMs).push(msSince(started));
    }
  }
  const s = latency(subjectMs);
  const b = latency(baselineMs);
  const m = measurement({
    key: q.key,
    label: q.label,
    unit: 'req/s',
    subject: { ...timing(q.requests, sum(subjectMs)), p50Ms: s.p50, p99Ms: s.p99, how: q.subjectHow },
    baseline: { ...timing(q.requests, sum(baselineMs)), p50Ms: b.p50, p99Ms: b.p99, how: q.baselineHow },
  });
  m.goals.push({ goal: `p99 < ${WEEK_GOALS.p99Ms} ms (PostgreSQL)`, pass: s.p99 < WEEK_GOALS.p99Ms });
  return m;
}
