/**
 * Wire constants of the collaboration endpoint, shared by the server and the client: the
 * y-websocket message types, the document-name scheme and the close codes.
 */

/** URL path prefix: a document is reached at `/collab/{documentName}`. */
export const COLLAB_PATH = '/collab';

/** y-websocket message types (first varUint of every binary frame). */
export const MessageType = {
  sync: 0,
  awareness: 1,
  auth: 2,
  queryAwareness: 3,
  /**
   * The portal's own "saved" acknowledgement (decision 0067), sent only to connections that asked for
   * it (`?acks=1`; a stock y-websocket client logs an error for a type it does not know). Payload: one
   * varUint `n`: the first `n` sync update messages (step 2 or update) this connection sent were
   * accepted and are committed to the event store. Refused and read-only updates are never acknowledged.
   */
  saved: 100,
} as const;

/** Query parameter by which a client asks for `saved` acknowledgements. */
export const ACKS_PARAM = 'acks';

/**
 * Close codes. y-websocket ≥ 3.1 does not reconnect after a 4400–4499 close ("the server decided,
 * retrying cannot help"); 4500–4599 means "try again later".
 */
export const CloseCode = {
  /** A frame that is not a valid y-websocket message (or not binary). */
  malformed: 4400,
  /**
   * The user lost access while connected: session ended (revoked, expired), user blocked or
   * deactivated, or may no longer read the document. The reason says which (`session_ended`,
   * `blocked`, `deactivated`, `no_access`, the live channel's words).
   */
  forbidden: 4403,
  /**
   * An update was refused (decision 0060): the server kept it and told the client in an auth message
   * (`permission denied`, reason JSON `{ refused, ref, text }`) first. The client starts again from the
   * server's text (a fresh document), showing the refused edit to its author.
   */
  editRefused: 4409,
  /** The user's rights on the document changed (may now write, or only read): reconnect at once. */
  accessChanged: 4501,
  /** A message larger than the configured limit. */
  tooLarge: 4413,
  /** Too many messages: the per-connection token bucket ran dry. */
  rateLimited: 4429,
  /** The server is shutting down or unloading; reconnect. */
  goingAway: 1001,
  /** Internal error while handling the document; reconnect later. */
  unavailable: 4503,
} as const;

/** A document name is `{kind}:{id}`: kind is lower-kebab-case, id is 1–200 safe characters. */
const DOCUMENT_NAME = /^([a-z][a-z0-9-]{0,62}):([A-Za-z0-9._~-]{1,200})$/;

export interface DocumentName {
  name: string;
  kind: string;
  id: string;
}

export function parseDocumentName(name: string): DocumentName | null {
  const m = DOCUMENT_NAME.exec(name);
  return m ? { name, kind: m[1]!, id: m[2]! } : null;
}

/** The event-store stream that holds a document's history. */
export const documentStream = (kind: string, id: string) => `collab-${kind}-${id}`;

/** Event types written to a document's stream. */
export const DOCUMENT_UPDATED = 'DocumentUpdated';
export const DOCUMENT_SNAPSHOT_TAKEN = 'DocumentSnapshotTaken';

export interface DocumentUpdatedData {
  /** A Yjs update (merged from `updates` client updates), base64. */
  update: string;
  updates: number;
}

export interface DocumentSnapshotTakenData {
  /** The whole document as one Yjs update, base64. */
  state: string;
  /** Revision of the last stream event the snapshot includes. */
  coversRevision: string;
}
