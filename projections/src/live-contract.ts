/**
 * Wire contract of the live updates channel (Socket.IO namespace `/live`), shared by the server and the
 * client. Framework-free: only types and constants.
 *
 * Delivery contract (see docs/architecture.md, "Live updates"):
 * - Every `live` message carries the global `position` (a decimal string of a bigint) of the event it
 *   announces. Positions are strictly increasing in commit order.
 * - Live messages are sent after the projections have committed the event, so a refetch with
 *   `X-Min-Position: position` sees it.
 * - After a reconnect, the client sends the highest position it has processed (`auth.lastPosition` in the
 *   handshake, or the `resume` event); the server replays the events it may see after that position
 *   (bounded by `LIVE_REPLAY_LIMIT`), then acknowledges with `ResumeResult`.
 * - Around a resume, a replayed message and a live message for the same event may both arrive, and live
 *   messages may overtake replayed ones: the client dedupes by `position` (ignore a position it has
 *   already processed) and keeps `lastPosition = max(seen)`. If `truncated` is true, more events were
 *   missed than the server replays: refetch everything shown.
 */

/** Socket.IO namespace of the live channel. */
export const LIVE_NAMESPACE = '/live';
/** Socket.IO (engine.io) HTTP path, on the portal's own port. */
export const LIVE_PATH = '/socket.io';
/** At most this many missed events are replayed on a resume. */
export const LIVE_REPLAY_LIMIT = 5000;

/** `connect_error` messages (same wording as the HTTP API's `detail`). */
export const LIVE_ERRORS = {
  notAuthenticated: 'Not authenticated',
  invalidCredentials: 'Could not validate credentials',
  sessionEnded: 'Session ended; sign in again',
  userNotFound: 'User not found',
} as const;

/**
 * What the `data` of a live message carries, per stream kind of the registry (`streams.ts`, decision
 * 0044): every room's view of that kind fits this shape (a room may see fewer fields). Summaries only:
 * enough to refetch or announce, never the payload. The server's `forStream` rules are checked
 * against it; the client reads it with `liveSummaryOf` (`@portal/projections/streams`).
 */
export interface LiveSummaries {
  /** Administrators see login and type when the event has them; the user only `userId`; a student
   * linked to or unlinked from a partner `studentId`. */
  user: { userId: string; login?: string; userType?: string } | { studentId: string };
  userAvailability: { userId: string; type?: string; week?: string | null };
  userCustomFields: { fieldCount: number };
  ehcpReminders: { added: number; removed: number };
  customer: { customerId: string };
  customerInvitation: { invitationId: string; customerId?: string };
  network: { networkId: string };
  permissionTemplate: { templateId: string };
  onePageProfile: { profileId: string; userId: string };
  incident: IncidentLiveSummary;
  incidentType: { typeId: string };
  incidentViews: { incidentId: string; viewerId: string; via: string };
  feedbackLinks: { incidentId: string; linkId: string };
  subject: { subjectId: string };
  yearGroup: { yearGroupId: string };
  product: { productId: string };
  termCalendar: { calendarId: string };
  /** Only to the person themselves: they marked their notifications read (up to `upToPosition`). */
  notifications: { upToPosition: string };
  programme: { programmeId: string };
  group: { groupId: string; programmeId: string };
  /** Administrators see the student; the school's room and the teachers only which enrolment. */
  enrolment: { enrolmentId: string; programmeId: string; studentId?: string };
  schedule: { scheduleId: string; programmeId?: string };
  lesson: { lessonId: string; scheduleId?: string | null };
  coverRequest: { coverRequestId: string };
  meeting: { meetingId: string; lessonId: string };
  plannedAbsence: { plannedAbsenceId: string; studentId: string };
  reportTimeframe: { timeframeId: string };
  halfTermReport: { reportId: string; state: string };
  halfTermReportViews: { reportId: string; viewerId: string; via: string };
  halfTermReportText: { reportId: string; type: string };
  /** Never sent. */
  collabDocument: never;
}

/** A safeguarding incident event as the `safeguarding` room sees it (no free text, no names). */
export interface IncidentLiveSummary {
  incidentId: string;
  /** The status after the event, for events that change it. */
  status?: string;
  riskLevel?: string;
  occurredAt?: string;
  typeIds?: string[];
  studentCount?: number;
  /** A lead claimed or started reviewing (their id), or released (null). */
  assignedLeadId?: string | null;
  escalated?: boolean;
  minutesUnacknowledged?: number;
}

