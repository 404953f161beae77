import {
  applyFolding,
  defineProjection,
  guardedSet,
  queryIndex,
  TouchedRows,
  type ColumnTypes,
  type ProjectionEvent,
  type ProjectionTx,
} from '../projection.js';

/**
 * Schedules (`schedule-{id}`: a weekly rule of a programme's group) and lessons (`lesson-{id}`: one
 * occurrence each, materialised by the planner from a schedule, or planned one-off). Decision 0053.
 * Every event names who it concerns (teacher, cover teacher, customer), so the live room rules can
 * route it without reading anything else. Times: an instant (UTC) plus the zone and the local
 * wall-clock date and time it was planned at (decision 0052).
 */

export type Weekday = 1 | 2 | 3 | 4 | 5 | 6 | 7;

/** The rule of a schedule (all of it, as created or changed). */
export interface ScheduleRule {
  groupId: string;
  teacherId: string;
  timezone: string;
  /** ISO weekdays, 1 = Monday. */
  weekdays: number[];
  /** `HH:mm` wall-clock start. */
  localStart: string;
  durationMinutes: number;
  /** 1 = every week, 2 = every other week (weeks counted from the Monday of valid_from). */
  intervalWeeks: number;
  validFrom: string;
  validUntil: string | null;
}

export interface ScheduleCreatedData extends ScheduleRule {
  scheduleId: string;
  programmeId: string;
  customerId: string;
}

export interface ScheduleChangedData extends ScheduleRule {
  scheduleId: string;
  customerId: string;
  /** The teacher before the change, when it changed (so they hear of it too). */
  previousTeacherId: string | null;
}

export interface ScheduleExceptionAddedData {
  scheduleId: string;
  customerId: string;
  teacherId: string;
  localDate: string;
  action: 'skip' | 'move';
  /** For `move`: the start that day instead of the rule's. */
  newLocalStart: string | null;
}

/** An occurrence the planner did not materialise because it clashed with another lesson. */
export interface ScheduleConflict {
  localDate: string;
  localStart: string;
  /** The lesson it clashes with. */
  lessonId: string;
  reason: 'teacher' | 'student';
}

export interface ScheduleConflictsRecordedData {
  scheduleId: string;
  customerId: string;
  teacherId: string;
  conflicts: ScheduleConflict[];
}

export type ScheduleEvent =
  | { type: 'ScheduleCreated'; data: ScheduleCreatedData }
  | { type: 'ScheduleChanged'; data: ScheduleChangedData }
  | { type: 'ScheduleExceptionAdded'; data: ScheduleExceptionAddedData }
  | { type: 'ScheduleConflictsRecorded'; data: ScheduleConflictsRecordedData };

export const SCHEDULE_EVENT_TYPES: readonly ScheduleEvent['type'][] = [
  'ScheduleCreated',
  'ScheduleChanged',
  'ScheduleExceptionAdded',
  'ScheduleConflictsRecorded',
];

export const scheduleStream = (scheduleId: string) => `schedule-${scheduleId}`;

/** Who a lesson event concerns (for the live rooms). */
export interface LessonAudience {
  lessonId: string;
  customerId: string;
  teacherId: string;
  coverTeacherId: string | null;
}

export type LessonKind = 'lesson' | 'mentoring-session';
export type LessonStatus = 'planned' | 'delivered' | 'not_delivered' | 'cancelled' | 'unscheduled';
export const LESSON_STATUSES: readonly LessonStatus[] = [
  'planned',
  'delivered',
  'not_delivered',
  'cancelled',
  'unscheduled',
];
export type CancelledBy = 'provider' | 'teacher' | 'partner' | 'parent' | 'student';
export const CANCELLED_BY: readonly CancelledBy[] = ['provider', 'teacher', 'partner', 'parent', 'student'];

/** Where and when a lesson takes place. */
export interface LessonTiming {
  timezone: string;
  localDate: string;
  localStart: string;
  durationMinutes: number;
  startsAt: string;
  endsAt: string;
}

export interface LessonPlannedData extends LessonAudience, LessonTiming {
  kind: LessonKind;
  programmeId: string;
  groupId: string;
  scheduleId: string | null;
  meetingId: string;
}

