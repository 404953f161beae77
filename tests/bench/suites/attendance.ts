/**
 * Attendance benchmark (decision 0056). Measured:
 * 1. taking a register of 30 students: the register decider through the command runner (read the
 *    lesson stream, fold, decide, append 31+ events) per register, p50/p99, beside raw SQL inserting
 *    the same 30 rows in one transaction;
 * 2. the programme and group aggregates over 1,000,000 marks (1,000 programmes × 50 lessons × 20
 *    students): `attendanceSummary` (count + page, as the API runs it) for one programme or group, p50/p99,
 *    beside one hand-written GROUP BY over the same rows.
 * 3. mark → partner screen: a portal server process (on the target's store); a teacher's register PUT
 *    over HTTP (one pupil's first mark) → `AttendanceMarkRecorded` at 500 Socket.IO clients signed in as
 *    the school's partner users who see attendance (one `/live` socket each, as the partner attendance
 *    screen holds; the server joins them to the school's room), p50/p99 from the PUT sent to each
 *    socket's receipt, beside a bare Socket.IO server broadcasting the same payload to 500 sockets.
 */
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { PostgresEventStore } from '../../../server/src/platform/event-store/postgres/postgres-event-store.js';
import { registerAggregate } from '../../../server/src/attendance/register.decider.js';
import { allProjections, attendanceSummary, lessonStream } from '../../../projections/src/index.js';
import type { LiveMessage } from '../../../projections/src/live-contract.js';
import { api, login, startPortal, type PortalProcess } from '../../support/portal-processes.js';
import { closeAudiences, connectAudience, receivedAll, type Audience } from '../lib/live-audience.js';
import { portalStoreEnv } from '../lib/portal-store.js';
import { measurement, scaled, timed, timing, benchEnvironment } from '../lib/measure.js';
import { percentile, spawnReady, type ReadyProcess } from '../lib/processes.js';
import type { BenchReport, BenchSuite, Measurement, SuiteContext, TargetKind } from '../lib/suite.js';
import { openBenchDatabase } from '../lib/targets.js';

const SIZES = {
  registers: 300,
  /** Mark → partner screen: sockets, the partner users they sign in as, measured marks per side. */
  sockets: 500,
  partners: 10,
  liveMarks: 200,
  rounds: 10,
  students: 30,
  programmes: 1_000,
  lessonsPerProgramme: 50,
  studentsPerGroup: 20,
  queries: 200,
};
const GOALS = { aggregateP99Ms: 50, liveP99Ms: 100 };
const RAW_SERVER = fileURLToPath(new URL('../lib/raw-live-server.ts', import.meta.url));

export const suite: BenchSuite = {
  name: 'attendance',
  description:
    'Registers of 30 through the decider vs raw inserts (p50/p99); programme/group aggregates over 1,000,000 marks vs one GROUP BY; mark → partner screen at 500 sockets vs a bare Socket.IO broadcast',
  async run(ctx: SuiteContext) {
    for (const target of ctx.targets) {
      const report = await runOn(target, ctx);
      const live = await markToPartnerScreen(target, ctx);
      report.measurements.push(...live.measurements);
      report.notes = [...(report.notes ?? []), ...live.notes];
      report.sizes = { ...report.sizes, ...live.sizes };
      report.durationMs = Date.now() - new Date(report.startedAt).getTime();
      report.targetDetails += `; mark → partner screen: ${live.details}`;
      await ctx.report(report);
    }
  },
};

const p = (values: number[], q: number) => Math.round(percentile(values, q) * 100) / 100;

