import { defineProjection, queryIndex } from '../projection.js';
import type { IncidentEvent } from '../safeguarding/safeguarding-events.js';
import type { UserEvent } from '../users/user-events.js';
import type { LessonAudience, LessonEvent } from '../lessons/lessons.projection.js';
import type { GroupEvent } from '../programmes/programmes.projection.js';
import type { RegisterEvent } from '../attendance/attendance-events.js';
import type { CustomerEvent } from '../customers/customers.projection.js';

/**
 * The notification inbox (issue 18 item 3): what each person is told, built only from events so a
 * rebuild gives the same inbox. The projection keeps the little it needs to know who is told what in
 * its own tables (who is a safeguarding lead, who reported which incident): it never reads another
 * projection's tables, which may be behind or rebuilding.
 *
 * Notifications name what happened and link to it; they carry no free text from the record (a
 * safeguarding description never leaves the incident). "Read" is a cursor per person: everything at
 * or below the position they last marked read (`NotificationsRead` in `notifications-{userId}`).
 */
export interface NotificationsReadData {
  userId: string;
  /** Everything at or below this event position counts as read. */
  upToPosition: string;
}

export type NotificationEvent = { type: 'NotificationsRead'; data: NotificationsReadData };

export const notificationsStream = (userId: string) => `notifications-${userId}`;

export const NOTIFICATION_KINDS = [
  'incident-reported',
  'incident-escalated',
  'concern-stage',
  'lesson-changed',
  'absence-no-reason',
  'attendance-amended',
] as const;
/** The attendance alerts (decision 0061): told to the school's attendance contacts, and e-mailed. */
export const ATTENDANCE_ALERT_KINDS = ['absence-no-reason', 'attendance-amended'] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

export interface NotificationRow {
  event_id: string;
  user_id: string;
  kind: NotificationKind;
  title: string;
  link: string;
  position: string;
  created_at: Date;
  /** What the notification is about, by id only (attendance alerts: the lesson and the student). */
  detail: { lessonId?: string; studentId?: string } | null;
}

const LEAD = 'CAN_LEAD_SAFEGUARDING';
const INTERNAL = ['USER_IS_ADMIN', 'USER_IS_TEACHER'];
const isLead = (permissions: readonly string[]) =>
  permissions.includes(LEAD) && permissions.some((p) => INTERNAL.includes(p));

/** What a concern's reporter is told at each later stage. */
const STAGE_TITLES: Partial<Record<string, string>> = {
  SafeguardingIncidentAcknowledged: 'A safeguarding lead acknowledged the concern you reported',
  SafeguardingIncidentReviewStarted: 'The concern you reported is under review',
  SafeguardingIncidentActionAdded: 'An action was agreed on the concern you reported',
  SafeguardingIncidentPartnerInformed: 'The school was informed about the concern you reported',
  SafeguardingIncidentClosed: 'The concern you reported was closed',
  SafeguardingIncidentReopened: 'The concern you reported was reopened',
};

/**
 * Lesson changes (issue 18): who hears a moved, cancelled or covered lesson. The teacher and the cover
 * teachers (before and after) at `/lessons/{id}`; the partners linked to a student of the lesson's
 * group on its date (parents, link contacts) at that child's page. Never the person who made the change.
 */
const LESSON_TITLES = {
  LessonRescheduled: { staff: 'A lesson of yours was moved', family: 'A lesson of your child was moved' },
  LessonCancelled: {
    staff: 'A lesson of yours was cancelled',
    family: 'A lesson of your child was cancelled',
  },
  LessonCoverTeacherChanged: {
    staff: 'The cover teacher of a lesson changed',
    family: 'A lesson of your child will be taught by another teacher',
  },
} as const;

type Handled =
  | IncidentEvent
  | UserEvent
  | NotificationEvent
  | Extract<LessonEvent, { type: 'LessonPlanned' | 'LessonPlanChanged' | keyof typeof LESSON_TITLES }>
  | Extract<GroupEvent, { type: 'StudentAddedToGroup' | 'StudentRemovedFromGroup' }>
  | Extract<RegisterEvent, { type: 'AttendanceMarkRecorded' | 'AttendanceMarkAmended' }>
  | Extract<CustomerEvent, { type: 'AttendanceContactsChanged' }>;

