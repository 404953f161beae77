import {
  defineProjection,
  applyFolding,
  guardedSet,
  guardPasses,
  rowAbsent,
  TouchedRows,
  type ColumnTypes,
  type ProjectionEvent,
  type ProjectionTx,
} from '../projection.js';
import { GroupFold } from './group-fold.js';

/**
 * The teaching backbone's first three aggregates (issue 15 items 3 and 4; docs/decisions/0051):
 * programmes (`programme-{id}`: what a partner school commissions), groups (`group-{id}`: a
 * programme's class, with time-bound student membership and lead/assistant teachers) and enrolments
 * (`enrolment-{id}`: a student's placement in a programme, with the spec's placement enums).
 *
 * Every event carries `customerId` (the programme's partner school) so the live channel's pure rules
 * can route it; group events carry the group's `teacherIds` at that moment (on a teacher change, the
 * old and the new ones), programme and enrolment events the programme's teachers when known.
 *
 * The tables and the four query functions in `programmes.queries.ts` are a contract other areas
 * (lessons, attendance, reports) build on: /work/briefs/contract.md.
 */

export const PROGRAMME_KINDS = ['lesson', 'mentoring-session'] as const;
export type ProgrammeKind = (typeof PROGRAMME_KINDS)[number];

export const PROGRAMME_STATUSES = ['draft', 'active', 'paused', 'completed', 'cancelled'] as const;
export type ProgrammeStatus = (typeof PROGRAMME_STATUSES)[number];

export const GROUP_TEACHER_ROLES = ['lead', 'assistant'] as const;
export type GroupTeacherRole = (typeof GROUP_TEACHER_ROLES)[number];

export const ENROLMENT_STATUSES = ['requested', 'active', 'paused', 'withdrawn', 'ended'] as const;
export type EnrolmentStatus = (typeof ENROLMENT_STATUSES)[number];

/** Spec "Enumerations": placement type (NOT_SET reads "Unspecified"). */
export const PLACEMENT_TYPES = ['NOT_SET', 'MAIN', 'ONLY', 'NOT_MAIN_OR_ONLY'] as const;
export type PlacementType = (typeof PLACEMENT_TYPES)[number];

export const PLACEMENT_SETTINGS = ['NOT_SET', 'HOME', 'PARTNER_SITE', 'MIXED'] as const;
export type PlacementSetting = (typeof PLACEMENT_SETTINGS)[number];

export const PLACEMENT_REASONS = [
  'NOT_SET',
  'DAY_6',
  'PEX',
  'PREVENT_PEX',
  'EBSNA',
  'AWAITING_PLACEMENT',
  'REDUCED_TIMETABLE',
  'CLA',
  'SEMH',
  'MEDICAL_REASONS',
  'EOTAS',
  'ESOL',
  'TRIAL',
  'OTHER',
] as const;
export type PlacementReason = (typeof PLACEMENT_REASONS)[number];

// ---------------------------------------------------------------------------------------------------
// Programme events (`programme-{id}`)

/** Fields of a programme that details changes may set (customer and network are fixed at creation). */
export interface ProgrammeDetails {
  title: string;
  productId: string | null;
  subjectId: string | null;
  yearGroupId: string | null;
  kind: ProgrammeKind;
  startDate: string;
  endDate: string | null;
  timezone: string;
}

export interface ProgrammeCreatedData extends ProgrammeDetails {
  programmeId: string;
  networkId: string | null;
  customerId: string;
  /** The programme this one was copied from (`source_program_id`), or null for a new one. */
  sourceProgrammeId: string | null;
}

export interface ProgrammeDetailsChangedData extends Partial<ProgrammeDetails> {
  programmeId: string;
  customerId: string;
  /** Teachers of the programme's groups when the change was made (live routing only). */
  teacherIds?: string[];
}

export interface ProgrammeStatusChangedData {
  programmeId: string;
  customerId: string;
  reason?: string | null;
  teacherIds?: string[];
}

export type ProgrammeEvent =
  | { type: 'ProgrammeCreated'; data: ProgrammeCreatedData }
  | { type: 'ProgrammeDetailsChanged'; data: ProgrammeDetailsChangedData }
  | { type: 'ProgrammeActivated'; data: ProgrammeStatusChangedData }
  | { type: 'ProgrammePaused'; data: ProgrammeStatusChangedData }
  | { type: 'ProgrammeResumed'; data: ProgrammeStatusChangedData }
  | { type: 'ProgrammeCompleted'; data: ProgrammeStatusChangedData }
  | { type: 'ProgrammeCancelled'; data: ProgrammeStatusChangedData };