async function runOn(kind: TargetKind, ctx: SuiteContext): Promise<BenchReport> {
  const progress = (m: string) => ctx.progress(`${kind}: ${m}`);
  const startedAt = new Date();
  const db = await openBenchDatabase(kind, { poolSize: 4 });
  const measurements: Measurement[] = [];
  const registers = scaled(SIZES.registers, ctx.scale, 20);
  const programmes = scaled(SIZES.programmes, ctx.scale, 10);
  const marks = programmes * SIZES.lessonsPerProgramme * SIZES.studentsPerGroup;
  try {
    const store = await PostgresEventStore.create(db.sql);
    for (const projection of allProjections) for (const ddl of projection.schema) await db.sql.exec(ddl);
    await db.sql
      .exec(`CREATE TABLE raw_marks (lesson_id uuid NOT NULL, student_id uuid NOT NULL, mark text NOT NULL,
      minutes_late int, data jsonb NOT NULL, PRIMARY KEY (lesson_id, student_id))`);
    const teacherId = randomUUID();
    /** What `Commands.run` does (it cannot be imported here: tsx leaves Nest's parameter decorators out). */
    const run = async (command: Parameters<typeof registerAggregate.decide>[0]) => {
      const id = registerAggregate.idOf(command);
      const recorded = await store.readStream(registerAggregate.stream(id));
      let state = registerAggregate.initialState();
      for (const e of recorded)
        state = registerAggregate.evolve(state, { type: e.type, data: e.data } as Parameters<
          typeof registerAggregate.evolve
        >[1]);
      const events = registerAggregate.decide(command, state);
      return store.append(
        registerAggregate.stream(id),
        events.map((e) => ({
          id: randomUUID(),
          type: e.type,
          data: e.data,
          metadata: { actorId: teacherId },
        })),
        { expectedRevision: recorded.at(-1)?.revision ?? 'no_stream' },
      );
    };

    // 1. Registers.
    progress(`planning ${registers} lessons`);
    const students = Array.from({ length: SIZES.students }, () => randomUUID());
    const lessonIds: string[] = [];
    for (let i = 0; i < registers; i++) {
      const lessonId = randomUUID();
      lessonIds.push(lessonId);
      await store.append(
        lessonStream(lessonId),
        [
          {
            id: randomUUID(),
            type: 'LessonPlanned',
            data: {
              lessonId,
              customerId: teacherId,
              teacherId,
              coverTeacherId: null,
              kind: 'lesson',
              programmeId: teacherId,
              groupId: teacherId,
              scheduleId: null,
              meetingId: lessonId,
              timezone: 'Europe/London',
              localDate: '2026-09-07',
              localStart: '09:30',
              durationMinutes: 60,
              startsAt: '2026-09-07T08:30:00.000Z',
              endsAt: '2026-09-07T09:30:00.000Z',
            },
          },
        ],
        { expectedRevision: 'no_stream' },
      );
    }
    const entries = students.map((studentId, i) =>
      i % 10 === 3
        ? { studentId, mark: 'late' as const, minutesLate: 5 }
        : i % 10 === 7
          ? { studentId, mark: 'absent_pending' as const }
          : { studentId, mark: 'present' as const },
    );
    const person = {
      person: { id: teacherId, name: 'Bench Teacher', position: 'Tutor' },
      role: 'admin' as const,
    };
    const subjectLatencies: number[] = [];
    const baselineLatencies: number[] = [];
    progress(
      `taking ${registers} registers of ${SIZES.students} (decider) and inserting the same rows (raw), in turns`,
    );
    for (const [i, lessonId] of lessonIds.entries()) {
      const subject = () =>
        timed(() =>
          run({
            type: 'TakeRegister',
            lessonId,
            now: '2026-09-07T09:00:00.000Z',
            actor: person,
            clientKey: `bench-${i}`,
            entries,
            guests: [],
            roster: students,
            planned: [],
          }),
        );
      const baseline = () =>
        timed(async () => {
          const params: unknown[] = [];
          const values = entries.map((e) => {
            params.push(lessonId, e.studentId, e.mark, e.minutesLate ?? null, JSON.stringify(e));
            const n = params.length;
            return `($${n - 4}, $${n - 3}, $${n - 2}, $${n - 1}, $${n}::jsonb)`;
          });
          await db.sql.transaction(async (tx) => {
            await tx.query(
              `INSERT INTO raw_marks (lesson_id, student_id, mark, minutes_late, data) VALUES ${values.join(', ')}`,
              params,
            );
          });
        });
      // Take turns (AB, BA, ...) so both see the same machine.
      if (i % 2 === 0) {
        subjectLatencies.push((await subject()).ms);
        baselineLatencies.push((await baseline()).ms);
      } else {
        baselineLatencies.push((await baseline()).ms);
        subjectLatencies.push((await subject()).ms);
      }
    }
    const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
    measurements.push(
      measurement({
        key: 'take-register',
        label: `take a register of ${SIZES.students} (${registers} registers)`,
        unit: 'registers/s',
        subject: {
          ...timing(registers, sum(subjectLatencies)),
          p50Ms: p(subjectLatencies, 50),
          p99Ms: p(subjectLatencies, 99),
          how: 'the command loop over registerAggregate: read + fold + decide + append RegisterOpened, 30 marks, LessonDelivered',
        },
        baseline: {
          ...timing(registers, sum(baselineLatencies)),
          p50Ms: p(baselineLatencies, 50),
          p99Ms: p(baselineLatencies, 99),
          how: 'one transaction inserting the 30 rows (one multi-row INSERT)',
        },
      }),
    );

    // 2. Aggregates over the marks.
    progress(`seeding ${marks.toLocaleString('en-US')} marks`);
    const seed = await timed(async () => {
      await db.sql.exec(`
        INSERT INTO rm_programmes (id, title, customer_id, kind, start_date, timezone, status, created_at, updated_at, version)
        SELECT md5('p' || p)::uuid, 'Programme ' || p, md5('c' || (p % 50))::uuid, 'lesson', '2026-09-01', 'Europe/London',
               'active', now(), now(), 0
          FROM generate_series(1, ${programmes}) p`);
      await db.sql.exec(`
        INSERT INTO rm_lessons (id, kind, programme_id, group_id, customer_id, teacher_id, starts_at, ends_at,
          duration_minutes, timezone, local_date, local_start, status, created_at, updated_at, version)
        SELECT md5('l' || p || '-' || n)::uuid, 'lesson', md5('p' || p)::uuid, md5('g' || p)::uuid, md5('c' || (p % 50))::uuid,
               md5('t' || (p % 100))::uuid, timestamptz '2026-09-07 08:30Z' + (n || ' days')::interval,
               timestamptz '2026-09-07 09:30Z' + (n || ' days')::interval, 60, 'Europe/London',
               to_char(date '2026-09-07' + n, 'YYYY-MM-DD'), '09:30', 'delivered', now(), now(), 0
          FROM generate_series(1, ${programmes}) p, generate_series(1, ${SIZES.lessonsPerProgramme}) n`);
      await db.sql.exec(`
        INSERT INTO rm_register_entries (lesson_id, student_id, customer_id, programme_id, group_id, local_date, starts_at,
          duration_minutes, basis, mark, minutes_late, minutes_missed, absence_reason, suggested_code, source, version)
        SELECT l.id, md5('s' || split_part(l.programme_id::text, '-', 1) || '-' || s)::uuid, l.customer_id, l.programme_id,
               l.group_id, l.local_date, l.starts_at, l.duration_minutes, 'enrolled',
               CASE (s + extract(day FROM l.starts_at)::int) % 10 WHEN 3 THEN 'late' WHEN 7 THEN 'absent'
                    WHEN 8 THEN 'absent_pending' ELSE 'present' END,
               CASE (s + extract(day FROM l.starts_at)::int) % 10 WHEN 3 THEN 10 END, NULL,
               CASE (s + extract(day FROM l.starts_at)::int) % 10 WHEN 7 THEN 'illness' END, 'B', 'teacher', 0
          FROM rm_lessons l, generate_series(1, ${SIZES.studentsPerGroup}) s`);
      await db.sql.exec('ANALYZE');
    });
    const programmeIds = (
      await db.sql.query<{ id: string; group_id: string }>(
        `SELECT DISTINCT programme_id AS id, group_id FROM rm_lessons ORDER BY 1`,
      )
    ).rows;
    const queries = scaled(SIZES.queries, ctx.scale, 50);
    for (const by of ['programme', 'group'] as const) {
      const subjectMs: number[] = [];
      const baselineMs: number[] = [];
      let sameRows = false;
      progress(`${queries} ${by} aggregates (API query) and ${queries} hand-written GROUP BYs, in turns`);
      for (let i = 0; i < queries; i++) {
        const target = programmeIds[(i * 7919) % programmeIds.length]!;
        const subject = () =>
          timed(() =>
            attendanceSummary(db.sql, {
              by,
              programmeId: by === 'programme' ? target.id : undefined,
              groupId: by === 'group' ? target.group_id : undefined,
              scope: null,
              size: 50,
            }),
          );
        const column = by === 'programme' ? 'programme_id' : 'group_id';
        const baseline = () =>
          timed(() =>
            db.sql.query(
              `SELECT e.student_id,
                  count(*) FILTER (WHERE e.mark NOT IN ('not_required', 'tech_failure_provider')) AS possible,
                  count(*) FILTER (WHERE e.mark IN ('present', 'late', 'left_early')) AS attended,
                  count(*) FILTER (WHERE e.mark = 'late') AS late,
                  count(*) FILTER (WHERE e.mark IN ('absent_pending', 'absent', 'tech_failure_pupil')) AS absences,
                  sum(e.duration_minutes) AS planned_minutes
                FROM rm_register_entries e
               WHERE e.${column} = $1 AND NOT e.voided AND e.mark IS NOT NULL
               GROUP BY e.student_id ORDER BY e.student_id LIMIT 50`,
              [by === 'programme' ? target.id : target.group_id],
            ),
          );
        if (i === 0) {
          // Both answer for the same students (a check, not a measurement).
          const [a, b] = [(await subject()).result, (await baseline()).result];
          sameRows = a.total === b.rows.length && a.total > 0;
        }
        if (i % 2 === 0) {
          subjectMs.push((await subject()).ms);
          baselineMs.push((await baseline()).ms);
        } else {
          baselineMs.push((await baseline()).ms);
          subjectMs.push((await subject()).ms);
        }
      }
      const m = measurement({
        key: `aggregate-${by}`,
        label: `attendance per student of one ${by} (${marks.toLocaleString('en-US')} marks in all)`,
        unit: 'queries/s',
        subject: {
          ...timing(queries, sum(subjectMs)),
          p50Ms: p(subjectMs, 50),
          p99Ms: p(subjectMs, 99),
          how: 'attendanceSummary: count + one page of 50, absences by reason, names joined',
        },
        baseline: {
          ...timing(queries, sum(baselineMs)),
          p50Ms: p(baselineMs, 50),
          p99Ms: p(baselineMs, 99),
          how: 'one GROUP BY student over the same rows (no count, no reasons, no names)',
        },
      });
      m.goals.push({ goal: 'same students as the baseline', pass: sameRows });
      if (kind === 'postgres')
        m.goals.push({
          goal: `p99 < ${GOALS.aggregateP99Ms} ms`,
          pass: p(subjectMs, 99) < GOALS.aggregateP99Ms,
        });
      measurements.push(m);
    }

    return {
      suite: 'attendance',
      target: kind,
      targetDetails: db.details,
      scale: ctx.scale,
      startedAt: startedAt.toISOString(),
      durationMs: Date.now() - startedAt.getTime(),
      environment: benchEnvironment(),
      sizes: { registers, studentsPerRegister: SIZES.students, programmes, marks, queries },
      measurements,
      notes: [`Seeding ${marks} marks by set-based SQL took ${Math.round(seed.ms)} ms (not a measurement).`],
    };
  } finally {
    await db.dispose();
  }
}

