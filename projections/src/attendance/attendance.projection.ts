import {
  absentIds,
  defineProjection,
  FOLD_FROM,
  guardedSet,
  insertRows,
  NEW_ROWS,
  queryIndex,
  type ColumnTypes,
  type ProjectionEvent,
  type ProjectionTx,
} from '../projection.js';
import type { LessonCancelledData } from '../lessons/lessons.projection.js';
import { ERASED } from '../users/user-events.js';
import type {
  ActingPerson,
  AttendanceMarkAmendedData,
  EntrySource,
  PlannedAbsenceEvent,
  RegisterEntry,
  RegisterEvent,
} from './attendance-events.js';

/**
 * Registers, their entries and the amendment ledger (decision 0056), from the lesson streams; planned
 * absences from their own streams. One row per register (`rm_registers`, stamped with the lesson
 * stream's revision), one per student on it (`rm_register_entries`, stamped per row, so each event
 * changes its student's row once), and one per amendment (`rm_attendance_amendments`, keyed by the
 * event id: append-only, a replay inserts nothing). Times of the lesson are copied onto the entries
 * so the attendance lists filter without a join.
 *
 * A batch (a rebuild's pages) folds the registers it opens in memory and writes each of their rows once
 * with its final values (decision 0086): see `RegisterFold`.
 */

export interface RegisterRow {
  lesson_id: string;
  customer_id: string;
  opened_at: Date;
  voided: boolean;
  version: string;
}

export interface RegisterEntryRow {
  lesson_id: string;
  student_id: string;
  customer_id: string;
  programme_id: string;
  group_id: string;
  local_date: string;
  starts_at: Date;
  duration_minutes: number;
  basis: 'enrolled' | 'guest';
  home_group_id: string | null;
  mark: RegisterEntry['mark'] | null;
  minutes_late: number | null;
  minutes_missed: number | null;
  absence_reason: RegisterEntry['absenceReason'];
  suggested_code: string | null;
  source: EntrySource | null;
  /** A prefilled reason (planned absence or partner), shown until the student is marked. */
  prefill_reason: RegisterEntry['absenceReason'];
  prefill_source: 'planned_absence' | 'partner' | null;
  recorded_at: Date | null;
  recorded_by: ActingPerson | null;
  amendments: number;
  voided: boolean;
  version: string;
}

export interface AmendmentRow {
  id: string;
  lesson_id: string;
  student_id: string;
  customer_id: string;
  original: RegisterEntry;
  amended: RegisterEntry;
  reason: string;
  amended_at: Date;
  amended_by: ActingPerson;
  source: EntrySource;
  position: string;
}

export interface PlannedAbsenceRow {
  id: string;
  student_id: string;
  customer_id: string;
  from_date: string;
  to_date: string;
  absence_reason: string;
  note: string | null;
  recorded_by: ActingPerson;
  withdrawn: boolean;
  created_at: Date;
  version: string;
}

type Handled =
  | RegisterEvent
  | PlannedAbsenceEvent
  | { type: 'LessonCancelled'; data: LessonCancelledData }
  | { type: 'UserPersonalDataErased'; data: { userId: string } };

const entrySet = (e: RegisterEntry) => ({
  mark: e.mark,
  minutes_late: e.minutesLate,
  minutes_missed: e.minutesMissed,
  absence_reason: e.absenceReason,
  suggested_code: e.suggestedCode,
});

/** Updates one student's row once per event (the row's version is the last revision applied to it). */
async function updateEntry(
  tx: ProjectionTx,
  lessonId: string,
  studentId: string,
  revision: string,
  set: Record<string, unknown>,
): Promise<void> {
  const params: unknown[] = [lessonId, studentId, revision];
  const assignments = Object.entries(set).map(([column, value]) => {
    params.push(value);
    return `${column} = $${params.length}`;
  });
  await tx.query(
    `UPDATE rm_register_entries SET ${[...assignments, 'version = $3::bigint'].join(', ')}
      WHERE lesson_id = $1 AND student_id = $2 AND version < $3::bigint`,
    params,
  );
}

