import { randomUUID } from 'node:crypto';
import * as decoding from 'lib0/decoding';
import * as encoding from 'lib0/encoding';
import { createClient } from 'redis';
import type { Log } from '../logging/logger.js';

/** What travels between processes for one document. */
export const BusMessage = {
  /** A Yjs update accepted by the sending process. */
  update: 0,
  /** An awareness update (states of the sender's connections). */
  awareness: 1,
  /** "I just loaded, here is my state vector": others answer with an update and their awareness. */
  syncRequest: 2,
} as const;
export type BusMessageType = (typeof BusMessage)[keyof typeof BusMessage];

export type BusListener = (type: BusMessageType, payload: Uint8Array) => void;

/**
 * What one process tells every process (itself included) about open connections: `end` closes a
 * user's connections (the reason is the close reason), `recheck` re-evaluates a user's session and
 * access, `recheck-document` re-evaluates the access of every connection to one document (its rules
 * changed: a closed safeguarding incident's write-up becomes read-only).
 */
export type AccessNotice =
  | { type: 'end'; userId: string; reason: string }
  | { type: 'recheck'; userId: string }
  | { type: 'recheck-document'; kind: string; id: string };

export type AccessListener = (notice: AccessNotice) => void;

/** Whether a message from another process is a notice this version understands. */
export function isAccessNotice(notice: unknown): notice is AccessNotice {
  if (typeof notice !== 'object' || notice === null) return false;
  const n = notice as Record<string, unknown>;
  if (n.type === 'end') return typeof n.userId === 'string' && typeof n.reason === 'string';
  if (n.type === 'recheck') return typeof n.userId === 'string';
  if (n.type === 'recheck-document') return typeof n.kind === 'string' && typeof n.id === 'string';
  return false;
}

/**
 * Fan-out of document updates and awareness between server processes. Each message carries the id
 * of the process that sent it, so a process ignores its own messages.
 */
export interface CollabBus {
  readonly processId: string;
  readonly distributed: boolean;
  join(documentName: string, listener: BusListener): Promise<void>;
  leave(documentName: string): Promise<void>;
  publish(documentName: string, type: BusMessageType, payload: Uint8Array): void;
  /** Delivers `notice` to the access listener of every process, this one included. */
  announce(notice: AccessNotice): void;
  /** The listener for `announce` (one per process). */
  onAccess(listener: AccessListener): Promise<void>;
  close(): Promise<void>;
}

/** One process: every document lives only here, nothing to fan out. */
export class LocalCollabBus implements CollabBus {
  readonly processId = randomUUID();
  readonly distributed = false;
  private accessListener: AccessListener | null = null;
  async join(): Promise<void> {}
  async leave(): Promise<void> {}
  publish(): void {}
  announce(notice: AccessNotice): void {
    this.accessListener?.(notice);
  }
  onAccess(listener: AccessListener): Promise<void> {
    this.accessListener = listener;
    return Promise.resolve();
  }
  close(): Promise<void> {
    this.accessListener = null;
    return Promise.resolve();
  }
}

/** The part of a node-redis client this bus uses (publisher and its duplicate, the subscriber). */
interface Redis {
  publish(channel: string, message: Buffer): Promise<number>;
  subscribe(channel: string, listener: (message: Buffer) => void, bufferMode: true): Promise<void>;
  unsubscribe(channel: string, listener: (message: Buffer) => void, bufferMode: true): Promise<void>;
  close(): Promise<void>;
}

/**
 * Redis pub/sub, one channel per document (`{REDIS_PREFIX}:collab:{documentName}`) and one for access
 * notices (`{REDIS_PREFIX}:collab-access`).
 */
export class RedisCollabBus implements CollabBus {
  readonly processId = randomUUID();
  readonly distributed = true;
  private readonly listeners = new Map<string, (message: Buffer) => void>();

  private constructor(
    private readonly pub: Redis,
    private readonly sub: Redis,
    private readonly log: Log,
    private readonly prefix: string,
  ) {}

  static async connect(url: string, log: Log, prefix = 'portal'): Promise<RedisCollabBus> {
    const pub = createClient({ url });
    pub.on('error', (e: Error) => log.warn({ err: e }, 'collaboration: redis publisher error'));
    const sub = pub.duplicate();
    sub.on('error', (e: Error) => log.warn({ err: e }, 'collaboration: redis subscriber error'));
    await pub.connect();
    await sub.connect();
    return new RedisCollabBus(pub, sub, log, prefix);
  }

  private channel(documentName: string): string {
    return `${this.prefix}:collab:${documentName}`;
  }

  private get accessChannel(): string {
    return `${this.prefix}:collab-access`;
  }

  announce(notice: AccessNotice): void {
    this.pub.publish(this.accessChannel, Buffer.from(JSON.stringify(notice))).catch((e: unknown) => {
      this.log.warn({ err: e, notice }, 'collaboration: could not publish an access notice to redis');
    });
  }

  async onAccess(listener: AccessListener): Promise<void> {
    const handler = (message: Buffer) => {
      try {
        const notice = JSON.parse(message.toString('utf8')) as AccessNotice;
        if (isAccessNotice(notice)) listener(notice);
      } catch (e) {
        this.log.warn({ err: e }, 'collaboration: unreadable access notice from another process');
      }
    };
    await this.sub.subscribe(this.accessChannel, handler, true);
  }

  async join(documentName: string, listener: BusListener): Promise<void> {
    const handler = (message: Buffer) => {
      try {
        const decoder = decoding.createDecoder(
          new Uint8Array(message.buffer, message.byteOffset, message.byteLength),
        );
        const origin = decoding.readVarString(decoder);
        if (origin === this.processId) return;
        const type = decoding.readVarUint(decoder) as BusMessageType;
        listener(type, decoding.readVarUint8Array(decoder));
      } catch (e) {
        this.log.warn({ err: e, documentName }, 'collaboration: unreadable message from another process');
      }
    };
    this.listeners.set(documentName, handler);
    await this.sub.subscribe(this.channel(documentName), handler, true);
  }

  async leave(documentName: string): Promise<void> {
    const handler = this.listeners.get(documentName);
    if (!handler) return;
    this.listeners.delete(documentName);
    await this.sub.unsubscribe(this.channel(documentName), handler, true);
  }

  publish(documentName: string, type: BusMessageType, payload: Uint8Array): void {
    const encoder = encoding.createEncoder();
    encoding.writeVarString(encoder, this.processId);
    encoding.writeVarUint(encoder, type);
    encoding.writeVarUint8Array(encoder, payload);
    const message = Buffer.from(encoding.toUint8Array(encoder));
    this.pub.publish(this.channel(documentName), message).catch((e: unknown) => {
      this.log.warn({ err: e, documentName }, 'collaboration: could not publish to redis');
    });
  }

  async close(): Promise<void> {
    this.listeners.clear();
    await Promise.allSettled([this.sub.close(), this.pub.close()]);
  }
}
