/**
 * Lesson planner benchmark (decision 0053): 1,000 weekly schedules (Mon + Thu) planned 26 weeks ahead,
 * i.e. 52,000 lessons. Measured: the pure planner (occurrences with Temporal, deterministic ids), the
 * planner writing one `LessonPlanned` stream per lesson through the EventStore port, beside a raw-SQL
 * baseline inserting the same rows one statement each, and the second, idempotent pass (planSteps
 * against what exists: nothing to write). Not measured: the runner's clash check per occurrence (a read
 * of rm_lessons), which the running portal adds.
 */
import { randomUUID } from 'node:crypto';
import { cpus, totalmem } from 'node:os';
import { PostgresEventStore } from '../../../server/src/platform/event-store/postgres/postgres-event-store.js';
import {
  meetingIdOf,
  occurrences,
  planningWindow,
  planSteps,
  type Occurrence,
  type PlannableSchedule,
} from '../../../server/src/lessons/planner.js';
import { lessonStream } from '../../../projections/src/index.js';
import { measurement, scaled, timed, timing } from '../lib/measure.js';
import type { BenchReport, BenchSuite, Measurement, SuiteContext, TargetKind } from '../lib/suite.js';
import { openBenchDatabase } from '../lib/targets.js';

const SIZES = { schedules: 1_000, weeks: 26 };

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

    return {
      suite: 'lessons',
      target: kind,
      targetDetails: db.details,
      scale: ctx.scale,
      startedAt: startedAt.toISOString(),
      durationMs: Date.now() - startedAt.getTime(),
      environment: {
        node: process.version,
        platform: `${process.platform} ${process.arch}`,
        cpus: cpus().length,
        totalMemoryMb: Math.round(totalmem() / 2 ** 20),
      },
      sizes: { schedules: schedules.length, weeks: SIZES.weeks, lessons },
      measurements,
      notes: [
        'The runner also reads rm_lessons once per new occurrence for the clash rule; not measured here.',
      ],
    };
  } finally {
    await db.dispose();
  }
}
