/**
 * The stream registry (docs/decisions/0044-stream-registry.md): every kind of stream the portal writes,
 * by name prefix (`user-{id}`) or exact name (`user-custom-fields`), and the client's query-cache root
 * for it. The live room policy, the personal-data protection and the client's cache invalidation all
 * read a stream name through `parseStream`, so they cannot disagree. Framework-free: the client
 * imports it (`@portal/projections/streams`).
 *
 * Existing names keep their dashes (no data migration); the longest matching prefix wins, so
 * `user-availability-{id}` is never a `user` stream. New kinds should use a dash-free category
 * (`learningObjective-{id}`), EventStoreDB's `$ce-` convention.
 */

import type { LiveMessage, LiveSummaries } from './live-contract.js';

interface PrefixStream {
  /** Streams named `prefix` + id. */
  readonly prefix: string;
  /** Query-cache root the client invalidates on a live message; null when the area handles its own. */
  readonly queryRoot: string | null;
}

interface ExactStream {
  /** One stream with exactly this name (it has no id). */
  readonly exact: string;
  readonly queryRoot: string | null;
}

export type StreamSpec = PrefixStream | ExactStream;

/** Checks the table's shape and keeps its literal keys. */
export function defineStreams<T extends Record<string, StreamSpec>>(streams: T): T {
  return streams;
}

export const STREAMS = defineStreams({
  user: { prefix: 'user-', queryRoot: 'users' },
  userAvailability: { prefix: 'user-availability-', queryRoot: 'users' },
  // The custom-fields screen keys its query under `users`, and user details show the values.
  userCustomFields: { exact: 'user-custom-fields', queryRoot: 'users' },
  ehcpReminders: { exact: 'ehcp-reminders', queryRoot: 'ehcp' },
  customer: { prefix: 'customer-', queryRoot: 'customers' },
  customerInvitation: { prefix: 'customer-invitation-', queryRoot: null },
  network: { prefix: 'network-', queryRoot: 'networks' },
  permissionTemplate: { prefix: 'permission-template-', queryRoot: 'permission-templates' },
  onePageProfile: { prefix: 'one-page-profile-', queryRoot: 'one-page-profiles' },
  // Safeguarding streams are handled by the client's useSafeguardingLive (a view must not refetch the
  // incident, or reading it would record the next view).
  incident: { prefix: 'safeguarding-incident-', queryRoot: null },
  incidentType: { prefix: 'safeguarding-incident-type-', queryRoot: null },
  incidentViews: { prefix: 'safeguarding-incident-views-', queryRoot: null },
  feedbackLinks: { prefix: 'safeguarding-feedback-links-', queryRoot: null },
  // Teaching reference data (decision 0049): internal users and partners read them, live to internal users.
  subject: { prefix: 'subject-', queryRoot: 'subjects' },
  yearGroup: { prefix: 'yearGroup-', queryRoot: 'year-groups' },
  product: { prefix: 'product-', queryRoot: 'products' },
  termCalendar: { prefix: 'termCalendar-', queryRoot: 'term-calendars' },
  // A person's notification read cursor (issue 18): their own tabs refresh the bell.
  notifications: { prefix: 'notifications-', queryRoot: 'notifications' },
  // Teaching backbone (docs/decisions/0051): dash-free categories.
  programme: { prefix: 'programme-', queryRoot: 'programmes' },
  group: { prefix: 'group-', queryRoot: 'groups' },
  enrolment: { prefix: 'enrolment-', queryRoot: 'enrolments' },
  // Schedules and lessons (decision 0053): a lesson's teacher, cover teacher, customer and admins hear them.
  schedule: { prefix: 'schedule-', queryRoot: 'schedules' },
  lesson: { prefix: 'lesson-', queryRoot: 'lessons' },
  // Cover requests and meeting joins (decision 0054): requester, offered teachers and admins; joins admins only.
  coverRequest: { prefix: 'coverRequest-', queryRoot: 'cover-requests' },
  meeting: { prefix: 'meeting-', queryRoot: 'lessons' },
  // Planned absences (decision 0056): the student's customer room and administrators.
  plannedAbsence: { prefix: 'plannedAbsence-', queryRoot: 'planned-absences' },
  // Half-term reports (decision 0057): timeframes to internal users; a report to its writers, reviewers,
  // the QA rooms and admins.
  reportTimeframe: { prefix: 'reportTimeframe-', queryRoot: 'report-submission-timeframes' },
  halfTermReport: { prefix: 'halfTermReport-', queryRoot: 'half-term-reports' },
  // A partner's read receipt: administrators only.
  halfTermReportViews: { prefix: 'halfTermReportViews-', queryRoot: 'half-term-reports' },
  // Suggestions made and resolved, refused edits (decision 0060): admins, QA rooms, the people involved.
  halfTermReportText: { prefix: 'halfTermReportText-', queryRoot: 'half-term-reports' },
  // `collab-{documentKind}-{id}` (Yjs updates and snapshots); never on the live channel.
  collabDocument: { prefix: 'collab-', queryRoot: null },
});

