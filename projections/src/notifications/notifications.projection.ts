import { defineProjection } from '../projection.js';
import type { IncidentEvent } from '../safeguarding/safeguarding-events.js';
import type { UserEvent } from '../users/user-events.js';
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

type Handled =
  | IncidentEvent
  | UserEvent
  | NotificationEvent
  | Extract<RegisterEvent, { type: 'AttendanceMarkRecorded' | 'AttendanceMarkAmended' }>
  | Extract<CustomerEvent, { type: 'AttendanceContactsChanged' }>;

const HANDLED = [
  'UserCreated',
  'UserPermissionsChanged',
  'UserDeleted',
  'SafeguardingIncidentReported',
  'SafeguardingIncidentEscalated',
  ...Object.keys(STAGE_TITLES),
  'NotificationsRead',
  'AttendanceContactsChanged',
  'AttendanceMarkRecorded',
  'AttendanceMarkAmended',
] as Handled['type'][];

const AMENDED_TITLE = 'A register mark of one of your pupils was amended';

export const notificationsProjection = defineProjection<Handled>()({
  name: 'notifications',
  version: 2,
  tables: [
    'rm_notifications',
    'rm_notification_reads',
    'rm_notify_leads',
    'rm_notify_reporters',
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
    `CREATE INDEX IF NOT EXISTS rm_notifications_inbox ON rm_notifications (user_id, position DESC)`,
    `CREATE TABLE IF NOT EXISTS rm_notification_reads (
       user_id  uuid PRIMARY KEY,
       position bigint NOT NULL
     )`,
    `CREATE TABLE IF NOT EXISTS rm_notify_leads (user_id uuid PRIMARY KEY)`,
    `CREATE TABLE IF NOT EXISTS rm_notify_reporters (
       incident_id uuid PRIMARY KEY,
       reporter_id uuid NOT NULL
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
