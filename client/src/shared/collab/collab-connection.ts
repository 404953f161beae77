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

export type CollabStatus = 'connecting' | 'connected' | 'disconnected' | 'closed';

export interface CollabSession {
  doc: Y.Doc;
  provider: WebsocketProvider;
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
): CollabSession {
  const doc = new Y.Doc();
  const provider = new WebsocketProvider(collabServerUrl(), documentName, doc, {
    params: { token },
    disableBc: true,
    maxBackoffTime: 5_000,
  });
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
    destroy: () => {
      provider.destroy();
      doc.destroy();
    },
  };
}