const PASSWORD = 'correct horse battery staple';

/**
 * Set-up calls that must succeed (2xx), each sent with `X-Min-Position` of the last write, so that it
 * reads what the calls before it wrote (the portal's read-your-writes); answers the body.
 */
function setupClient(base: string) {
  let position = '0';
  return async (method: string, path: string, token: string, body?: unknown) => {
    const res = await fetch(`${base}/api/v1${path}`, {
      method,
      headers: {
        RequestVerificationToken: token,
        'X-Min-Position': position,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    const answer = (text ? JSON.parse(text) : {}) as Record<string, unknown>;
    if (res.status >= 300) throw new Error(`${method} ${path} answered ${res.status}: ${text}`);
    if (typeof answer.position === 'string' && BigInt(answer.position) > BigInt(position))
      position = answer.position;
    return answer;
  };
}

/** Polls `check` (every 50 ms, up to 30 s) until it holds: the read models behind the next step. */
async function until(what: string, check: () => Promise<boolean>): Promise<void> {
  const end = Date.now() + 30_000;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * 3. Mark → partner screen latency (issue 16 item 10). One school with `SIZES.partners` partner users
 * who see attendance, a group of 30 pupils and a few lessons of one teacher that have started. Every
 * lesson's register is opened first by an unmeasured PUT (its first pupil), so each measured PUT records
 * exactly one `AttendanceMarkRecorded` (the next pupil's first mark, no amendment). Sides alternate in
 * rounds, one message at a time, as in the `live` suite.
 */
async function markToPartnerScreen(
  target: TargetKind,
  ctx: SuiteContext,
): Promise<{ measurements: Measurement[]; notes: string[]; sizes: Record<string, number>; details: string }> {
  const progress = (m: string) => ctx.progress(`${target}: ${m}`);
  const sockets = scaled(SIZES.sockets, ctx.scale, 10);
  const partners = Math.min(SIZES.partners, sockets);
  const marks = scaled(SIZES.liveMarks, ctx.scale, 10);
  const rounds = Math.min(SIZES.rounds, marks);
  const perRound = Math.ceil(marks / rounds);
  const pupils = SIZES.students;
  // Each lesson gives pupils - 1 measured marks; 3 more per side for the warm-up.
  const lessons = Math.ceil((rounds * perRound + 3) / (pupils - 1));
  let portal: PortalProcess | null = null;
  let raw: ReadyProcess | null = null;
  let cleanup: () => Promise<void> = async () => {};
  const audiences: Audience[] = [];
  try {
    const store = await portalStoreEnv(target, 'attendance');
    cleanup = store.cleanup;
    progress('starting a portal server and the bare Socket.IO server');
    portal = await startPortal(store.env);
    raw = await spawnReady(['--import', 'tsx', RAW_SERVER], {}, /^RAW_READY \d+/);
    const base = portal.url;
    const rawUrl = `http://127.0.0.1:${raw.line.split(' ')[1]}`;
    const admin = await login(base);
    const call = setupClient(base);

    progress(`a school, ${partners} partner users, ${pupils} pupils, a group and ${lessons} lessons`);
    const stamp = Date.now().toString(36);
    const customerId = (await call('POST', '/customers/', admin, { name: `Bench School ${stamp}` }))
      .id as string;
    const user = async (who: string, body: Record<string, unknown>) =>
      (
        await call('POST', '/users/', admin, {
          email: `${who}.${stamp}@bench.example`,
          first_name: who,
          last_name: 'Bench',
          password: PASSWORD,
          ...body,
        })
      ).id as string;
    const teacherId = await user('teacher', { user_type: 'teacher' });
    const partnerIds: string[] = [];
    for (let i = 0; i < partners; i++) {
      const id = await user(`partner${i}`, {
        user_type: 'partner',
        customer_id: customerId,
        customer_type: 'admin',
      });
      await call('PUT', `/users/${id}/permissions`, admin, {
        permissions: ['USER_IS_PARTNER', 'PARTNER_CAN_SEE_ATTENDANCE'],
      });
      partnerIds.push(id);
    }
    const studentIds: string[] = [];
    for (let i = 0; i < pupils; i++)
      studentIds.push(await user(`pupil${i}`, { user_type: 'student', customer_id: customerId }));
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    const programmeId = (
      await call('POST', '/programmes/', admin, {
        title: 'Bench attendance',
        customer_id: customerId,
        kind: 'lesson',
        start_date: day(-7),
        timezone: 'UTC',
      })
    ).id as string;
    await call('PUT', `/programmes/${programmeId}/activate`, admin, {});
    const groupId = (
      await call('POST', '/groups/', admin, {
        programme_id: programmeId,
        name: 'Bench group',
        teachers: [{ teacher_id: teacherId, role: 'lead' }],
      })
    ).id as string;
    for (const studentId of studentIds)
      await call('POST', `/groups/${groupId}/students`, admin, {
        student_id: studentId,
        from: day(-2),
      });
    const lessonIds: string[] = [];
    for (let i = 0; i < lessons; i++) {
      // Started 10 minutes ago, and each one 50 minutes before the next (one teacher, no clash).
      const start = new Date(Date.now() - (10 + 50 * i) * 60_000).toISOString();
      const lesson = await call('POST', '/lessons/', admin, {
        programme_id: programmeId,
        group_id: groupId,
        teacher_id: teacherId,
        timezone: 'UTC',
        local_date: start.slice(0, 10),
        local_start: start.slice(11, 16),
        duration_minutes: 45,
      });
      lessonIds.push(lesson.id as string);
    }
    const teacher = await login(base, `teacher.${stamp}@bench.example`, PASSWORD);
    const partnerTokens: string[] = [];
    for (let i = 0; i < partners; i++)
      partnerTokens.push(await login(base, `partner${i}.${stamp}@bench.example`, PASSWORD));
    await until('the registers to list every pupil', async () => {
      for (const lessonId of lessonIds) {
        const r = await api(base, 'GET', `/lessons/${lessonId}/register`, teacher);
        if (r.status !== 200 || (r.body.entries as unknown[] | undefined)?.length !== pupils) return false;
      }
      return true;
    });
    await until('the partners’ permissions', async () => {
      const me = await api(base, 'GET', '/users/me', partnerTokens.at(-1)!);
      return ((me.body.permission_list as string[] | undefined) ?? []).includes('PARTNER_CAN_SEE_ATTENDANCE');
    });

    progress(
      `connecting ${sockets} sockets as the school's ${partners} partner users, and ${sockets} bare ones`,
    );
    const isMark = (m: LiveMessage) => m.type === 'AttendanceMarkRecorded';
    const subject = await connectAudience(base, sockets, partnerTokens, isMark);
    const baseline = await connectAudience(rawUrl, sockets, [null]);
    audiences.push(subject, baseline);
    let payload: LiveMessage | null = null;
    subject.sockets[0]!.on('live', (m: LiveMessage) => {
      if (isMark(m)) payload = m;
    });

    /** Messages each socket has received so far, per side. */
    const counted = { subject: 0, baseline: 0 };
    const latencies = { subject: [] as number[], baseline: [] as number[] };
    const putMs: number[] = [];
    const put = (lessonId: string, studentId: string) =>
      api(base, 'PUT', `/lessons/${lessonId}/register`, teacher, {
        client_key: randomUUID(),
        entries: [{ student_id: studentId, mark: 'present' }],
      });
    const deliver = async (side: 'subject' | 'baseline', send: () => Promise<void>) => {
      const audience = side === 'subject' ? subject : baseline;
      const n = ++counted[side];
      const t0 = performance.now();
      await send();
      await receivedAll(audience, n * sockets);
      for (const times of audience.received) latencies[side].push(times[n - 1]! - t0);
    };
    // Open every register (unmeasured): the first pupil's mark, RegisterOpened and LessonDelivered.
    progress(`opening ${lessons} registers (not measured)`);
    for (const lessonId of lessonIds)
      await deliver('subject', async () => {
        const r = await put(lessonId, studentIds[0]!);
        if (r.status !== 200) throw new Error(`register PUT answered ${r.status}: ${JSON.stringify(r.body)}`);
      });
    if (!payload) throw new Error('no AttendanceMarkRecorded reached the partner sockets');
    const sample: LiveMessage = payload;
    const queue = lessonIds.flatMap((lessonId) =>
      studentIds.slice(1).map((studentId) => ({ lessonId, studentId })),
    );
    const one = (side: 'subject' | 'baseline') =>
      deliver(side, async () => {
        if (side === 'subject') {
          const next = queue.shift()!;
          const t0 = performance.now();
          const r = await put(next.lessonId, next.studentId);
          if (r.status !== 200)
            throw new Error(`register PUT answered ${r.status}: ${JSON.stringify(r.body)}`);
          putMs.push(performance.now() - t0);
        } else {
          const r = await fetch(`${rawUrl}/emit`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ ...sample, position: String(counted.baseline) }),
          });
          if (r.status !== 204) throw new Error(`raw server answered ${r.status}`);
        }
      });
    for (let i = 0; i < 3; i++) {
      await one('subject');
      await one('baseline');
    }
    latencies.subject.length = 0;
    latencies.baseline.length = 0;
    putMs.length = 0;
    progress(`${rounds * perRound} marks per side in ${rounds} alternating rounds`);
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 === 0 ? (['subject', 'baseline'] as const) : (['baseline', 'subject'] as const);
      for (const side of order) for (let i = 0; i < perRound; i++) await one(side);
    }

    const measurements: Measurement[] = [];
    for (const q of [50, 99]) {
      const s = percentile(latencies.subject, q);
      const b = percentile(latencies.baseline, q);
      const m = measurement({
        key: `mark-to-partner-screen-p${q}`,
        label: `mark → partner screen at ${sockets} partner sockets, p${q}`,
        unit: 'ms (lower is better)',
        subject: {
          ...timing(latencies.subject.length, s),
          rate: Math.round(s * 10) / 10,
          how: `a teacher's PUT /api/v1/lessons/{id}/register (one pupil's first mark) → AttendanceMarkRecorded → projection → \`live\` at ${sockets} sockets of ${partners} partner users of the school (room customer:{id}); p${q} over every (mark, socket)`,
        },
        baseline: {
          ...timing(latencies.baseline.length, b),
          rate: Math.round(b * 10) / 10,
          how: `POST /emit to a bare Socket.IO server → emit('live', the same payload) to ${sockets} sockets`,
        },
      });
      if (q === 99) m.goals.push({ goal: `p99 < ${GOALS.liveP99Ms} ms`, pass: s < GOALS.liveP99Ms });
      measurements.push(m);
    }
    return {
      measurements,
      sizes: { liveSockets: sockets, livePartnerUsers: partners, liveMarks: rounds * perRound },
      details: `portal server process (${target === 'postgres' ? 'PostgreSQL' : 'PGlite'}) vs bare Socket.IO process, clients in the bench process`,
      notes: [
        'Mark → partner screen: the "rate" columns hold milliseconds and the ratio is subject/baseline latency (lower is better); one mark at a time, the next once every socket has the previous one.',
        `Of that latency, the register PUT's own round trip (answered once the events are committed): p50 ${percentile(putMs, 50).toFixed(1)} ms, p99 ${percentile(putMs, 99).toFixed(1)} ms.`,
      ],
    };
  } finally {
    closeAudiences(audiences);
    await portal?.stop();
    await raw?.stop();
    await cleanup();
  }
}