/** The planner moved a planned, undetached lesson because its schedule changed (not detached by it). */
export interface LessonPlanChangedData extends LessonAudience, LessonTiming {
  previousTeacherId: string | null;
}

export interface LessonRescheduledData extends LessonAudience, LessonTiming {
  reason: string;
}

export interface LessonCancelledData extends LessonAudience {
  reason: string;
  cancelledBy: CancelledBy;
  chargeCustomer: boolean;
  payTeacher: boolean;
}

export interface LessonUnscheduledData extends LessonAudience {
  scheduleId: string;
  reason: 'rule-changed' | 'skipped';
}

export interface LessonCoverTeacherChangedData extends LessonAudience {
  previousCoverTeacherId: string | null;
}

export interface LessonNotesChangedData extends LessonAudience {
  notes: string;
}

export type LessonDeliveredData = LessonAudience;

export type LessonEvent =
  | { type: 'LessonPlanned'; data: LessonPlannedData }
  | { type: 'LessonPlanChanged'; data: LessonPlanChangedData }
  | { type: 'LessonRescheduled'; data: LessonRescheduledData }
  | { type: 'LessonCancelled'; data: LessonCancelledData }
  | { type: 'LessonUnscheduled'; data: LessonUnscheduledData }
  | { type: 'LessonCoverTeacherChanged'; data: LessonCoverTeacherChangedData }
  | { type: 'LessonNotesChanged'; data: LessonNotesChangedData }
  | { type: 'LessonDelivered'; data: LessonDeliveredData };

export const LESSON_EVENT_TYPES: readonly LessonEvent['type'][] = [
  'LessonPlanned',
  'LessonPlanChanged',
  'LessonRescheduled',
  'LessonCancelled',
  'LessonUnscheduled',
  'LessonCoverTeacherChanged',
  'LessonNotesChanged',
  'LessonDelivered',
];

export const lessonStream = (lessonId: string) => `lesson-${lessonId}`;

export interface ScheduleRow {
  id: string;
  programme_id: string;
  customer_id: string;
  group_id: string;
  teacher_id: string;
  timezone: string;
  weekdays: number[];
  local_start: string;
  duration_minutes: number;
  interval_weeks: number;
  valid_from: string;
  valid_until: string | null;
  exceptions: { localDate: string; action: 'skip' | 'move'; newLocalStart: string | null }[];
  conflicts: ScheduleConflict[];
  created_at: Date;
  updated_at: Date;
  version: string;
}

export interface LessonRow {
  id: string;
  kind: LessonKind;
  programme_id: string;
  group_id: string;
  customer_id: string;
  schedule_id: string | null;
  teacher_id: string;
  cover_teacher_id: string | null;
  starts_at: Date;
  ends_at: Date;
  duration_minutes: number;
  timezone: string;
  local_date: string;
  local_start: string;
  status: LessonStatus;
  /** Edited on its own (rescheduled): schedule changes leave it alone. */
  detached: boolean;
  meeting_id: string | null;
  notes: string;
  cancellation: {
    reason: string;
    cancelledBy: CancelledBy;
    chargeCustomer: boolean;
    payTeacher: boolean;
    at: string;
  } | null;
  created_at: Date;
  updated_at: Date;
  version: string;
}

const timing = (d: LessonTiming) => ({
  timezone: d.timezone,
  local_date: d.localDate,
  local_start: d.localStart,
  duration_minutes: d.durationMinutes,
  starts_at: d.startsAt,
  ends_at: d.endsAt,
});