/** One event, as a room may see it. */
export interface LiveMessage<Data = unknown> {
  /** Event type, e.g. `UserCreated`. */
  type: string;
  /** Stream of the event, e.g. `user-{id}`. */
  stream: string;
  /** Global position (bigint as a decimal string). */
  position: string;
  /** Only what the receiving room may see: usually a small summary, enough to update or refetch. */
  data: Data;
}

/** Why the server ended the connection (sent just before it disconnects). */
export type LiveEndReason = 'session_ended' | 'blocked' | 'deactivated' | 'no_access';

export interface ResumeResult {
  /** Events replayed after the given position. */
  replayed: number;
  /** The replay covered events up to this position (decimal string). */
  upTo: string;
  /** More events were missed than `LIVE_REPLAY_LIMIT`: the client should refetch everything. */
  truncated: boolean;
}

export type ResumeAck = (result: ResumeResult | { error: string }) => void;

/** Progress of a CSV user import (POST /users/import, /users/create_users_csv), sent to its caller only. */
export interface ImportProgress {
  /** The import's id (the `import_id` query parameter, or the one the answer returns). */
  importId: string;
  /** Rows handled so far (created or skipped). */
  done: number;
  /** Rows in the file. */
  total: number;
}

/** Someone with safeguarding access who has an incident's page open (docs/decisions/0036). */
export interface PresenceViewer {
  userId: string;
  name: string;
}

/** Who is viewing one incident now (every open tab of a user counts once). */
export interface IncidentPresence {
  incidentId: string;
  viewers: PresenceViewer[];
}

export type PresenceViewAck = (result: IncidentPresence | { error: string }) => void;
export type PresenceListAck = (result: { incidents: IncidentPresence[] } | { error: string }) => void;

export interface ServerToClientEvents {
  /** An event this socket's rooms may see (live or replayed). */
  live: (message: LiveMessage) => void;
  /** The replay requested in the handshake (`auth.lastPosition`) is complete. */
  resumed: (result: ResumeResult) => void;
  /** The server is about to disconnect this socket; do not reconnect with the same token. */
  ended: (info: { reason: LiveEndReason }) => void;
  /** A user import this user started advanced (room `user:{id}` only; not replayed on resume). */
  'import-progress': (progress: ImportProgress) => void;
  /**
   * Who views an incident changed (room `safeguarding` only; not replayed on resume: ask with
   * `presence:list` after a (re)connect).
   */
  presence: (presence: IncidentPresence) => void;
  /**
   * Who has a half-term report's text open now, and how (decision 0060; administrators and the QA
   * rooms; not replayed: read `GET /api/v1/half-term-reports/presence` after a (re)connect).
   */
  'report-presence': (presence: ReportPresence) => void;
}

/** One person connected to a collaborative document (the collaboration server's presence). */
export interface DocumentEditor {
  userId: string;
  name: string;
  color: string;
  mode: 'edit' | 'suggest' | 'view';
  /** When this user's earliest open connection to the document started (ISO; decision 0067). */
  since: string;
}

/** The people connected to one report's live text. */
export interface ReportPresence {
  reportId: string;
  editors: DocumentEditor[];
}

export interface ClientToServerEvents {
  /** Replays what was missed after `lastPosition` (decimal string), then acknowledges. */
  resume: (lastPosition: string, ack: ResumeAck) => void;
  /** This tab has the incident open (safeguarding access only); acknowledges with who views it now. */
  'presence:view': (incidentId: string, ack?: PresenceViewAck) => void;
  /** This tab left the incident (closing the socket does the same for everything it viewed). */
  'presence:leave': (incidentId: string) => void;
  /** Everyone viewing any incident now (safeguarding access only), for the triage board. */
  'presence:list': (ack: PresenceListAck) => void;
}

/** What the client sends in the handshake: `io(url + LIVE_NAMESPACE, { path: LIVE_PATH, auth })`. */
export interface LiveHandshakeAuth {
  token: string;
  /** Highest position already processed; the server replays what came after it. */
  lastPosition?: string;
}
