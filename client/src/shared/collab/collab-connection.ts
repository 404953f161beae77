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

/** The server's "saved" acknowledgement (server: collab.protocol.ts `MessageType.saved`, decision 0067). */
export const SAVED_MESSAGE = 100;

/**
 * What the server has confirmed as stored (decision 0067). The server counts the sync update messages
 * (step 2 or update) each connection sends and answers `saved n` once the first n are committed to the
 * event store; this counts the same messages on the browser's side. Local changes that could not be
 * sent (offline) or were sent but not confirmed before the connection dropped are "carried": they go
 * out in the sync step 2 of the next connection, and only its acknowledgement clears them. Until the
 * first acknowledgement nothing is known, so the document starts as carried (an offline copy may hold
 * edits the server never had).
 */
export class SaveTracker {
  private sent = 0;
  private acked = 0;
  private stepSent = false;
  private carried = true;
  private readonly listeners = new Set<() => void>();

  /** A new websocket: its count starts again; what the old one left unconfirmed is carried. */
  connecting(): void {
    if (this.sent > this.acked) this.carried = true;
    this.sent = 0;
    this.acked = 0;
    this.stepSent = false;
    this.changed();
  }

  /** A sync message went out on the current websocket. */
  sending(kind: 'step2' | 'update'): void {
    this.sent++;
    if (kind === 'step2') this.stepSent = true;
    this.changed();
  }

  /** The server committed the first `n` messages of the current websocket. */
  ack(n: number): void {
    this.acked = Math.max(this.acked, n);
    if (this.stepSent && this.acked >= this.sent) this.carried = false;
    this.changed();
  }

  /** A change made here (typing, the offline copy loading); `sentNow` when the websocket took it. */
  localChange(sentNow: boolean): void {
    if (sentNow) return;
    this.carried = true;
    this.changed();
  }

  /** Something typed here is not yet confirmed as stored on the server. */
  get unsaved(): boolean {
    return this.carried || this.sent > this.acked;
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed(): void {
    for (const l of this.listeners) l();
  }
}

/**
 * Whether what this browser shows is the server's text: connected and synced, and, for a user who
 * edits, everything typed here confirmed as stored. A hash of the text signed before that (submit,
 * approve, publish) would be refused as not the stored text.
 */
export function textSettled(state: {
  status: CollabStatus;
  synced: boolean;
  unsaved: boolean;
  readOnly: boolean;
}): boolean {
  return state.status === 'connected' && state.synced && (state.readOnly || !state.unsaved);
}

/** `step2`/`update` for a y-websocket sync message that carries document changes, else null. */
export function syncMessageKind(data: unknown): 'step2' | 'update' | null {
  const bytes = data instanceof Uint8Array ? data : data instanceof ArrayBuffer ? new Uint8Array(data) : null;
  if (!bytes || bytes.length < 2 || bytes[0] !== 0) return null;
  return bytes[1] === 1 ? 'step2' : bytes[1] === 2 ? 'update' : null;
}

export interface CollabSession {
  doc: Y.Doc;
  provider: WebsocketProvider;
  /** The browser's own copy (IndexedDB) until the server has the changes; null without IndexedDB. */
  offline: IndexeddbPersistence | null;
  /** What the server has confirmed as stored. */
  saves: SaveTracker;
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
  const saves = new SaveTracker();
  // The stock WebSocket, counting the sync messages it sends for the server's acknowledgements.
  class CountingWebSocket extends WebSocket {
    constructor(url: string | URL, protocols?: string | string[]) {
      super(url, protocols);
      saves.connecting();
    }
    override send(data: Parameters<WebSocket['send']>[0]): void {
      const kind = syncMessageKind(data);
      super.send(data);
      if (kind) saves.sending(kind);
    }
  }
  const provider = new WebsocketProvider(collabServerUrl(), documentName, doc, {
    params: { token, acks: '1' },
    disableBc: true,
    maxBackoffTime: 5_000,
    WebSocketPolyfill: CountingWebSocket,
  });
  provider.messageHandlers[SAVED_MESSAGE] = (_encoder, decoder) => saves.ack(decoding.readVarUint(decoder));
  // Registered after the provider's own handler: by now it has sent the change, or could not.
  doc.on('update', (_update: Uint8Array, origin: unknown) => {
    if (origin === provider) return;
    const ws = provider.ws;
    saves.localChange(provider.wsconnected && ws !== null && ws.readyState === ws.OPEN);
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
    saves,
    destroy: () => {
      provider.destroy();
      void offline?.destroy();
      doc.destroy();
    },
  };
}