export const lessonsProjection = defineProjection<LessonEvent | ScheduleEvent>()({
  name: 'lessons',
  version: 1,
  tables: ['rm_schedules', 'rm_lessons'],
  schema: [
    `CREATE TABLE IF NOT EXISTS rm_schedules (
       id               uuid PRIMARY KEY,
       programme_id     uuid NOT NULL,
       customer_id      uuid NOT NULL,
       group_id         uuid NOT NULL,
       teacher_id       uuid NOT NULL,
       timezone         text NOT NULL,
       weekdays         jsonb NOT NULL,
       local_start      text NOT NULL,
       duration_minutes int NOT NULL,
       interval_weeks   int NOT NULL,
       valid_from       text NOT NULL,
       valid_until      text,
       exceptions       jsonb NOT NULL DEFAULT '[]',
       conflicts        jsonb NOT NULL DEFAULT '[]',
       created_at       timestamptz NOT NULL,
       updated_at       timestamptz NOT NULL,
       version          bigint NOT NULL
     )`,
    queryIndex(`CREATE INDEX IF NOT EXISTS rm_schedules_programme ON rm_schedules (programme_id, id)`),
    `CREATE TABLE IF NOT EXISTS rm_lessons (
       id                uuid PRIMARY KEY,
       kind              text NOT NULL,
       programme_id      uuid NOT NULL,
       group_id          uuid NOT NULL,
       customer_id       uuid NOT NULL,
       schedule_id       uuid,
       teacher_id        uuid NOT NULL,
       cover_teacher_id  uuid,
       starts_at         timestamptz NOT NULL,
       ends_at           timestamptz NOT NULL,
       duration_minutes  int NOT NULL,
       timezone          text NOT NULL,
       local_date        text NOT NULL,
       local_start       text NOT NULL,
       status            text NOT NULL,
       detached          boolean NOT NULL DEFAULT false,
       meeting_id        uuid,
       notes             text NOT NULL DEFAULT '',
       cancellation      jsonb,
       created_at        timestamptz NOT NULL,
       updated_at        timestamptz NOT NULL,
       version           bigint NOT NULL
     )`,
    queryIndex(`CREATE INDEX IF NOT EXISTS rm_lessons_starts ON rm_lessons (starts_at, id)`),
    queryIndex(`CREATE INDEX IF NOT EXISTS rm_lessons_teacher ON rm_lessons (teacher_id, starts_at)`),
    queryIndex(`CREATE INDEX IF NOT EXISTS rm_lessons_cover ON rm_lessons (cover_teacher_id, starts_at)`),
    queryIndex(`CREATE INDEX IF NOT EXISTS rm_lessons_group ON rm_lessons (group_id, starts_at)`),
    queryIndex(`CREATE INDEX IF NOT EXISTS rm_lessons_schedule ON rm_lessons (schedule_id, local_date)`),
  ],
  handles: [...SCHEDULE_EVENT_TYPES, ...LESSON_EVENT_TYPES],
  /**
   * A batch folds the lessons it touches in memory: their rows are read once, every lesson event of
   * the batch is applied to them, and the changed ones are written with one upsert (decision 0090).
   * Schedule events go through `apply`.
   */
  applyBatch: (events, tx) =>
    applyFolding(events, tx, applyLessonsEvent, (batch, t) => LessonFold.start(batch, t)),
  apply: (e, tx) => applyLessonsEvent(e, tx),
});

type LessonsEvent = ProjectionEvent & (LessonEvent | ScheduleEvent);