export type ProgrammeEventType = ProgrammeEvent['type'];

export const PROGRAMME_EVENT_TYPES: readonly ProgrammeEventType[] = [
  'ProgrammeCreated',
  'ProgrammeDetailsChanged',
  'ProgrammeActivated',
  'ProgrammePaused',
  'ProgrammeResumed',
  'ProgrammeCompleted',
  'ProgrammeCancelled',
];

/** The status each status event leaves the programme in. */
export const PROGRAMME_STATUS_AFTER: Record<
  Exclude<ProgrammeEventType, 'ProgrammeCreated' | 'ProgrammeDetailsChanged'>,
  ProgrammeStatus
> = {
  ProgrammeActivated: 'active',
  ProgrammePaused: 'paused',
  ProgrammeResumed: 'active',
  ProgrammeCompleted: 'completed',
  ProgrammeCancelled: 'cancelled',
};

export const programmeStream = (programmeId: string) => `programme-${programmeId}`;

// ---------------------------------------------------------------------------------------------------
// Group events (`group-{id}`)

export interface GroupTeacher {
  teacherId: string;
  role: GroupTeacherRole;
}

interface GroupEventBase {
  groupId: string;
  programmeId: string;
  customerId: string;
  /** The group's teachers at this event (on a teacher change: old and new), for live routing. */
  teacherIds: string[];
}

export interface GroupCreatedData extends GroupEventBase {
  name: string;
  teachers: GroupTeacher[];
  /** The group this one was copied from (a programme copy copies names and teachers), or null. */
  sourceGroupId: string | null;
}

export interface GroupRenamedData extends GroupEventBase {
  name: string;
}

export interface StudentAddedToGroupData extends GroupEventBase {
  studentId: string;
  /** First day of membership (yyyy-MM-dd, the programme's local date). */
  from: string;
}

export interface StudentRemovedFromGroupData extends GroupEventBase {
  studentId: string;
  /** Last day of membership, inclusive (yyyy-MM-dd). */
  to: string;
  reason?: string | null;
}

export interface GroupTeachersChangedData extends GroupEventBase {
  /** The whole new set (at most one lead). */
  teachers: GroupTeacher[];
}

export type GroupEvent =
  | { type: 'GroupCreated'; data: GroupCreatedData }
  | { type: 'GroupRenamed'; data: GroupRenamedData }
  | { type: 'StudentAddedToGroup'; data: StudentAddedToGroupData }
  | { type: 'StudentRemovedFromGroup'; data: StudentRemovedFromGroupData }
  | { type: 'GroupTeachersChanged'; data: GroupTeachersChangedData };

export type GroupEventType = GroupEvent['type'];

export const GROUP_EVENT_TYPES: readonly GroupEventType[] = [
  'GroupCreated',
  'GroupRenamed',
  'StudentAddedToGroup',
  'StudentRemovedFromGroup',
  'GroupTeachersChanged',
];

export const groupStream = (groupId: string) => `group-${groupId}`;

// ---------------------------------------------------------------------------------------------------
// Enrolment events (`enrolment-{id}`)

export interface EnrolmentDetails {
  startDate: string;
  endDate: string | null;
  placementType: PlacementType;
  setting: PlacementSetting;
  reasonForPlacement: PlacementReason;
}

interface EnrolmentEventBase {
  enrolmentId: string;
  studentId: string;
  programmeId: string;
  customerId: string;
  teacherIds?: string[];
}

export interface StudentEnrolledData extends EnrolmentEventBase, EnrolmentDetails {
  status: 'requested' | 'active';
}

export interface EnrolmentDetailsChangedData extends EnrolmentEventBase, Partial<EnrolmentDetails> {
  /** Set when the change moves between requested, active and paused. */
  status?: 'requested' | 'active' | 'paused';
}

export interface StudentWithdrawnFromEnrolmentData extends EnrolmentEventBase {
  reason: string;
  /** Last day of the placement (yyyy-MM-dd). */
  on: string;
}