export const attendanceProjection = defineProjection<Handled>()({
  name: 'attendance',
  version: 2,
  tables: ['rm_registers', 'rm_register_entries', 'rm_attendance_amendments', 'rm_planned_absences'],
  schema: [
    `CREATE TABLE IF NOT EXISTS rm_registers (
       lesson_id    uuid PRIMARY KEY,
       customer_id  uuid NOT NULL,
       opened_at    timestamptz NOT NULL,
       voided       boolean NOT NULL DEFAULT false,
       version      bigint NOT NULL
     )`,
    `CREATE TABLE IF NOT EXISTS rm_register_entries (
       lesson_id       uuid NOT NULL,
       student_id      uuid NOT NULL,
       customer_id     uuid NOT NULL,
       programme_id    uuid NOT NULL,
       group_id        uuid NOT NULL,
       local_date      text NOT NULL,
       starts_at       timestamptz NOT NULL,
       duration_minutes int NOT NULL,
       basis           text NOT NULL,
       home_group_id   uuid,
       mark            text,
       minutes_late    int,
       minutes_missed  int,
       absence_reason  text,
       suggested_code  text,
       source          text,
       prefill_reason  text,
       prefill_source  text,
       recorded_at     timestamptz,
       recorded_by     jsonb,
       amendments      int NOT NULL DEFAULT 0,
       voided          boolean NOT NULL DEFAULT false,
       version         bigint NOT NULL,
       PRIMARY KEY (lesson_id, student_id)
     )`,
    queryIndex(
      `CREATE INDEX IF NOT EXISTS rm_register_entries_student ON rm_register_entries (student_id, starts_at)`,
    ),
    queryIndex(
      `CREATE INDEX IF NOT EXISTS rm_register_entries_customer ON rm_register_entries (customer_id, starts_at)`,
    ),
    queryIndex(
      `CREATE INDEX IF NOT EXISTS rm_register_entries_programme ON rm_register_entries (programme_id, starts_at)`,
    ),
    queryIndex(
      `CREATE INDEX IF NOT EXISTS rm_register_entries_group ON rm_register_entries (group_id, starts_at)`,
    ),
    queryIndex(`CREATE INDEX IF NOT EXISTS rm_register_entries_pending ON rm_register_entries (starts_at)
       WHERE mark = 'absent_pending' AND NOT voided`),
    `CREATE TABLE IF NOT EXISTS rm_attendance_amendments (
       id           uuid PRIMARY KEY,
       lesson_id    uuid NOT NULL,
       student_id   uuid NOT NULL,
       customer_id  uuid NOT NULL,
       original     jsonb NOT NULL,
       amended      jsonb NOT NULL,
       reason       text NOT NULL,
       amended_at   timestamptz NOT NULL,
       amended_by   jsonb NOT NULL,
       source       text NOT NULL,
       position     bigint NOT NULL
     )`,
    queryIndex(
      `CREATE INDEX IF NOT EXISTS rm_attendance_amendments_lesson ON rm_attendance_amendments (lesson_id, position)`,
    ),
    `CREATE INDEX IF NOT EXISTS rm_attendance_amendments_by ON rm_attendance_amendments ((amended_by->>'id'), amended_at)`,
    `CREATE TABLE IF NOT EXISTS rm_planned_absences (
       id              uuid PRIMARY KEY,
       student_id      uuid NOT NULL,
       customer_id     uuid NOT NULL,
       from_date       text NOT NULL,
       to_date         text NOT NULL,
       absence_reason  text NOT NULL,
       note            text,
       recorded_by     jsonb NOT NULL,
       withdrawn       boolean NOT NULL DEFAULT false,
       created_at      timestamptz NOT NULL,
       version         bigint NOT NULL
     )`,
    queryIndex(
      `CREATE INDEX IF NOT EXISTS rm_planned_absences_student ON rm_planned_absences (student_id, from_date)`,
    ),
  ],
  handles: [
    'RegisterOpened',
    'GuestStudentAddedToRegister',
    'AttendanceMarkRecorded',
    'AttendanceMarkAmended',
    'AbsenceReasonProvided',
    'RegisterVoided',
    'PlannedAbsenceRecorded',
    'PlannedAbsenceWithdrawn',
    'LessonCancelled',
    'UserPersonalDataErased',
  ],
  apply: applyEvent,
  async applyBatch(events, tx) {
    if (events.length < FOLD_FROM) {
      for (const e of events) await applyEvent(e, tx);
      return;
    }
    const fold = await RegisterFold.start(events, tx);
    for (const e of events) {
      if (e.type === 'UserPersonalDataErased') fold.erase(e.data.userId);
      if (!fold.takes(e)) await applyEvent(e, tx);
      // An amendment folded into its line still goes to the ledger by SQL, in turn.
      else if (e.type === 'AttendanceMarkAmended') await insertAmendment(tx, e);
    }
    await fold.write(tx);
  },
});

