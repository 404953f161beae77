import { defineProjection, guardedSet } from '../projection.js';

/**
 * Cover requests (`coverRequest-{id}`, decision 0054): a lesson's teacher (or a lesson editor) asks for
 * cover of one or more planned future lessons; eligible teachers accept or decline; the first eligible
 * acceptance fills it and the lessons get that cover teacher (through the lesson aggregate). Meeting
 * joins (`meeting-{meetingId}`): who used the portal's join link of which lesson, when, in which role.
 * "Expired" is not an event: an open request whose first lesson has started reads as expired.
 */

export type CoverMode = 'broadcast' | 'targeted';
export const COVER_MODES: readonly CoverMode[] = ['broadcast', 'targeted'];
/** Stored statuses; `expired` is derived on read (open, and the first lesson has started). */
export type CoverStoredStatus = 'open' | 'filled' | 'cancelled';
export type CoverStatus = CoverStoredStatus | 'expired';
export const COVER_STATUSES: readonly CoverStatus[] = ['open', 'filled', 'cancelled', 'expired'];

/** Who a cover-request event concerns (for the live rooms). */
export interface CoverAudience {
  coverRequestId: string;
  requestedBy: string;
  mode: CoverMode;
  /** Targeted teachers (empty for broadcast). */
  teacherIds: string[];
}

export interface CoverRequestedData extends CoverAudience {
  lessonIds: string[];
  /** The lessons' own teachers (never offered their own lesson). */
  lessonTeacherIds: string[];
  customerIds: string[];
  reason: string;
  /** The first lesson's start: the request expires then. */
  firstStartsAt: string;
}

export interface CoverResponseData extends CoverAudience {
  teacherId: string;
}

export type CoverRequestEvent =
  | { type: 'CoverRequested'; data: CoverRequestedData }
  | { type: 'CoverOfferDeclined'; data: CoverResponseData }
  | { type: 'CoverAccepted'; data: CoverResponseData }
  | { type: 'CoverRequestFilled'; data: CoverResponseData }
  | { type: 'CoverRequestCancelled'; data: CoverAudience & { cancelledBy: string } };

export const COVER_REQUEST_EVENT_TYPES: readonly CoverRequestEvent['type'][] = [
  'CoverRequested',
  'CoverOfferDeclined',
  'CoverAccepted',
  'CoverRequestFilled',
  'CoverRequestCancelled',
];

export const coverRequestStream = (coverRequestId: string) => `coverRequest-${coverRequestId}`;

export type MeetingRole = 'teacher' | 'cover_teacher' | 'staff' | 'student' | 'partner';

export interface JoinLinkUsedData {
  meetingId: string;
  lessonId: string;
  userId: string;
  role: MeetingRole;
  at: string;
  customerId: string;
}

export type MeetingEvent = { type: 'JoinLinkUsed'; data: JoinLinkUsedData };
export const MEETING_EVENT_TYPES: readonly MeetingEvent['type'][] = ['JoinLinkUsed'];
export const meetingStream = (meetingId: string) => `meeting-${meetingId}`;

export interface CoverResponse {
  teacherId: string;
  response: 'accepted' | 'declined';
  at: string;
}

export interface CoverRequestRow {
  id: string;
  lesson_ids: string[];
  lesson_teacher_ids: string[];
  reason: string;
  requested_by: string;
  mode: CoverMode;
  teacher_ids: string[];
  responses: CoverResponse[];
  status: CoverStoredStatus;
  filled_by: string | null;
  cancelled_by: string | null;
  first_starts_at: Date;
  created_at: Date;
  updated_at: Date;
  version: string;
}

export interface MeetingJoinRow {
  event_id: string;
  meeting_id: string;
  lesson_id: string;
  user_id: string;
  role: MeetingRole;
  joined_at: Date;
}