export interface EnrolmentEndedData extends EnrolmentEventBase {
  on: string;
}

export type EnrolmentEvent =
  | { type: 'StudentEnrolled'; data: StudentEnrolledData }
  | { type: 'EnrolmentDetailsChanged'; data: EnrolmentDetailsChangedData }
  | { type: 'StudentWithdrawnFromEnrolment'; data: StudentWithdrawnFromEnrolmentData }
  | { type: 'EnrolmentEnded'; data: EnrolmentEndedData };

export type EnrolmentEventType = EnrolmentEvent['type'];

export const ENROLMENT_EVENT_TYPES: readonly EnrolmentEventType[] = [
  'StudentEnrolled',
  'EnrolmentDetailsChanged',
  'StudentWithdrawnFromEnrolment',
  'EnrolmentEnded',
];

export const enrolmentStream = (enrolmentId: string) => `enrolment-${enrolmentId}`;

// ---------------------------------------------------------------------------------------------------
// Rows

export interface ProgrammeRow {
  id: string;
  network_id: string | null;
  customer_id: string;
  product_id: string | null;
  subject_id: string | null;
  year_group_id: string | null;
  kind: ProgrammeKind;
  title: string;
  /** yyyy-MM-dd: the queries read every date column as text (`PROGRAMME_COLUMNS_SQL`). */
  start_date: string;
  end_date: string | null;
  timezone: string;
  status: ProgrammeStatus;
  source_programme_id: string | null;
  created_at: Date;
  updated_at: Date;
  version: string;
}

export interface GroupRow {
  id: string;
  programme_id: string;
  name: string;
  archived: boolean;
  created_at: Date;
  updated_at: Date;
  version: string;
}

export interface GroupStudentRow {
  group_id: string;
  student_id: string;
  from_date: string;
  /** Inclusive last day; null while open. */
  to_date: string | null;
}

export interface GroupTeacherRow {
  group_id: string;
  teacher_id: string;
  role: GroupTeacherRole;
}

export interface EnrolmentRow {
  id: string;
  student_id: string;
  programme_id: string;
  customer_id: string;
  start_date: string;
  end_date: string | null;
  status: EnrolmentStatus;
  placement_type: PlacementType;
  setting: PlacementSetting;
  reason_for_placement: PlacementReason;
  withdrawal_reason: string | null;
  created_at: Date;
  updated_at: Date;
  version: string;
}

// ---------------------------------------------------------------------------------------------------
// Projections

const PROGRAMME_COLUMNS: Record<keyof ProgrammeDetails, string> = {
  title: 'title',
  productId: 'product_id',
  subjectId: 'subject_id',
  yearGroupId: 'year_group_id',
  kind: 'kind',
  startDate: 'start_date',
  endDate: 'end_date',
  timezone: 'timezone',
};

/** The columns of `changes` that are present (a details change carries only what changed). */
function presentColumns<T extends object>(
  changes: T,
  columns: Record<string, string>,
): Record<string, unknown> {
  const set: Record<string, unknown> = {};
  for (const [field, column] of Object.entries(columns)) {
    const value = (changes as Record<string, unknown>)[field];
    if (value !== undefined) set[column] = value;
  }
  return set;
}

export const programmesProjection = defineProjection<ProgrammeEvent>()({
  name: 'programmes',
  version: 1,
  tables: ['rm_programmes'],
  schema: [
    `CREATE TABLE IF NOT EXISTS rm_programmes (
       id                  uuid PRIMARY KEY,
       network_id          uuid,
       customer_id         uuid NOT NULL,
       product_id          uuid,
       subject_id          uuid,
       year_group_id       uuid,
       kind                text NOT NULL,
       title               text NOT NULL,
       start_date          date NOT NULL,
       end_date            date,
       timezone            text NOT NULL,
       status              text NOT NULL,
       source_programme_id uuid,
       created_at          timestamptz NOT NULL,
       updated_at          timestamptz NOT NULL,
       version             bigint NOT NULL
     )`,
    `CREATE INDEX IF NOT EXISTS rm_programmes_customer ON rm_programmes (customer_id)`,
    `CREATE INDEX IF NOT EXISTS rm_programmes_title ON rm_programmes (lower(title), id)`,
  ],
  handles: PROGRAMME_EVENT_TYPES,
  /** A batch folds the programmes it touches in memory and writes them once (decision 0090). */
  applyBatch: (events, tx) =>
    applyFolding(events, tx, applyProgrammeEvent, (batch, t) => ProgrammeFold.start(batch, t)),
  apply: (e, tx) => applyProgrammeEvent(e, tx),
});

