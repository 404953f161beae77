/**
 * Attendance benchmark (decision 0056). Measured:
 * 1. taking a register of 30 students: the register decider through the command runner (read the
 *    lesson stream, fold, decide, append 31+ events) per register, p50/p99, beside raw SQL inserting
 *    the same 30 rows in one transaction;
 * 2. the programme and group aggregates over 1,000,000 marks (1,000 programmes × 50 lessons × 20
 *    students): `attendanceSummary` (count + page, as the API runs it) for one programme or group, p50/p99,
 *    beside one hand-written GROUP BY over the same rows.
 * Not measured here: mark → partner screen latency with 500 sockets (the `live` suite measures the
 * live channel itself).
 */
import { randomUUID } from 'node:crypto';
import { PostgresEventStore } from '../../../server/src/platform/event-store/postgres/postgres-event-store.js';
import { registerAggregate } from '../../../server/src/attendance/register.decider.js';
import { allProjections, attendanceSummary, lessonStream } from '../../../projections/src/index.js';
import { measurement, scaled, timed, timing, benchEnvironment } from '../lib/measure.js';
import { percentile } from '../lib/processes.js';
import type { BenchReport, BenchSuite, Measurement, SuiteContext, TargetKind } from '../lib/suite.js';
import { openBenchDatabase } from '../lib/targets.js';

const SIZES = {
  registers: 300,
  students: 30,
  programmes: 1_000,
  lessonsPerProgramme: 50,
  studentsPerGroup: 20,
  queries: 200,
};
const GOALS = { aggregateP99Ms: 50 };

export const suite: BenchSuite = {
  name: 'attendance',
  description:
    'Registers of 30 through the decider vs raw inserts (p50/p99); programme/group aggregates over 1,000,000 marks vs one GROUP BY',
  async run(ctx: SuiteContext) {
    for (const target of ctx.targets) await ctx.report(await runOn(target, ctx));
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
      notes: [
        `Seeding ${marks} marks by set-based SQL took ${Math.round(seed.ms)} ms (not a measurement).`,
        'Mark → partner screen latency with 500 sockets is not measured by this suite.',
      ],
    };
  } finally {
    await db.dispose();
  }
}
