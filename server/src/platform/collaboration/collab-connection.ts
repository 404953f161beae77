import type { WebSocket, RawData } from 'ws';
import type { Actor } from '../auth/request-context.js';
import { CloseCode } from './collab.protocol.js';

/** Who is connected, as the server tells the other editors (set from the session, not the client). */
export interface CollabUser {
  id: string;
  name: string;
  color: string;
}

export interface ConnectionLimits {
  maxMessageBytes: number;
  /** Token bucket: messages allowed in a burst, refilled at `ratePerSecond`. */
  rateBurst: number;
  ratePerSecond: number;
}

/** A stable colour per user (shared with the browser's suggestion marks). */
export { colourFor } from '@portal/projections';

/**
 * One WebSocket of one user on one document. Messages are queued until the document is loaded; each
 * message costs one token of the connection's bucket, and an empty bucket closes the connection.
 */
export class CollabConnection {
  closed = false;
  private readonly queue: Uint8Array[] = [];
  private handler: ((message: Uint8Array) => void) | null = null;
  private tokens: number;
  private refilledAt = Date.now();
  /** Awareness client ids this connection controls. */
  readonly awarenessClients = new Set<number>();
  /** A writing connection whose updates must keep the text as it is but for suggestions (decision 0060). */
  suggestOnly = false;
  /** When the connection opened (presence: "editing since"). */
  readonly openedAt = new Date();
  /** The client asked for `saved` acknowledgements (decision 0067). */
  acks = false;
  /** Sync update messages (step 2 or update) received on this connection: the acknowledgement's count. */
  updatesReceived = 0;

  constructor(
    readonly ws: WebSocket,
    readonly actor: Actor,
    readonly user: CollabUser,
    readonly readOnly: boolean,
    private readonly limits: ConnectionLimits,
  ) {
    this.tokens = limits.rateBurst;
    ws.on('message', (data: RawData, isBinary: boolean) => this.onMessage(data, isBinary));
    ws.on('close', () => {
      this.closed = true;
    });
    ws.on('error', () => this.close(CloseCode.malformed, 'protocol error'));
  }

  /** Starts delivering messages (first the ones that arrived while the document loaded). */
  attach(handler: (message: Uint8Array) => void): void {
    this.handler = handler;
    while (this.queue.length > 0 && !this.closed) this.dispatch(this.queue.shift()!);
  }

  send(message: Uint8Array): void {
    if (this.closed || this.ws.readyState !== this.ws.OPEN) return;
    this.ws.send(message, (err) => {
      if (err) this.close(CloseCode.unavailable, 'send failed');
    });
  }

  close(code: number, reason: string): void {
    if (this.closed) return;
    this.closed = true;
    try {
      this.ws.close(code, reason);
    } catch {
      this.ws.terminate();
    }
    // A peer that does not answer the close handshake is cut off.
    setTimeout(() => this.ws.terminate(), 2000).unref();
  }

  private takeToken(): boolean {
    const now = Date.now();
    this.tokens = Math.min(
      this.limits.rateBurst,
      this.tokens + ((now - this.refilledAt) / 1000) * this.limits.ratePerSecond,
    );
    this.refilledAt = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }

  private onMessage(data: RawData, isBinary: boolean): void {
    if (this.closed) return;
    if (!isBinary) return this.close(CloseCode.malformed, 'binary y-websocket messages only');
    const bytes = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer);
    if (bytes.byteLength > this.limits.maxMessageBytes)
      return this.close(CloseCode.tooLarge, `message larger than ${this.limits.maxMessageBytes} bytes`);
    if (!this.takeToken()) return this.close(CloseCode.rateLimited, 'too many messages');
    const message = new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    if (this.handler) this.dispatch(message);
    else this.queue.push(message);
  }

  private dispatch(message: Uint8Array): void {
    try {
      this.handler!(message);
    } catch (e) {
      this.close(CloseCode.malformed, `malformed message: ${(e as Error).message}`.slice(0, 120));
    }
  }
}