async function applyProgrammeEvent(e: ProjectionEvent & ProgrammeEvent, tx: ProjectionTx): Promise<void> {
  const revision = e.revision.toString();
  const at = e.metadata.occurredAt;
  switch (e.type) {
    case 'ProgrammeCreated': {
      const d = e.data;
      await tx.query(
        `INSERT INTO rm_programmes (id, network_id, customer_id, product_id, subject_id, year_group_id, kind,
           title, start_date, end_date, timezone, status, source_programme_id, created_at, updated_at, version)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, 'draft', $12, $13, $13, $14::bigint)
         ON CONFLICT (id) DO NOTHING`,
        [
          d.programmeId,
          d.networkId,
          d.customerId,
          d.productId,
          d.subjectId,
          d.yearGroupId,
          d.kind,
          d.title,
          d.startDate,
          d.endDate,
          d.timezone,
          d.sourceProgrammeId,
          at,
          revision,
        ],
      );
      return;
    }
    default:
      await guardedSet(tx, 'rm_programmes', e.data.programmeId, revision, programmeChange(e));
      return;
  }
}

/**
 * What a programme event after its creation sets on the programme's row, under the version guard: in
 * SQL (`guardedSet`) and in the fold (`TouchedRows.update`) alike.
 */
function programmeChange(
  e: ProjectionEvent & Exclude<ProgrammeEvent, { type: 'ProgrammeCreated' }>,
): Partial<FoldedProgramme> {
  const at = e.metadata.occurredAt;
  if (e.type === 'ProgrammeDetailsChanged')
    return { ...(presentColumns(e.data, PROGRAMME_COLUMNS) as Partial<FoldedProgramme>), updated_at: at };
  return { status: PROGRAMME_STATUS_AFTER[e.type], updated_at: at };
}

/** A programme row as `TouchedRows` holds it (timestamps and dates as text, the version a bigint). */
type FoldedProgramme = Omit<ProgrammeRow, 'created_at' | 'updated_at' | 'version'> & {
  created_at: string;
  updated_at: string;
  version: bigint;
};

const PROGRAMME_ROW_COLUMNS: ColumnTypes<FoldedProgramme> = {
  id: 'uuid',
  network_id: 'uuid',
  customer_id: 'uuid',
  product_id: 'uuid',
  subject_id: 'uuid',
  year_group_id: 'uuid',
  kind: 'text',
  title: 'text',
  start_date: 'date',
  end_date: 'date',
  timezone: 'text',
  status: 'text',
  source_programme_id: 'uuid',
  created_at: 'timestamptz',
  updated_at: 'timestamptz',
  version: 'bigint',
};

/**
 * The programmes a batch touches, folded in memory (decision 0090): their rows read once
 * (`TouchedRows`), every event applied with `applyProgrammeEvent`'s rules and version guard, the
 * changed rows written once.
 */
class ProgrammeFold {
  private constructor(private readonly programmes: TouchedRows<FoldedProgramme>) {}

  static async start(events: readonly (ProjectionEvent & ProgrammeEvent)[], tx: ProjectionTx) {
    const ids = events.map((e) => e.data.programmeId);
    return new ProgrammeFold(await TouchedRows.load(tx, 'rm_programmes', PROGRAMME_ROW_COLUMNS, ids));
  }

  takes(e: ProjectionEvent & ProgrammeEvent): boolean {
    const at = e.metadata.occurredAt;
    switch (e.type) {
      case 'ProgrammeCreated': {
        const d = e.data;
        // A second creation keeps the row (ON CONFLICT DO NOTHING).
        if (this.programmes.get(d.programmeId)) return true;
        this.programmes.create({
          id: d.programmeId,
          network_id: d.networkId,
          customer_id: d.customerId,
          product_id: d.productId,
          subject_id: d.subjectId,
          year_group_id: d.yearGroupId,
          kind: d.kind,
          title: d.title,
          start_date: d.startDate,
          end_date: d.endDate,
          timezone: d.timezone,
          status: 'draft',
          source_programme_id: d.sourceProgrammeId,
          created_at: at,
          updated_at: at,
          version: e.revision,
        });
        return true;
      }
      default:
        this.programmes.update(e.data.programmeId, e.revision, programmeChange(e));
        return true;
    }
  }