async function applyLessonsEvent(e: LessonsEvent, tx: ProjectionTx): Promise<void> {
  const revision = e.revision.toString();
  const at = e.metadata.occurredAt;
  switch (e.type) {
    case 'ScheduleCreated': {
      const d = e.data;
      await tx.query(
        `INSERT INTO rm_schedules (id, programme_id, customer_id, group_id, teacher_id, timezone, weekdays,
           local_start, duration_minutes, interval_weeks, valid_from, valid_until, created_at, updated_at, version)
         VALUES ($1,$2,$3,$4,$5,$6,$7::jsonb,$8,$9,$10,$11,$12,$13,$13,$14::bigint) ON CONFLICT (id) DO NOTHING`,
        [
          d.scheduleId,
          d.programmeId,
          d.customerId,
          d.groupId,
          d.teacherId,
          d.timezone,
          JSON.stringify(d.weekdays),
          d.localStart,
          d.durationMinutes,
          d.intervalWeeks,
          d.validFrom,
          d.validUntil,
          at,
          revision,
        ],
      );
      return;
    }
    case 'ScheduleChanged': {
      const d = e.data;
      await guardedSet(tx, 'rm_schedules', d.scheduleId, revision, {
        group_id: d.groupId,
        teacher_id: d.teacherId,
        timezone: d.timezone,
        weekdays: JSON.stringify(d.weekdays),
        local_start: d.localStart,
        duration_minutes: d.durationMinutes,
        interval_weeks: d.intervalWeeks,
        valid_from: d.validFrom,
        valid_until: d.validUntil,
        updated_at: at,
      });
      return;
    }
    case 'ScheduleExceptionAdded': {
      const d = e.data;
      await tx.query(
        `UPDATE rm_schedules SET
           exceptions = (SELECT coalesce(jsonb_agg(x), '[]'::jsonb) FROM jsonb_array_elements(exceptions) x
                          WHERE x->>'localDate' <> $2) || $3::jsonb,
           updated_at = $4, version = $5::bigint
         WHERE id = $1 AND version < $5::bigint`,
        [
          d.scheduleId,
          d.localDate,
          JSON.stringify([{ localDate: d.localDate, action: d.action, newLocalStart: d.newLocalStart }]),
          at,
          revision,
        ],
      );
      return;
    }
    case 'ScheduleConflictsRecorded':
      await guardedSet(tx, 'rm_schedules', e.data.scheduleId, revision, {
        conflicts: JSON.stringify(e.data.conflicts),
        updated_at: at,
      });
      return;
    case 'LessonPlanned': {
      const d = e.data;
      // A lesson unscheduled earlier is planned again when its rule produces it again.
      await tx.query(
        `INSERT INTO rm_lessons (id, kind, programme_id, group_id, customer_id, schedule_id, teacher_id,
           cover_teacher_id, starts_at, ends_at, duration_minutes, timezone, local_date, local_start, status,
           detached, meeting_id, created_at, updated_at, version)
         VALUES ($1,$2,$3,$4,$5,$6,$7,NULL,$8,$9,$10,$11,$12,$13,'planned',false,$14,$15,$15,$16::bigint)
         ON CONFLICT (id) DO UPDATE SET teacher_id = EXCLUDED.teacher_id, starts_at = EXCLUDED.starts_at,
           ends_at = EXCLUDED.ends_at, duration_minutes = EXCLUDED.duration_minutes,
           timezone = EXCLUDED.timezone, local_date = EXCLUDED.local_date, local_start = EXCLUDED.local_start,
           status = 'planned', updated_at = EXCLUDED.updated_at, version = EXCLUDED.version
         WHERE rm_lessons.version < EXCLUDED.version`,
        [
          d.lessonId,
          d.kind,
          d.programmeId,
          d.groupId,
          d.customerId,
          d.scheduleId,
          d.teacherId,
          d.startsAt,
          d.endsAt,
          d.durationMinutes,
          d.timezone,
          d.localDate,
          d.localStart,
          d.meetingId,
          at,
          revision,
        ],
      );
      return;
    }
    default:
      await guardedSet(tx, 'rm_lessons', e.data.lessonId, revision, lessonChange(e));
      return;
  }
}

/**
 * What a lesson event after its planning sets on the lesson's row, under the version guard: in SQL
 * (`guardedSet`) and in the fold (`TouchedRows.update`) alike.
 */
function lessonChange(e: ProjectionEvent & Exclude<LessonEvent, { type: 'LessonPlanned' }>) {
  const at = e.metadata.occurredAt;
  switch (e.type) {
    case 'LessonPlanChanged':
      return { ...timing(e.data), teacher_id: e.data.teacherId, updated_at: at };
    case 'LessonRescheduled':
      return { ...timing(e.data), detached: true, updated_at: at };
    case 'LessonCancelled':
      return {
        status: 'cancelled' as const,
        cancellation: JSON.stringify({
          reason: e.data.reason,
          cancelledBy: e.data.cancelledBy,
          chargeCustomer: e.data.chargeCustomer,
          payTeacher: e.data.payTeacher,
          at,
        }),
        updated_at: at,
      };
    case 'LessonUnscheduled':
      return { status: 'unscheduled' as const, updated_at: at };
    case 'LessonCoverTeacherChanged':
      return { cover_teacher_id: e.data.coverTeacherId, updated_at: at };
    case 'LessonNotesChanged':
      return { notes: e.data.notes, updated_at: at };
    case 'LessonDelivered':
      return { status: 'delivered' as const, updated_at: at };
  }
}