type Event = ProjectionEvent & Handled;

async function applyEvent(e: Event, tx: ProjectionTx): Promise<void> {
  const revision = e.revision.toString();
  switch (e.type) {
    case 'UserPersonalDataErased': {
      // The person's name leaves the ledger and the registers; the facts they recorded stay
      // (decision 0061). A rebuild reads "[erased]" from the event store itself.
      const erased = JSON.stringify(ERASED);
      for (const [table, column] of [
        ['rm_register_entries', 'recorded_by'],
        ['rm_attendance_amendments', 'amended_by'],
        ['rm_planned_absences', 'recorded_by'],
      ] as const)
        await tx.query(
          `UPDATE ${table} SET ${column} = jsonb_set(${column}, '{name}', $2::jsonb)
              WHERE ${column}->>'id' = $1 AND ${column}->>'name' IS DISTINCT FROM $3`,
          [e.data.userId, erased, ERASED],
        );
      return;
    }
    case 'RegisterOpened': {
      const d = e.data;
      // No answer awaited (write-behind, decision 0063): replaying this event inserts nothing, since
      // register lines are never deleted and each insert keeps an existing row.
      await tx.query(
        `INSERT INTO rm_registers (lesson_id, customer_id, opened_at, version)
           VALUES ($1, $2, $3, $4::bigint) ON CONFLICT (lesson_id) DO NOTHING`,
        [d.lessonId, d.customerId, d.openedAt, revision],
      );
      const prefill = new Map(d.prefills.map((p) => [p.studentId, p]));
      for (const line of d.roster) {
        const p = prefill.get(line.studentId);
        await tx.query(
          `INSERT INTO rm_register_entries (lesson_id, student_id, customer_id, programme_id, group_id,
               local_date, starts_at, duration_minutes, basis, prefill_reason, prefill_source, version)
             VALUES ($1,$2,$3,$4,$5,$6,$7,$12,$8,$9,$10,$11::bigint) ON CONFLICT DO NOTHING`,
          [
            d.lessonId,
            line.studentId,
            d.customerId,
            d.programmeId,
            d.groupId,
            d.localDate,
            d.startsAt,
            line.basis,
            p?.absenceReason ?? null,
            p?.source ?? null,
            revision,
            d.durationMinutes,
          ],
        );
      }
      return;
    }
    case 'GuestStudentAddedToRegister': {
      const d = e.data;
      // A copy of the register's first row gives the lesson's keys.
      await tx.query(
        `INSERT INTO rm_register_entries (lesson_id, student_id, customer_id, programme_id, group_id,
             local_date, starts_at, duration_minutes, basis, home_group_id, version)
           SELECT lesson_id, $2, customer_id, programme_id, group_id, local_date, starts_at, duration_minutes, 'guest',
             $3, $4::bigint
             FROM rm_register_entries WHERE lesson_id = $1 LIMIT 1
           ON CONFLICT DO NOTHING`,
        [d.lessonId, d.studentId, d.homeGroupId, revision],
      );
      return;
    }
    case 'AttendanceMarkRecorded': {
      const d = e.data;
      await updateEntry(tx, d.lessonId, d.studentId, revision, {
        ...entrySet(d),
        source: d.source,
        recorded_at: d.recordedAt,
        recorded_by: JSON.stringify(d.recordedBy),
      });
      return;
    }
    case 'AttendanceMarkAmended': {
      const d = e.data;
      // A replay inserts nothing and the line's version guard keeps `amendments` from counting twice.
      await insertAmendment(tx, e);
      await tx.query(
        `UPDATE rm_register_entries SET mark = $4, minutes_late = $5, minutes_missed = $6,
             absence_reason = $7, suggested_code = $8, source = $9, recorded_at = $10, recorded_by = $11::jsonb,
             amendments = amendments + 1, version = $3::bigint
           WHERE lesson_id = $1 AND student_id = $2 AND version < $3::bigint`,
        [
          d.lessonId,
          d.studentId,
          revision,
          d.amended.mark,
          d.amended.minutesLate,
          d.amended.minutesMissed,
          d.amended.absenceReason,
          d.amended.suggestedCode,
          d.source,
          d.amendedAt,
          JSON.stringify(d.amendedBy),
        ],
      );
      return;
    }
    case 'AbsenceReasonProvided':
      // Before the student is marked it waits as a prefill; after, the amendment that comes with it changes the row.
      await tx.query(
        `UPDATE rm_register_entries SET prefill_reason = $4, prefill_source = 'partner', version = $3::bigint
            WHERE lesson_id = $1 AND student_id = $2 AND version < $3::bigint`,
        [e.data.lessonId, e.data.studentId, revision, e.data.absenceReason],
      );
      return;
    case 'RegisterVoided':
      await guardedVoid(tx, e.data.lessonId, revision);
      return;
    case 'LessonCancelled':
      await guardedVoid(tx, e.data.lessonId, revision);
      return;
    case 'PlannedAbsenceRecorded': {
      const d = e.data;
      await tx.query(
        `INSERT INTO rm_planned_absences (id, student_id, customer_id, from_date, to_date, absence_reason, note,
             recorded_by, created_at, version)
           VALUES ($1,$2,$3,$4,$5,$6,$7,$8::jsonb,$9,$10::bigint) ON CONFLICT (id) DO NOTHING`,
        [
          d.plannedAbsenceId,
          d.studentId,
          d.customerId,
          d.from,
          d.to,
          d.absenceReason,
          d.note,
          JSON.stringify(d.recordedBy),
          e.metadata.occurredAt,
          revision,
        ],
      );
      return;
    }
    case 'PlannedAbsenceWithdrawn':
      await guardedSet(tx, 'rm_planned_absences', e.data.plannedAbsenceId, revision, {
        withdrawn: true,
      });
      return;
  }
}