const HANDLED = [
  'UserCreated',
  'UserPermissionsChanged',
  'UserDeleted',
  'UserStudentLinksChanged',
  'LessonPlanned',
  'LessonPlanChanged',
  ...Object.keys(LESSON_TITLES),
  'StudentAddedToGroup',
  'StudentRemovedFromGroup',
  'SafeguardingIncidentReported',
  'SafeguardingIncidentEscalated',
  ...Object.keys(STAGE_TITLES),
  'NotificationsRead',
  'AttendanceContactsChanged',
  'AttendanceMarkRecorded',
  'AttendanceMarkAmended',
] as Handled['type'][];

/** The lesson's teacher and cover teachers (the current one and, for a cover change, the one before). */
const staffOf = (lesson: LessonAudience, previousCover: string | null): string[] => [
  ...new Set([lesson.teacherId, lesson.coverTeacherId, previousCover].filter((id): id is string => !!id)),
];
const AMENDED_TITLE = 'A register mark of one of your pupils was amended';

export const notificationsProjection = defineProjection<Handled>()({
  name: 'notifications',
  version: 3,
  tables: [
    'rm_notifications',
    'rm_notification_reads',
    'rm_notify_leads',
    'rm_notify_reporters',
    'rm_notify_lessons',
    'rm_notify_members',
    'rm_notify_links',
    'rm_notify_attendance_contacts',
  ],
  schema: [
    `CREATE TABLE IF NOT EXISTS rm_notifications (
       event_id   uuid NOT NULL,
       user_id    uuid NOT NULL,
       kind       text NOT NULL,
       title      text NOT NULL,
       link       text NOT NULL,
       position   bigint NOT NULL,
       created_at timestamptz NOT NULL,
       detail     jsonb,
       PRIMARY KEY (user_id, event_id)
     )`,
    queryIndex(
      `CREATE INDEX IF NOT EXISTS rm_notifications_inbox ON rm_notifications (user_id, position DESC)`,
    ),
    `CREATE TABLE IF NOT EXISTS rm_notification_reads (
       user_id  uuid PRIMARY KEY,
       position bigint NOT NULL
     )`,
    `CREATE TABLE IF NOT EXISTS rm_notify_leads (user_id uuid PRIMARY KEY)`,
    `CREATE TABLE IF NOT EXISTS rm_notify_reporters (
       incident_id uuid PRIMARY KEY,
       reporter_id uuid NOT NULL
     )`,
    // Lesson changes: each lesson's group and local date, group memberships, partners' selected students.
    `CREATE TABLE IF NOT EXISTS rm_notify_lessons (
       lesson_id  uuid PRIMARY KEY,
       group_id   uuid NOT NULL,
       local_date text NOT NULL
     )`,
    `CREATE TABLE IF NOT EXISTS rm_notify_members (
       group_id   uuid NOT NULL,
       student_id uuid NOT NULL,
       from_date  text NOT NULL,
       to_date    text,
       PRIMARY KEY (group_id, student_id, from_date)
     )`,
    `CREATE TABLE IF NOT EXISTS rm_notify_links (
       partner_id uuid NOT NULL,
       student_id uuid NOT NULL,
       PRIMARY KEY (partner_id, student_id)
     )`,
    `CREATE TABLE IF NOT EXISTS rm_notify_attendance_contacts (
       customer_id uuid NOT NULL,
       user_id     uuid NOT NULL,
       frequency   text NOT NULL,
       PRIMARY KEY (customer_id, user_id)
     )`,
    `CREATE INDEX IF NOT EXISTS rm_notify_attendance_contacts_user ON rm_notify_attendance_contacts (user_id)`,
  ],
  handles: HANDLED,
  // Ids, permissions and marks only: no name of who marked (decision 0089).
  readsPersonalData: false,
  async apply(e, tx) {
    const notify = (sql: string, params: unknown[]) =>
      tx.query(
        `INSERT INTO rm_notifications (event_id, user_id, kind, title, link, position, created_at)
         ${sql} ON CONFLICT (user_id, event_id) DO NOTHING`,
        params,
      );
    /** Tells the customer's attendance contacts, except the person who made the change. */
    const tellContacts = (customerId: string, kind: string, title: string, detail: object) =>
      tx.query(
        `INSERT INTO rm_notifications (event_id, user_id, kind, title, link, position, created_at, detail)
         SELECT $1::uuid, user_id, $4, $5, '/attendance', $2::bigint, $3::timestamptz, $7::jsonb
           FROM rm_notify_attendance_contacts
          WHERE customer_id = $6::uuid AND user_id IS DISTINCT FROM $8::uuid
         ON CONFLICT (user_id, event_id) DO NOTHING`,
        [...common, kind, title, customerId, JSON.stringify(detail), e.metadata.actorId ?? null],
      );
    const lead = async (userId: string, permissions: readonly string[]) => {
      if (isLead(permissions))
        await tx.query('INSERT INTO rm_notify_leads (user_id) VALUES ($1) ON CONFLICT DO NOTHING', [userId]);
      else await tx.query('DELETE FROM rm_notify_leads WHERE user_id = $1', [userId]);
    };
    const common = [e.id, e.position.toString(), e.metadata.occurredAt];
    switch (e.type) {
      case 'UserCreated':
        return void (await lead(e.data.userId, e.data.permissions));
      case 'UserPermissionsChanged':
        return void (await lead(e.data.userId, e.data.permissions));
      case 'UserDeleted':
        await tx.query('DELETE FROM rm_notify_leads WHERE user_id = $1', [e.data.userId]);
        await tx.query('DELETE FROM rm_notify_links WHERE partner_id = $1 OR student_id = $1', [
          e.data.userId,
        ]);
        await tx.query('DELETE FROM rm_notify_attendance_contacts WHERE user_id = $1', [e.data.userId]);
        return;
      case 'AttendanceContactsChanged': {
        const { customerId, contacts } = e.data;
        await tx.query('DELETE FROM rm_notify_attendance_contacts WHERE customer_id = $1', [customerId]);
        for (const c of contacts)
          await tx.query(
            `INSERT INTO rm_notify_attendance_contacts (customer_id, user_id, frequency) VALUES ($1, $2, $3)
             ON CONFLICT DO NOTHING`,
            [customerId, c.userId, c.frequency],
          );
        return;
      }
      case 'AttendanceMarkRecorded':
        // An absence with no reason yet: the school should know today (TEACHING-AND-ATTENDANCE §5).
        if (e.data.mark === 'absent_pending')
          await tellContacts(
            e.data.customerId,
            'absence-no-reason',
            'A pupil was marked absent and no reason has been given yet',
            { lessonId: e.data.lessonId, studentId: e.data.studentId },
          );
        return;
      case 'AttendanceMarkAmended':
        await tellContacts(e.data.customerId, 'attendance-amended', AMENDED_TITLE, {
          lessonId: e.data.lessonId,
          studentId: e.data.studentId,
        });
        return;
      case 'UserStudentLinksChanged':
        await tx.query('DELETE FROM rm_notify_links WHERE partner_id = $1', [e.data.userId]);
        await tx.query(
          `INSERT INTO rm_notify_links (partner_id, student_id)
           SELECT $1::uuid, unnest($2::uuid[]) ON CONFLICT DO NOTHING`,
          [e.data.userId, e.data.studentIds],
        );
        return;
      case 'StudentAddedToGroup':
        await tx.query(
          `INSERT INTO rm_notify_members (group_id, student_id, from_date) VALUES ($1, $2, $3)
           ON CONFLICT DO NOTHING`,
          [e.data.groupId, e.data.studentId, e.data.from],
        );
        return;
      case 'StudentRemovedFromGroup':
        // Closes the latest membership that began by then: the same row again on a replay.
        await tx.query(
          `UPDATE rm_notify_members m SET to_date = $3
            WHERE m.group_id = $1 AND m.student_id = $2
              AND m.from_date = (SELECT max(x.from_date) FROM rm_notify_members x
                                  WHERE x.group_id = $1 AND x.student_id = $2 AND x.from_date <= $3)`,
          [e.data.groupId, e.data.studentId, e.data.to],
        );
        return;
      case 'LessonPlanned':
        await tx.query(
          `INSERT INTO rm_notify_lessons (lesson_id, group_id, local_date) VALUES ($1, $2, $3)
           ON CONFLICT (lesson_id) DO NOTHING`,
          [e.data.lessonId, e.data.groupId, e.data.localDate],
        );
        return;
      case 'LessonPlanChanged':
        await tx.query(`UPDATE rm_notify_lessons SET local_date = $2 WHERE lesson_id = $1`, [
          e.data.lessonId,
          e.data.localDate,
        ]);
        return;
      case 'LessonRescheduled':
      case 'LessonCancelled':
      case 'LessonCoverTeacherChanged': {
        if (e.type === 'LessonRescheduled')
          await tx.query(`UPDATE rm_notify_lessons SET local_date = $2 WHERE lesson_id = $1`, [
            e.data.lessonId,
            e.data.localDate,
          ]);
        const titles = LESSON_TITLES[e.type];
        const staff = staffOf(
          e.data,
          e.type === 'LessonCoverTeacherChanged' ? e.data.previousCoverTeacherId : null,
        );
        const actor = e.metadata.actorId ?? null;
        await notify(
          `SELECT $1::uuid, s.id, 'lesson-changed', $4, $5, $2::bigint, $3::timestamptz
             FROM unnest($6::uuid[]) AS s(id) WHERE s.id IS DISTINCT FROM $7::uuid`,
          [...common, titles.staff, `/lessons/${e.data.lessonId}`, staff, actor],
        );
        // Each linked partner once, at the page of (the first of) their children in the lesson.
        await notify(
          `SELECT DISTINCT ON (k.partner_id) $1::uuid, k.partner_id, 'lesson-changed', $4,
                  '/my-child/' || k.student_id::text, $2::bigint, $3::timestamptz
             FROM rm_notify_lessons l
             JOIN rm_notify_members m ON m.group_id = l.group_id AND m.from_date <= l.local_date
                                     AND (m.to_date IS NULL OR m.to_date >= l.local_date)
             JOIN rm_notify_links k ON k.student_id = m.student_id
            WHERE l.lesson_id = $5::uuid AND k.partner_id IS DISTINCT FROM $6::uuid
            ORDER BY k.partner_id, k.student_id`,
          [...common, titles.family, e.data.lessonId, actor],
        );
        return;
      }
      case 'SafeguardingIncidentReported': {
        const { incidentId, reporterId } = e.data;
        await tx.query(
          `INSERT INTO rm_notify_reporters (incident_id, reporter_id) VALUES ($1, $2) ON CONFLICT DO NOTHING`,
          [incidentId, reporterId],
        );
        // Every lead but the one who reported it.
        await notify(
          `SELECT $1::uuid, user_id, 'incident-reported', 'A new safeguarding concern was reported', $4, $2::bigint, $3::timestamptz
             FROM rm_notify_leads WHERE user_id <> $5::uuid`,
          [...common, `/safeguarding-incidents/${incidentId}`, reporterId],
        );
        return;
      }
      case 'SafeguardingIncidentEscalated':
        await notify(
          `SELECT $1::uuid, user_id, 'incident-escalated', 'A safeguarding concern is waiting for acknowledgement', $4, $2::bigint, $3::timestamptz
             FROM rm_notify_leads`,
          [...common, `/safeguarding-incidents/${e.data.incidentId}`],
        );
        return;
      case 'NotificationsRead':
        await tx.query(
          `INSERT INTO rm_notification_reads (user_id, position) VALUES ($1, $2::bigint)
           ON CONFLICT (user_id) DO UPDATE SET position = GREATEST(rm_notification_reads.position, EXCLUDED.position)`,
          [e.data.userId, e.data.upToPosition],
        );
        return;
      default: {
        const title = STAGE_TITLES[e.type];
        if (!title || !('incidentId' in e.data)) return;
        // The reporter hears each later stage, unless they took the step themselves (a lead reporter).
        await notify(
          `SELECT $1::uuid, reporter_id, 'concern-stage', $4, $5, $2::bigint, $3::timestamptz
             FROM rm_notify_reporters
            WHERE incident_id = $6::uuid AND reporter_id IS DISTINCT FROM $7::uuid`,
          [
            ...common,
            title,
            `/safeguarding-incidents/${e.data.incidentId}`,
            e.data.incidentId,
            e.metadata.actorId ?? null,
          ],
        );
      }
    }
  },
});
