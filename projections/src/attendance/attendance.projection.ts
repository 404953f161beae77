import { defineProjection, guardedSet, queryIndex, type ProjectionTx } from '../projection.js';
import type { LessonCancelledData } from '../lessons/lessons.projection.js';
import { ERASED } from '../users/user-events.js';
import type {
  ActingPerson,
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
  async apply(e, tx) {
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
  },
});

/** A cancelled lesson's register (if any) no longer counts; its rows stay. */
async function guardedVoid(tx: ProjectionTx, lessonId: string, revision: string): Promise<void> {
  await tx.query(
    `UPDATE rm_registers SET voided = true, version = $2::bigint WHERE lesson_id = $1 AND version < $2::bigint`,
    [lessonId, revision],
  );
  await tx.query(`UPDATE rm_register_entries SET voided = true WHERE lesson_id = $1`, [lessonId]);
}