/** A cancelled lesson's register (if any) no longer counts; its rows stay. */
async function guardedVoid(tx: ProjectionTx, lessonId: string, revision: string): Promise<void> {
  await tx.query(
    `UPDATE rm_registers SET voided = true, version = $2::bigint WHERE lesson_id = $1 AND version < $2::bigint`,
    [lessonId, revision],
  );
  await tx.query(`UPDATE rm_register_entries SET voided = true WHERE lesson_id = $1`, [lessonId]);
}

/** Records an amendment in the ledger; a replay inserts nothing (the row is keyed by the event id). */
async function insertAmendment(
  tx: ProjectionTx,
  e: ProjectionEvent & { type: 'AttendanceMarkAmended'; data: AttendanceMarkAmendedData },
): Promise<void> {
  const d = e.data;
  await tx.query(
    `INSERT INTO rm_attendance_amendments (id, lesson_id, student_id, customer_id, original, amended,
       reason, amended_at, amended_by, source, position)
     VALUES ($1,$2,$3,$4,$5::jsonb,$6::jsonb,$7,$8,$9::jsonb,$10,$11::bigint)
     ON CONFLICT (id) DO NOTHING`,
    [
      e.id,
      d.lessonId,
      d.studentId,
      d.customerId,
      JSON.stringify(d.original),
      JSON.stringify(d.amended),
      d.reason,
      d.amendedAt,
      JSON.stringify(d.amendedBy),
      d.source,
      e.position.toString(),
    ],
  );
}

/** A register row held in memory by `RegisterFold`. */
interface FoldedRegister {
  lesson_id: string;
  customer_id: string;
  opened_at: string;
  voided: boolean;
  version: bigint;
}

/** A register line held in memory by `RegisterFold` (jsonb as its object until written). */
type FoldedEntry = Omit<RegisterEntryRow, 'starts_at' | 'recorded_at' | 'recorded_by' | 'version'> & {
  starts_at: string;
  recorded_at: string | null;
  recorded_by: ActingPerson | null;
  version: bigint;
};

const REGISTER_COLUMNS: ColumnTypes<FoldedRegister> = {
  lesson_id: 'uuid',
  customer_id: 'uuid',
  opened_at: 'timestamptz',
  voided: 'boolean',
  version: 'bigint',
};

const ENTRY_COLUMNS: ColumnTypes<FoldedEntry> = {
  lesson_id: 'uuid',
  student_id: 'uuid',
  customer_id: 'uuid',
  programme_id: 'uuid',
  group_id: 'uuid',
  local_date: 'text',
  starts_at: 'timestamptz',
  duration_minutes: 'int',
  basis: 'text',
  home_group_id: 'uuid',
  mark: 'text',
  minutes_late: 'int',
  minutes_missed: 'int',
  absence_reason: 'text',
  suggested_code: 'text',
  source: 'text',
  prefill_reason: 'text',
  prefill_source: 'text',
  recorded_at: 'timestamptz',
  recorded_by: 'jsonb',
  amendments: 'int',
  voided: 'boolean',
  version: 'bigint',
};