/**
 * A lesson row as the fold holds it: timestamps as the text the database gave or the ISO text of an
 * event, `cancellation` as JSON text, `version` as a bigint.
 */
type FoldedLesson = Omit<
  LessonRow,
  'starts_at' | 'ends_at' | 'created_at' | 'updated_at' | 'cancellation' | 'version'
> & {
  starts_at: string;
  ends_at: string;
  created_at: string;
  updated_at: string;
  cancellation: string | null;
  version: bigint;
};

const LESSON_COLUMNS: ColumnTypes<FoldedLesson> = {
  id: 'uuid',
  kind: 'text',
  programme_id: 'uuid',
  group_id: 'uuid',
  customer_id: 'uuid',
  schedule_id: 'uuid',
  teacher_id: 'uuid',
  cover_teacher_id: 'uuid',
  starts_at: 'timestamptz',
  ends_at: 'timestamptz',
  duration_minutes: 'int',
  timezone: 'text',
  local_date: 'text',
  local_start: 'text',
  status: 'text',
  detached: 'boolean',
  meeting_id: 'uuid',
  notes: 'text',
  cancellation: 'jsonb',
  created_at: 'timestamptz',
  updated_at: 'timestamptz',
  version: 'bigint',
};

const LESSON_TYPES: ReadonlySet<string> = new Set(LESSON_EVENT_TYPES);

/**
 * The lessons a batch touches, folded in memory (decision 0090). Unlike the creation folds of
 * decisions 0086–0089, it also holds lessons that existed before the batch: a lesson is planned up to
 * 26 weeks before it is delivered, so in a real log its status changes meet rows of earlier batches.
 * The kit's `TouchedRows` reads their rows once; every lesson event then follows `applyLessonsEvent`'s
 * rules and version guard in memory, and the changed rows are written once.
 */
class LessonFold {
  private constructor(private readonly lessons: TouchedRows<FoldedLesson>) {}

  static async start(events: readonly LessonsEvent[], tx: ProjectionTx): Promise<LessonFold> {
    const ids = events.flatMap((e) =>
      LESSON_TYPES.has(e.type) ? [(e.data as LessonAudience).lessonId] : [],
    );
    return new LessonFold(await TouchedRows.load(tx, 'rm_lessons', LESSON_COLUMNS, ids));
  }

  /** Applies a lesson event in memory; schedule events are left to `apply`. */
  takes(e: LessonsEvent): boolean {
    if (e.type === 'LessonPlanned') {
      this.plan(e);
      return true;
    }
    if (!LESSON_TYPES.has(e.type)) return false;
    const lessonEvent = e as ProjectionEvent & Exclude<LessonEvent, { type: 'LessonPlanned' }>;
    this.lessons.update(lessonEvent.data.lessonId, e.revision, lessonChange(lessonEvent));
    return true;
  }

  /** `LessonPlanned`: a new row, or (planned again, newer) its teacher, timing and status. */
  private plan(e: ProjectionEvent & { type: 'LessonPlanned'; data: LessonPlannedData }): void {
    const d = e.data;
    const at = e.metadata.occurredAt;
    if (this.lessons.get(d.lessonId)) {
      this.lessons.update(d.lessonId, e.revision, {
        ...timing(d),
        teacher_id: d.teacherId,
        status: 'planned',
        updated_at: at,
      });
      return;
    }
    this.lessons.create({
      id: d.lessonId,
      kind: d.kind,
      programme_id: d.programmeId,
      group_id: d.groupId,
      customer_id: d.customerId,
      schedule_id: d.scheduleId,
      teacher_id: d.teacherId,
      cover_teacher_id: null,
      ...timing(d),
      status: 'planned',
      detached: false,
      meeting_id: d.meetingId,
      notes: '',
      cancellation: null,
      created_at: at,
      updated_at: at,
      version: e.revision,
    });
  }

  write(tx: ProjectionTx): Promise<void> {
    return this.lessons.write(tx);
  }
}