  write(tx: ProjectionTx): Promise<void> {
    return this.programmes.write(tx);
  }
}

/**
 * Replaces the group's teachers, computed by SQL so the projection needs no answer first (decision
 * 0070). `revision` null: only if the group row is not there yet (GroupCreated, whose insert follows);
 * else only if the guarded update of the group row to `revision`, which follows, will change it.
 */
async function replaceTeachers(
  tx: ProjectionTx,
  groupId: string,
  teachers: GroupTeacher[],
  revision: string | null,
): Promise<void> {
  const when = (rev: string) =>
    revision === null ? rowAbsent('rm_groups', '$1::uuid') : guardPasses('rm_groups', '$1::uuid', rev);
  const guard = revision === null ? [] : [revision];
  await tx.query(`DELETE FROM rm_group_teachers WHERE group_id = $1 AND ${when('$2')}`, [groupId, ...guard]);
  if (teachers.length)
    await tx.query(
      `INSERT INTO rm_group_teachers (group_id, teacher_id, role)
       SELECT $1::uuid, t.teacher_id, t.role FROM unnest($2::uuid[], $3::text[]) AS t(teacher_id, role)
        WHERE ${when('$4')}
       ON CONFLICT (group_id, teacher_id) DO UPDATE SET role = excluded.role`,
      [groupId, teachers.map((t) => t.teacherId), teachers.map((t) => t.role), ...guard],
    );
}

export const groupsProjection = defineProjection<GroupEvent>()({
  name: 'groups',
  version: 1,
  tables: ['rm_groups', 'rm_group_students', 'rm_group_teachers'],
  schema: [
    `CREATE TABLE IF NOT EXISTS rm_groups (
       id           uuid PRIMARY KEY,
       programme_id uuid NOT NULL,
       name         text NOT NULL,
       archived     boolean NOT NULL DEFAULT false,
       created_at   timestamptz NOT NULL,
       updated_at   timestamptz NOT NULL,
       version      bigint NOT NULL
     )`,
    `CREATE INDEX IF NOT EXISTS rm_groups_programme ON rm_groups (programme_id)`,
    `CREATE TABLE IF NOT EXISTS rm_group_students (
       group_id   uuid NOT NULL,
       student_id uuid NOT NULL,
       from_date  date NOT NULL,
       to_date    date,
       PRIMARY KEY (group_id, student_id, from_date)
     )`,
    `CREATE INDEX IF NOT EXISTS rm_group_students_student ON rm_group_students (student_id)`,
    `CREATE TABLE IF NOT EXISTS rm_group_teachers (
       group_id   uuid NOT NULL,
       teacher_id uuid NOT NULL,
       role       text NOT NULL,
       PRIMARY KEY (group_id, teacher_id)
     )`,
    `CREATE INDEX IF NOT EXISTS rm_group_teachers_teacher ON rm_group_teachers (teacher_id)`,
  ],
  handles: GROUP_EVENT_TYPES,
  apply: applyGroupEvent,
  // A rebuild's batches fold the groups they create (decision 0088); a live batch goes event by event.
  applyBatch: (events, tx) =>
    applyFolding(events, tx, applyGroupEvent, (batch, t) => GroupFold.start(batch, t)),
});