export type StreamKind = keyof typeof STREAMS;

/** Kinds named by prefix: their streams carry an id. */
export type PrefixStreamKind = {
  [K in StreamKind]: (typeof STREAMS)[K] extends PrefixStream ? K : never;
}[StreamKind];

/** Kinds with one exact stream name: no id. */
export type ExactStreamKind = Exclude<StreamKind, PrefixStreamKind>;

/** The id part of a stream of kind K: a string for prefix kinds, null for exact names. */
export type StreamIdOf<K extends StreamKind> = K extends PrefixStreamKind ? string : null;

export type ParsedStream = {
  [K in StreamKind]: { kind: K; id: StreamIdOf<K> };
}[StreamKind];

const EXACT = new Map<string, ExactStreamKind>();
/** Longest prefix first, so the first match is the longest. */
const PREFIXES: [string, PrefixStreamKind][] = [];
for (const [kind, spec] of Object.entries(STREAMS) as [StreamKind, StreamSpec][]) {
  if ('exact' in spec) EXACT.set(spec.exact, kind as ExactStreamKind);
  else PREFIXES.push([spec.prefix, kind as PrefixStreamKind]);
}
PREFIXES.sort((a, b) => b[0].length - a[0].length);

/**
 * The kind and id of a stream name: an exact name first, then the longest matching prefix with a
 * non-empty id. Null for names the registry does not know.
 */
export function parseStream(name: string): ParsedStream | null {
  const exact = EXACT.get(name);
  if (exact) return { kind: exact, id: null };
  for (const [prefix, kind] of PREFIXES)
    if (name.length > prefix.length && name.startsWith(prefix))
      // TypeScript checks a discriminated union literal only up to 25 members; the kinds are more.
      return { kind, id: name.slice(prefix.length) } as ParsedStream;
  return null;
}

/** The id of `name` if it is a stream of `kind`, else null (`streamIdOf('user-availability-1', 'user')` is null). */
export function streamIdOf(name: string, kind: PrefixStreamKind): string | null {
  const parsed = parseStream(name);
  return parsed?.kind === kind ? parsed.id : null;
}

/** The name of a stream of a kind: `streamName('user', id)`, `streamName('userCustomFields')`. */
export function streamName<K extends StreamKind>(
  kind: K,
  ...id: K extends PrefixStreamKind ? [id: string] : []
): string {
  const spec: StreamSpec = STREAMS[kind];
  return 'exact' in spec ? spec.exact : spec.prefix + (id[0] ?? '');
}

/** The client's query-cache root for a stream, or null (unknown streams, areas that handle their own). */
export function queryRootFor(name: string): string | null {
  const parsed = parseStream(name);
  return parsed ? STREAMS[parsed.kind].queryRoot : null;
}

/** A live message with its stream's kind and id, and `data` typed by the kind (`LiveSummaries`). */
export type LiveSummaryMessage = {
  [K in StreamKind]: { kind: K; id: StreamIdOf<K>; message: LiveMessage<LiveSummaries[K]> };
}[StreamKind];

/** Reads a live message by its stream kind (null for streams the registry does not know). */
export function liveSummaryOf(message: LiveMessage): LiveSummaryMessage | null {
  const stream = parseStream(message.stream);
  // The server's rules are typed against LiveSummaries, so the data has the kind's shape.
  return stream ? ({ ...stream, message } as LiveSummaryMessage) : null;
}

// Every stream kind has a summary type (a compile error here names the missing kind).
const everyKindSummarised: Record<Exclude<StreamKind, keyof LiveSummaries>, never> = {};
void everyKindSummarised;
