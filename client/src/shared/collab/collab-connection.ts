import * as decoding from 'lib0/decoding';
import { IndexeddbPersistence } from 'y-indexeddb';
import { WebsocketProvider } from 'y-websocket';
import * as Y from 'yjs';

/** The collaboration endpoint: a document is reached at `/collab/{kind}:{id}` (server: collab.protocol.ts). */
export const COLLAB_PATH = '/collab';

/** Close codes the server uses (4400–4499: the server decided; retrying cannot help). */
export const COLLAB_CLOSE_REASONS: Record<number, string> = {
  4400: 'The connection sent something the server could not read.',
  4401: 'Your session has ended. Sign in again to keep editing.',
  4403: 'You no longer have access to this document.',
  4404: 'This document does not exist.',
  4413: 'A change was too large to send.',
  4429: 'Too many changes at once; the connection was paused.',
};

/** The server refused an edit and kept it (decision 0060); the editor starts again from the server's text. */
export const EDIT_REFUSED = 4409;

/** What the server says about a refused edit (y-protocols auth message, permission denied). */
export interface RefusedEdit {
  refused: string;
  ref?: string;
  text?: string;
}

export type CollabStatus = 'connecting' | 'connected' | 'disconnected' | 'closed';

export interface CollabSession {
  doc: Y.Doc;
  provider: WebsocketProvider;
  /** The browser's own copy (IndexedDB) until the server has the changes; null without IndexedDB. */
  offline: IndexeddbPersistence | null;
  destroy: () => void;
}

/** The websocket origin of the page (same host and port as the API; wss on https). */
export function collabServerUrl(location: Pick<Location, 'protocol' | 'host'> = window.location): string {
  return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${COLLAB_PATH}`;
}

/**
 * Opens one collaborative document with the stock y-websocket client: the token travels as `?token=`
 * (the server checks it and the user's right to read or write before any sync message), cross-tab
 * BroadcastChannel sync is off so every edit passes the server's checks, and a close the server
 * decided (44xx) stops the retries instead of reconnecting forever.
 */
export function openCollabDocument(
  documentName: string,
  token: string,
  onClosedByServer: (code: number, reason: string) => void,
  options: { offlineKey?: string; onRefused?: (edit: RefusedEdit) => void } = {},
): CollabSession {
  const doc = new Y.Doc();
  // The offline copy: what this browser typed survives a closed tab or a dropped connection, and is
  // sent again when the document reconnects. Per user, so a shared computer keeps people apart.
  const offline =
    options.offlineKey && typeof indexedDB !== 'undefined'
      ? new IndexeddbPersistence(options.offlineKey, doc)
      : null;
  const provider = new WebsocketProvider(collabServerUrl(), documentName, doc, {
    params: { token },
    disableBc: true,
    maxBackoffTime: 5_000,
  });
  // y-websocket's auth message: the server says an edit was refused (and kept).
  provider.messageHandlers[2] = (_encoder, decoder) => {
    if (decoding.readVarUint(decoder) !== 0) return;
    const reason = decoding.readVarString(decoder);
    try {
      options.onRefused?.(JSON.parse(reason) as RefusedEdit);
    } catch {
      options.onRefused?.({ refused: reason });
    }
  };
  provider.on('connection-close', (event) => {
    const code = event?.code ?? 0;
    if (code >= 4400 && code < 4500) {
      provider.disconnect();
      onClosedByServer(
        code,
        COLLAB_CLOSE_REASONS[code] ?? (event?.reason || 'The server closed the document.'),
      );
    }
  });
  return {
    doc,
    provider,
    offline,
    destroy: () => {
      provider.destroy();
      void offline?.destroy();
      doc.destroy();
    },
  };
}