export const coverRequestsProjection = defineProjection<CoverRequestEvent | MeetingEvent>()({
  name: 'cover-requests',
  version: 1,
  tables: ['rm_cover_requests', 'rm_meeting_joins'],
  schema: [
    `CREATE TABLE IF NOT EXISTS rm_cover_requests (
       id                 uuid PRIMARY KEY,
       lesson_ids         jsonb NOT NULL,
       lesson_teacher_ids jsonb NOT NULL,
       reason             text NOT NULL,
       requested_by       uuid NOT NULL,
       mode               text NOT NULL,
       teacher_ids        jsonb NOT NULL,
       responses          jsonb NOT NULL DEFAULT '[]',
       status             text NOT NULL,
       filled_by          uuid,
       cancelled_by       uuid,
       first_starts_at    timestamptz NOT NULL,
       created_at         timestamptz NOT NULL,
       updated_at         timestamptz NOT NULL,
       version            bigint NOT NULL
     )`,
    `CREATE INDEX IF NOT EXISTS rm_cover_requests_first ON rm_cover_requests (first_starts_at, id)`,
    `CREATE TABLE IF NOT EXISTS rm_meeting_joins (
       event_id   text PRIMARY KEY,
       meeting_id uuid NOT NULL,
       lesson_id  uuid NOT NULL,
       user_id    uuid NOT NULL,
       role       text NOT NULL,
       joined_at  timestamptz NOT NULL
     )`,
    `CREATE INDEX IF NOT EXISTS rm_meeting_joins_lesson ON rm_meeting_joins (lesson_id, joined_at)`,
  ],
  handles: [...COVER_REQUEST_EVENT_TYPES, ...MEETING_EVENT_TYPES],
  async apply(e, tx) {
    const revision = e.revision.toString();
    const at = e.metadata.occurredAt;
    const respond = (d: CoverResponseData, response: CoverResponse['response']) =>
      tx.query(
        `UPDATE rm_cover_requests SET responses = responses || $2::jsonb, updated_at = $3, version = $4::bigint
          WHERE id = $1 AND version < $4::bigint`,
        [d.coverRequestId, JSON.stringify([{ teacherId: d.teacherId, response, at }]), at, revision],
      );
    switch (e.type) {
      case 'CoverRequested': {
        const d = e.data;
        await tx.query(
          `INSERT INTO rm_cover_requests (id, lesson_ids, lesson_teacher_ids, reason, requested_by, mode,
             teacher_ids, status, first_starts_at, created_at, updated_at, version)
           VALUES ($1,$2::jsonb,$3::jsonb,$4,$5,$6,$7::jsonb,'open',$8,$9,$9,$10::bigint) ON CONFLICT (id) DO NOTHING`,
          [
            d.coverRequestId,
            JSON.stringify(d.lessonIds),
            JSON.stringify(d.lessonTeacherIds),
            d.reason,
            d.requestedBy,
            d.mode,
            JSON.stringify(d.teacherIds),
            d.firstStartsAt,
            at,
            revision,
          ],
        );
        return;
      }
      case 'CoverOfferDeclined':
        await respond(e.data, 'declined');
        return;
      case 'CoverAccepted':
        await respond(e.data, 'accepted');
        return;
      case 'CoverRequestFilled':
        await guardedSet(tx, 'rm_cover_requests', e.data.coverRequestId, revision, {
          status: 'filled',
          filled_by: e.data.teacherId,
          updated_at: at,
        });
        return;
      case 'CoverRequestCancelled':
        await guardedSet(tx, 'rm_cover_requests', e.data.coverRequestId, revision, {
          status: 'cancelled',
          cancelled_by: e.data.cancelledBy,
          updated_at: at,
        });
        return;
      case 'JoinLinkUsed': {
        const d = e.data;
        await tx.query(
          `INSERT INTO rm_meeting_joins (event_id, meeting_id, lesson_id, user_id, role, joined_at)
           VALUES ($1,$2,$3,$4,$5,$6) ON CONFLICT (event_id) DO NOTHING`,
          [e.id, d.meetingId, d.lessonId, d.userId, d.role, d.at],
        );
        return;
      }
    }
  },
});