/** The columns every line of one register has alike (copied from the opening, or by a guest from a line). */
const LESSON_COLUMNS = [
  'customer_id',
  'programme_id',
  'group_id',
  'local_date',
  'starts_at',
  'duration_minutes',
] as const satisfies readonly (keyof FoldedEntry)[];
type LessonColumns = Pick<FoldedEntry, (typeof LESSON_COLUMNS)[number]>;

/** The lesson an event of a lesson stream is about (null for other events). */
function lessonOf(e: Event): string | null {
  switch (e.type) {
    case 'RegisterOpened':
    case 'GuestStudentAddedToRegister':
    case 'AttendanceMarkRecorded':
    case 'AttendanceMarkAmended':
    case 'AbsenceReasonProvided':
    case 'RegisterVoided':
    case 'LessonCancelled':
      return e.data.lessonId.toLowerCase();
    default:
      return null;
  }
}

/**
 * The registers of a batch's lessons that had no register row when the batch began (decision 0086).
 * Each row of such a lesson (its register, its lines) exists only through this batch's events, so the
 * events are applied to rows in memory, each with the same rule and guard as `applyEvent`'s SQL, and
 * every row is written once, with its final values, when the batch ends: one statement per table
 * instead of an INSERT and then an UPDATE per mark. In a rebuild that is nearly every register.
 *
 * Nothing else in the batch reads or writes those rows before they are written: the other lessons'
 * events touch their own lessons' rows, a guest's line copies its own lesson's, and the one event that
 * reaches across lessons, an erasure, is applied to the rows in memory too (its SQL, run in turn,
 * changes the rows already in the tables). Amendments still go to their ledger by SQL, in order, so an
 * erasure later in the batch finds them there. The effect is that of `applyEvent` for each in turn,
 * which the projection contract checks (rebuild in one batch equals event by event).
 */
class RegisterFold {
  private readonly registers = new Map<string, FoldedRegister>();
  /** Per lesson, its lines by student, in the order they were inserted. */
  private readonly entries = new Map<string, Map<string, FoldedEntry>>();

  private constructor(private readonly absent: ReadonlySet<string>) {}

  /** Reads which of the batch's lessons have no register row yet (one round trip). */
  static async start(events: readonly Event[], tx: ProjectionTx): Promise<RegisterFold> {
    const lessons = events.flatMap((e) => lessonOf(e) ?? []);
    return new RegisterFold(await absentIds(tx, 'rm_registers', lessons, 'lesson_id'));
  }

  /** Applies `e` in memory when it is about a lesson this fold holds; false leaves it to SQL. */
  takes(e: Event): boolean {
    const lesson = lessonOf(e);
    if (lesson === null || !this.absent.has(lesson)) return false;
    const revision = e.revision;
    switch (e.type) {
      case 'RegisterOpened': {
        const d = e.data;
        if (!this.registers.has(lesson))
          this.registers.set(lesson, {
            lesson_id: lesson,
            customer_id: d.customerId,
            opened_at: d.openedAt,
            voided: false,
            version: revision,
          });
        const lines = this.linesOf(lesson);
        const prefill = new Map(d.prefills.map((p) => [p.studentId, p]));
        const lessonColumns: LessonColumns = {
          customer_id: d.customerId,
          programme_id: d.programmeId,
          group_id: d.groupId,
          local_date: d.localDate,
          starts_at: d.startsAt,
          duration_minutes: d.durationMinutes,
        };
        for (const line of d.roster) {
          const student = line.studentId.toLowerCase();
          if (lines.has(student)) continue;
          const p = prefill.get(line.studentId);
          lines.set(student, {
            ...newLine(lesson, student, revision, lessonColumns, line.basis),
            prefill_reason: p?.absenceReason ?? null,
            prefill_source: p?.source ?? null,
          });
        }
        return true;
      }
      case 'GuestStudentAddedToRegister': {
        const lines = this.linesOf(lesson);
        const student = e.data.studentId.toLowerCase();
        const first = lines.values().next().value;
        if (first && !lines.has(student))
          // A copy of the register's first line gives the lesson's columns, as the SQL's does.
          lines.set(student, {
            ...newLine(lesson, student, revision, first, 'guest'),
            home_group_id: e.data.homeGroupId,
          });
        return true;
      }
      case 'AttendanceMarkRecorded': {
        const d = e.data;
        const line = this.line(lesson, d.studentId, revision);
        if (line)
          Object.assign(line, entrySet(d), {
            source: d.source,
            recorded_at: d.recordedAt,
            recorded_by: d.recordedBy,
            version: revision,
          });
        return true;
      }
      case 'AttendanceMarkAmended': {
        const d = e.data;
        const line = this.line(lesson, d.studentId, revision);
        if (line)
          Object.assign(line, entrySet(d.amended), {
            source: d.source,
            recorded_at: d.amendedAt,
            recorded_by: d.amendedBy,
            amendments: line.amendments + 1,
            version: revision,
          });
        return true;
      }
      case 'AbsenceReasonProvided': {
        const line = this.line(lesson, e.data.studentId, revision);
        if (line)
          Object.assign(line, {
            prefill_reason: e.data.absenceReason,
            prefill_source: 'partner',
            version: revision,
          });
        return true;
      }
      case 'RegisterVoided':
      case 'LessonCancelled': {
        const register = this.registers.get(lesson);
        if (register && register.version < revision)
          Object.assign(register, { voided: true, version: revision });
        for (const line of this.entries.get(lesson)?.values() ?? []) line.voided = true;
        return true;
      }
      default:
        return false;
    }
  }

