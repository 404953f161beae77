import type { LessonAudience, LessonEvent } from '../lessons/lessons.projection.js';

/**
 * Registers (decision 0056). A register lives in its lesson's own stream (`lesson-{id}`), after the
 * lesson's events; planned absences have their own streams (`plannedAbsence-{id}`). Every register
 * event carries the lesson's audience (customer, teacher, cover teacher) so the live rules route it
 * without reading anything else.
 */

/** What happened in an online lesson (the provider's fact; the school owns the statutory code). */
export type AttendanceMark =
  | 'present'
  | 'late'
  | 'left_early'
  | 'absent_pending'
  | 'absent'
  | 'not_required'
  | 'tech_failure_provider'
  | 'tech_failure_pupil';

export const ATTENDANCE_MARKS: readonly AttendanceMark[] = [
  'present',
  'late',
  'left_early',
  'absent_pending',
  'absent',
  'not_required',
  'tech_failure_provider',
  'tech_failure_pupil',
];

/** Marks that count as attended. */
export const ATTENDED_MARKS: readonly AttendanceMark[] = ['present', 'late', 'left_early'];

/** Why a pupil was absent (each suggests a DfE code, see attendance-codes.ts). */
export type AbsenceReason =
  | 'illness'
  | 'medical'
  | 'religious'
  | 'interview'
  | 'study_leave'
  | 'excluded'
  | 'authorised_other'
  | 'unauthorised'
  | 'holiday_not_agreed'
  | 'unable_transport'
  | 'on_site_at_school';

export const ABSENCE_REASONS: readonly AbsenceReason[] = [
  'illness',
  'medical',
  'religious',
  'interview',
  'study_leave',
  'excluded',
  'authorised_other',
  'unauthorised',
  'holiday_not_agreed',
  'unable_transport',
  'on_site_at_school',
];

/**
 * Who wrote an entry: a teacher or administrator, a partner, the system from meeting joins (unconfirmed
 * until the teacher confirms it), the system's prefills.
 */
export type EntrySource = 'teacher' | 'admin' | 'partner' | 'meeting' | 'prefill';

/** One student's line in the register, as recorded. */
export interface RegisterEntry {
  mark: AttendanceMark;
  minutesLate: number | null;
  minutesMissed: number | null;
  absenceReason: AbsenceReason | null;
  suggestedCode: string | null;
}

/** Who made a change, snapshotted when it was made (the statutory "name and position"). */
export interface ActingPerson {
  id: string;
  name: string;
  /** Job title (staff) or relationship to the pupil (partners: "Parent / Carer", "Link Contact"). */
  position: string;
}

export interface RosterLine {
  studentId: string;
  /** `enrolled`: in the lesson's group on its date; `guest`: added from elsewhere. */
  basis: 'enrolled' | 'guest';
}

/** A reason known before the student was marked (a planned absence or a partner's reason). */
export interface Prefill {
  studentId: string;
  absenceReason: AbsenceReason;
  source: 'planned_absence' | 'partner';
  plannedAbsenceId: string | null;
}

export interface RegisterOpenedData extends LessonAudience {
  openedAt: string;
  roster: RosterLine[];
  prefills: Prefill[];
  /** The lesson's local date and start: the read models' period keys. */
  localDate: string;
  startsAt: string;
  /** The lesson's length: minutes planned per student (the aggregates read it without the lesson). */
  durationMinutes: number;
  programmeId: string;
  groupId: string;
}

export interface GuestStudentAddedData extends LessonAudience {
  studentId: string;
  /** The group the student belongs to that day, if any. */
  homeGroupId: string | null;
}

export interface AttendanceMarkRecordedData extends LessonAudience, RegisterEntry {
  studentId: string;
  source: EntrySource;
  recordedAt: string;
  recordedBy: ActingPerson;
  clientKey: string | null;
}

export interface AttendanceMarkAmendedData extends LessonAudience {
  studentId: string;
  /** The entry as it stood before this amendment. */
  original: RegisterEntry;
  amended: RegisterEntry;
  reason: string;
  amendedAt: string;
  amendedBy: ActingPerson;
  source: EntrySource;
  clientKey: string | null;
}

export interface AbsenceReasonProvidedData extends LessonAudience {
  studentId: string;
  absenceReason: AbsenceReason;
  note: string | null;
  providedAt: string;
  providedBy: ActingPerson;
}

export interface RegisterVoidedData extends LessonAudience {
  reason: string;
}

export type RegisterEvent =
  | { type: 'RegisterOpened'; data: RegisterOpenedData }
  | { type: 'GuestStudentAddedToRegister'; data: GuestStudentAddedData }
  | { type: 'AttendanceMarkRecorded'; data: AttendanceMarkRecordedData }
  | { type: 'AttendanceMarkAmended'; data: AttendanceMarkAmendedData }
  | { type: 'AbsenceReasonProvided'; data: AbsenceReasonProvidedData }
  | { type: 'RegisterVoided'; data: RegisterVoidedData };

export const REGISTER_EVENT_TYPES: readonly RegisterEvent['type'][] = [
  'RegisterOpened',
  'GuestStudentAddedToRegister',
  'AttendanceMarkRecorded',
  'AttendanceMarkAmended',
  'AbsenceReasonProvided',
  'RegisterVoided',
];

/** Everything a lesson stream holds: the lesson's own events, then its register's. */
export type LessonStreamEvent = LessonEvent | RegisterEvent;

export const isRegisterEvent = (e: { type: string }): e is RegisterEvent =>
  (REGISTER_EVENT_TYPES as readonly string[]).includes(e.type);

/** A partner's (or an administrator's) notice that a pupil will miss lessons from one date to another. */
export interface PlannedAbsenceRecordedData {
  plannedAbsenceId: string;
  studentId: string;
  customerId: string;
  /** Local dates, inclusive. */
  from: string;
  to: string;
  absenceReason: AbsenceReason;
  note: string | null;
  recordedBy: ActingPerson;
}

export interface PlannedAbsenceWithdrawnData {
  plannedAbsenceId: string;
  studentId: string;
  customerId: string;
}

export type PlannedAbsenceEvent =
  | { type: 'PlannedAbsenceRecorded'; data: PlannedAbsenceRecordedData }
  | { type: 'PlannedAbsenceWithdrawn'; data: PlannedAbsenceWithdrawnData };

export const PLANNED_ABSENCE_EVENT_TYPES: readonly PlannedAbsenceEvent['type'][] = [
  'PlannedAbsenceRecorded',
  'PlannedAbsenceWithdrawn',
];

export const plannedAbsenceStream = (id: string) => `plannedAbsence-${id}`;