async function applyGroupEvent(e: ProjectionEvent & GroupEvent, tx: ProjectionTx): Promise<void> {
  const revision = e.revision.toString();
  const at = e.metadata.occurredAt;
  const groupId = e.data.groupId;
  if (e.type === 'GroupCreated') {
    // The teachers first, only if the group row is not there yet (the insert below then happens).
    await replaceTeachers(tx, groupId, e.data.teachers, null);
    await tx.query(
      `INSERT INTO rm_groups (id, programme_id, name, archived, created_at, updated_at, version)
       VALUES ($1, $2, $3, false, $4, $4, $5::bigint) ON CONFLICT (id) DO NOTHING`,
      [groupId, e.data.programmeId, e.data.name, at, revision],
    );
    return;
  }
  // The group row's version guards its child rows too: a replayed event changes nothing. The child
  // rows are written first, under the condition the guarded update below passes (decision 0070).
  const set: Record<string, unknown> = { updated_at: at };
  if (e.type === 'GroupRenamed') set.name = e.data.name;
  switch (e.type) {
    case 'StudentAddedToGroup':
      await tx.query(
        `INSERT INTO rm_group_students (group_id, student_id, from_date, to_date)
         SELECT $1::uuid, $2::uuid, $3::date, NULL::date WHERE ${guardPasses('rm_groups', '$1::uuid', '$4')}
         ON CONFLICT (group_id, student_id, from_date) DO NOTHING`,
        [groupId, e.data.studentId, e.data.from, revision],
      );
      break;
    case 'StudentRemovedFromGroup':
      // Closes the open membership; earlier (closed) rows are history and never change.
      await tx.query(
        `UPDATE rm_group_students SET to_date = $3
          WHERE group_id = $1 AND student_id = $2 AND to_date IS NULL
            AND ${guardPasses('rm_groups', '$1::uuid', '$4')}`,
        [groupId, e.data.studentId, e.data.to, revision],
      );
      break;
    case 'GroupTeachersChanged':
      await replaceTeachers(tx, groupId, e.data.teachers, revision);
      break;
    case 'GroupRenamed':
      break;
  }
  await guardedSet(tx, 'rm_groups', groupId, revision, set);
}

const ENROLMENT_COLUMNS: Record<keyof EnrolmentDetails | 'status', string> = {
  startDate: 'start_date',
  endDate: 'end_date',
  placementType: 'placement_type',
  setting: 'setting',
  reasonForPlacement: 'reason_for_placement',
  status: 'status',
};

export const enrolmentsProjection = defineProjection<EnrolmentEvent>()({
  name: 'enrolments',
  version: 1,
  tables: ['rm_enrolments'],
  schema: [
    `CREATE TABLE IF NOT EXISTS rm_enrolments (
       id                   uuid PRIMARY KEY,
       student_id           uuid NOT NULL,
       programme_id         uuid NOT NULL,
       customer_id          uuid NOT NULL,
       start_date           date NOT NULL,
       end_date             date,
       status               text NOT NULL,
       placement_type       text NOT NULL,
       setting              text NOT NULL,
       reason_for_placement text NOT NULL,
       withdrawal_reason    text,
       created_at           timestamptz NOT NULL,
       updated_at           timestamptz NOT NULL,
       version              bigint NOT NULL
     )`,
    `CREATE INDEX IF NOT EXISTS rm_enrolments_student ON rm_enrolments (student_id)`,
    `CREATE INDEX IF NOT EXISTS rm_enrolments_programme ON rm_enrolments (programme_id)`,
  ],
  handles: ENROLMENT_EVENT_TYPES,
  async apply(e, tx) {
    const revision = e.revision.toString();
    const at = e.metadata.occurredAt;
    switch (e.type) {
      case 'StudentEnrolled': {
        const d = e.data;
        await tx.query(
          `INSERT INTO rm_enrolments (id, student_id, programme_id, customer_id, start_date, end_date, status,
             placement_type, setting, reason_for_placement, withdrawal_reason, created_at, updated_at, version)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, NULL, $11, $11, $12::bigint)
           ON CONFLICT (id) DO NOTHING`,
          [
            d.enrolmentId,
            d.studentId,
            d.programmeId,
            d.customerId,
            d.startDate,
            d.endDate,
            d.status,
            d.placementType,
            d.setting,
            d.reasonForPlacement,
            at,
            revision,
          ],
        );
        return;
      }
      case 'EnrolmentDetailsChanged':
        await guardedSet(tx, 'rm_enrolments', e.data.enrolmentId, revision, {
          ...presentColumns(e.data, ENROLMENT_COLUMNS),
          updated_at: at,
        });
        return;
      case 'StudentWithdrawnFromEnrolment':
        await guardedSet(tx, 'rm_enrolments', e.data.enrolmentId, revision, {
          status: 'withdrawn',
          withdrawal_reason: e.data.reason,
          end_date: e.data.on,
          updated_at: at,
        });
        return;
      case 'EnrolmentEnded':
        await guardedSet(tx, 'rm_enrolments', e.data.enrolmentId, revision, {
          status: 'ended',
          end_date: e.data.on,
          updated_at: at,
        });
        return;
    }
  },
});