  /** An erasure reaches the lines in memory as its SQL reaches the rows in the tables. */
  erase(userId: string): void {
    for (const lines of this.entries.values())
      for (const line of lines.values())
        if (line.recorded_by?.id === userId && line.recorded_by.name !== ERASED)
          line.recorded_by = { ...line.recorded_by, name: ERASED };
  }

  /**
   * Writes every folded row, once, with its final values. They are new rows (their registers were
   * absent, each line once per student), so they go without a conflict clause: by COPY on PostgreSQL.
   */
  async write(tx: ProjectionTx): Promise<void> {
    await insertRows(
      tx,
      'rm_registers',
      REGISTER_COLUMNS,
      [...this.registers.values()].map(withVersionText),
      NEW_ROWS,
    );
    const lines: FoldedEntry[] = [];
    for (const byStudent of this.entries.values()) lines.push(...byStudent.values());
    await insertRows(
      tx,
      'rm_register_entries',
      ENTRY_COLUMNS,
      lines.map((l) => ({
        ...withVersionText(l),
        recorded_by: l.recorded_by === null ? null : JSON.stringify(l.recorded_by),
      })),
      // A register's lines share its lesson's columns: sent once per lesson.
      { ...NEW_ROWS, shared: { key: 'lesson_id', columns: LESSON_COLUMNS } },
    );
  }

  private linesOf(lesson: string): Map<string, FoldedEntry> {
    let lines = this.entries.get(lesson);
    if (!lines) this.entries.set(lesson, (lines = new Map<string, FoldedEntry>()));
    return lines;
  }

  /** The line an update of `revision` changes: it exists and is older (the SQL's version guard). */
  private line(lesson: string, studentId: string, revision: bigint): FoldedEntry | null {
    const line = this.entries.get(lesson)?.get(studentId.toLowerCase());
    return line && line.version < revision ? line : null;
  }
}

/** A new register line: its lesson's columns, its basis, nothing recorded yet. */
function newLine(
  lesson: string,
  student: string,
  revision: bigint,
  lessonColumns: LessonColumns,
  basis: FoldedEntry['basis'],
): FoldedEntry {
  return {
    lesson_id: lesson,
    student_id: student,
    customer_id: lessonColumns.customer_id,
    programme_id: lessonColumns.programme_id,
    group_id: lessonColumns.group_id,
    local_date: lessonColumns.local_date,
    starts_at: lessonColumns.starts_at,
    duration_minutes: lessonColumns.duration_minutes,
    basis,
    home_group_id: null,
    mark: null,
    minutes_late: null,
    minutes_missed: null,
    absence_reason: null,
    suggested_code: null,
    source: null,
    prefill_reason: null,
    prefill_source: null,
    recorded_at: null,
    recorded_by: null,
    amendments: 0,
    voided: false,
    version: revision,
  };
}

const withVersionText = <Row extends { version: bigint }>(row: Row) => ({
  ...row,
  version: row.version.toString(),
});
