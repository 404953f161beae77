import * as decoding from 'lib0/decoding';
import * as encoding from 'lib0/encoding';
import * as awarenessProtocol from 'y-protocols/awareness';
import * as syncProtocol from 'y-protocols/sync';
import * as Y from 'yjs';
import type { Log } from '../logging/logger.js';
import { BusMessage, type BusMessageType, type CollabBus } from './collab-bus.js';
import { CollabConnection } from './collab-connection.js';
import { CloseCode, MessageType, type DocumentName } from './collab.protocol.js';
import { DocumentPersistence } from './document-persistence.js';
import { applyToDocument, applyToShadow } from './shadow-copy.js';
import type { DocumentKind, LoadedDocument } from './document-kinds.js';
import { UpdateBatch } from './update-batch.js';

/** Transaction origin of updates that came from another process. */
export const FROM_PEER = Symbol('collab:from-peer');
/** Transaction origin of a change the server itself makes (e.g. a report's facts, decision 0068). */
export const SERVER_EDIT = Symbol('collab:server-edit');

/** A pause in the connections' messages this long lets a due flush run (decision 0085). */
export const FLUSH_QUIET_MS = 2;
/** A due flush waits for such a pause at most this long. */
export const FLUSH_MAX_WAIT_MS = 100;

/**
 * How long a due flush should still wait (0: flush now): until the connections have been quiet for
 * `FLUSH_QUIET_MS` since their last message (`lastInputAt`), but not past `deadline`. Persisting in a
 * pause rather than amid a burst of keystrokes keeps its work out of the editors' round trips.
 */
export function quietFlushWait(now: number, lastInputAt: number, deadline: number): number {
  const quietFor = now - lastInputAt;
  if (quietFor >= FLUSH_QUIET_MS || now >= deadline) return 0;
  return Math.min(FLUSH_QUIET_MS - quietFor, deadline - now);
}

export interface DocumentOptions {
  flushMs: number;
  snapshotEvery: number;
}

function message(type: number, write: (e: encoding.Encoder) => void): Uint8Array {
  const e = encoding.createEncoder();
  encoding.writeVarUint(e, type);
  write(e);
  return encoding.toUint8Array(e);
}

/**
 * One loaded collaborative document: the Yjs doc and awareness, its connections, the batch of updates
 * not yet persisted, and its channel to the other processes.
 */
export class CollabDocument {
  readonly doc = new Y.Doc({ gc: true });
  readonly awareness = new awarenessProtocol.Awareness(this.doc);
  readonly connections = new Set<CollabConnection>();
  readonly persistence: DocumentPersistence;
  /** Connections holding the document (including those waiting for it to load). */
  refs = 0;
  ready!: Promise<void>;
  unloadTimer: NodeJS.Timeout | null = null;
  unloading: Promise<void> | null = null;
  /** Updates accepted since the last flush. */
  private readonly pending = new UpdateBatch();
  private pendingActors = new Set<string>();
  /** Connections waiting for a `saved` acknowledgement, with the count of their messages it will cover. */
  private unacked = new Map<CollabConnection, number>();
  private flushTimer: NodeJS.Timeout | null = null;
  /** When a due flush runs at the latest, and when a connection's last message arrived (`performance.now()`). */
  private flushDeadline = 0;
  private lastInputAt = 0;
  private flushing: Promise<void> = Promise.resolve();
  private peerQueue: [BusMessageType, Uint8Array][] | null = [];
  private closed = false;
  /** Updates dropped because they came from read-only connections. */
  droppedReadOnlyUpdates = 0;
  /** Updates the kind's `validateUpdate` refused (decision 0060). */
  refusedUpdates = 0;
  /** Time spent in `validateUpdate` (ms, total) and the number of checks, for the bench. */
  readonly validation = { ms: 0, checks: 0 };
  /** The document with every accepted update: updates are tried here first when the kind validates. */
  private shadow: Y.Doc | null = null;
  private readonly memo = new Map<string, unknown>();
  /** Who the server edit in progress is made for (its actor in the persisted event). */
  private serverActor = '';
  /** Moves by one per applied connection update and per change from elsewhere (`UpdateCheck.version`). */
  private version = 0;

  constructor(
    readonly name: DocumentName,
    stream: string,
    store: ConstructorParameters<typeof DocumentPersistence>[0],
    private readonly bus: CollabBus,
    private readonly options: DocumentOptions,
    private readonly log: Log,
    private readonly kind: DocumentKind | null = null,
  ) {
    this.persistence = new DocumentPersistence(store, stream, options.snapshotEvery);
    this.awareness.setLocalState(null);
    this.doc.on('update', (update: Uint8Array, origin: unknown) => this.onUpdate(update, origin));
    this.awareness.on(
      'update',
      (change: { added: number[]; updated: number[]; removed: number[] }, origin: unknown) =>
        this.onAwareness(change, origin),
    );
  }

  /** Subscribes to the other processes first (so nothing published meanwhile is missed), then loads. */
  load(): Promise<void> {
    this.ready = (async () => {
      await this.bus.join(this.name.name, (type, payload) => this.onPeer(type, payload));
      await this.persistence.load(this.doc);
      const queued = this.peerQueue ?? [];
      this.peerQueue = null;
      for (const [type, payload] of queued) this.applyPeer(type, payload);
      this.kind?.loaded?.(this.loadedView);
      if (this.bus.distributed)
        this.bus.publish(this.name.name, BusMessage.syncRequest, Y.encodeStateVector(this.doc));
    })();
    return this.ready;
  }

  attach(conn: CollabConnection): void {
    this.connections.add(conn);
    conn.send(message(MessageType.sync, (e) => syncProtocol.writeSyncStep1(e, this.doc)));
    const states = this.awareness.getStates();
    if (states.size > 0) {
      conn.send(
        message(MessageType.awareness, (e) =>
          encoding.writeVarUint8Array(
            e,
            awarenessProtocol.encodeAwarenessUpdate(this.awareness, [...states.keys()]),
          ),
        ),
      );
    }
    conn.attach((m) => this.receive(conn, m));
  }

  detach(conn: CollabConnection): void {
    if (!this.connections.delete(conn)) return;
    if (conn.awarenessClients.size > 0)
      awarenessProtocol.removeAwarenessStates(this.awareness, [...conn.awarenessClients], null);
  }

  /** Handles one y-websocket message; throws on a malformed one (the connection closes). */
  private receive(conn: CollabConnection, data: Uint8Array): void {
    this.lastInputAt = performance.now();
    const decoder = decoding.createDecoder(data);
    const type = decoding.readVarUint(decoder);
    switch (type) {
      case MessageType.sync: {
        const sub = decoding.readVarUint(decoder);
        if (sub === syncProtocol.messageYjsSyncStep1) {
          const sv = decoding.readVarUint8Array(decoder);
          conn.send(
            message(MessageType.sync, (e) => {
              encoding.writeVarUint(e, syncProtocol.messageYjsSyncStep2);
              encoding.writeVarUint8Array(e, Y.encodeStateAsUpdate(this.doc, sv));
            }),
          );
        } else if (sub === syncProtocol.messageYjsSyncStep2 || sub === syncProtocol.messageYjsUpdate) {
          const update = decoding.readVarUint8Array(decoder);
          Y.decodeUpdate(update); // throws on a malformed update before anything touches the document
          const seq = ++conn.updatesReceived;
          if (conn.readOnly) {
            this.droppedReadOnlyUpdates++;
            if (this.kind?.refused) this.keepReadOnly(conn, update);
            return;
          }
          if (this.kind?.validateUpdate && !this.validate(conn, update)) return;
          applyToDocument(this.doc, update, conn);
          this.version++;
          if (conn.acks) this.awaitSave(conn, seq);
        } else {
          throw new Error(`unknown sync message ${sub}`);
        }
        return;
      }
      case MessageType.awareness: {
        const update = this.ownAwareness(conn, decoding.readVarUint8Array(decoder));
        if (update) awarenessProtocol.applyAwarenessUpdate(this.awareness, update, conn);
        return;
      }
      case MessageType.queryAwareness: {
        const clients = [...this.awareness.getStates().keys()];
        conn.send(
          message(MessageType.awareness, (e) =>
            encoding.writeVarUint8Array(e, awarenessProtocol.encodeAwarenessUpdate(this.awareness, clients)),
          ),
        );
        return;
      }
      case MessageType.auth:
        return;
      default:
        throw new Error(`unknown message type ${type}`);
    }
  }

  get loadedView(): LoadedDocument {
    return { id: this.name.id, doc: this.doc, memo: this.memo, version: this.version };
  }

  /**
   * Tries the update on the shadow copy and asks the kind: true when it may be applied. A refused
   * update is kept by the kind, its author told (auth message, permission denied, reason JSON) and the
   * connection closed with 4409: its client holds changes the server will never have, and starts again.
   */
  private validate(conn: CollabConnection, update: Uint8Array): boolean {
    const started = performance.now();
    if (!this.shadow) {
      this.shadow = new Y.Doc({ gc: true });
      Y.applyUpdate(this.shadow, Y.encodeStateAsUpdate(this.doc));
    }
    // The shared types the update changed, and for a suggest-only connection what it typed, for a
    // kind's cheap pre-checks.
    const { changed, insertions } = applyToShadow(this.shadow, update, { insertions: conn.suggestOnly });
    let reason: string | null;
    try {
      reason = this.kind!.validateUpdate!({
        id: this.name.id,
        actor: conn.actor,
        suggestOnly: conn.suggestOnly,
        before: this.doc,
        after: this.shadow,
        version: this.version,
        memo: this.memo,
        changed,
        insertions,
      });
    } catch (e) {
      this.log.error({ err: e, document: this.name.name }, 'collaboration: validating an update failed');
      reason = 'invalid';
    }
    this.validation.ms += performance.now() - started;
    this.validation.checks++;
    if (reason === null) return true;
    this.refusedUpdates++;
    const after = this.shadow;
    this.shadow = null;
    this.refuse(conn, update, reason, after);
    return false;
  }

  /** A read-only connection's update that would change the text is kept too (a late edit). */
  private keepReadOnly(conn: CollabConnection, update: Uint8Array): void {
    const after = new Y.Doc({ gc: true });
    Y.applyUpdate(after, Y.encodeStateAsUpdate(this.doc));
    Y.applyUpdate(after, update);
    if (Y.equalSnapshots(Y.snapshot(this.doc), Y.snapshot(after))) return;
    this.refuse(conn, update, 'read_only', after);
  }

  private refuse(conn: CollabConnection, update: Uint8Array, reason: string, after: Y.Doc): void {
    const tell = (ref?: string, text?: string) => {
      conn.send(
        message(MessageType.auth, (e) => {
          encoding.writeVarUint(e, 0); // y-protocols auth: permission denied
          encoding.writeVarString(e, JSON.stringify({ refused: reason, ref, text }));
        }),
      );
      conn.close(CloseCode.editRefused, `edit refused: ${reason}`.slice(0, 120));
    };
    const keeping = this.kind?.refused?.({
      id: this.name.id,
      actor: conn.actor,
      reason,
      update,
      before: this.doc,
      after,
    });
    if (!keeping) return tell();
    keeping.then(
      (kept) => tell(kept?.ref, kept?.text),
      (e: unknown) => {
        this.log.error(
          { err: e, document: this.name.name },
          'collaboration: could not keep a refused update',
        );
        tell();
      },
    );
  }

  /**
   * Keeps only the entries for awareness clients this connection may speak for, and sets `user`
   * (id, name, colour) from the session: what the client claims for those fields is overwritten.
   */
  private ownAwareness(conn: CollabConnection, update: Uint8Array): Uint8Array | null {
    const decoder = decoding.createDecoder(update);
    const encoder = encoding.createEncoder();
    const count = decoding.readVarUint(decoder);
    const entries: [number, number, string][] = [];
    for (let i = 0; i < count; i++) {
      const clientId = decoding.readVarUint(decoder);
      const clock = decoding.readVarUint(decoder);
      const raw = decoding.readVarString(decoder);
      if (!conn.awarenessClients.has(clientId) && this.ownedByOther(conn, clientId)) continue;
      const state = JSON.parse(raw) as unknown;
      let json = 'null';
      if (state !== null) {
        if (typeof state !== 'object' || Array.isArray(state))
          throw new Error('awareness state must be an object');
        const s = state as Record<string, unknown>;
        const claimed =
          typeof s.user === 'object' && s.user !== null ? (s.user as Record<string, unknown>) : {};
        json = JSON.stringify({ ...s, user: { ...claimed, ...conn.user } });
      }
      entries.push([clientId, clock, json]);
    }
    if (entries.length === 0) return null;
    encoding.writeVarUint(encoder, entries.length);
    for (const [clientId, clock, json] of entries) {
      encoding.writeVarUint(encoder, clientId);
      encoding.writeVarUint(encoder, clock);
      encoding.writeVarString(encoder, json);
    }
    return encoding.toUint8Array(encoder);
  }

  private ownedByOther(conn: CollabConnection, clientId: number): boolean {
    for (const other of this.connections)
      if (other !== conn && other.awarenessClients.has(clientId)) return true;
    return false;
  }

  private onUpdate(update: Uint8Array, origin: unknown): void {
    if (!(origin instanceof CollabConnection)) this.version++;
    // The shadow already has a validated connection's update; everything else (peers, other kinds) joins it.
    if (this.shadow && !(origin instanceof CollabConnection)) Y.applyUpdate(this.shadow, update);
    const m = message(MessageType.sync, (e) => syncProtocol.writeUpdate(e, update));
    for (const conn of this.connections) if (conn !== origin) conn.send(m);
    if (origin instanceof CollabConnection || origin === SERVER_EDIT) {
      this.pending.push(update);
      this.pendingActors.add(origin instanceof CollabConnection ? origin.actor.userId : this.serverActor);
      this.bus.publish(this.name.name, BusMessage.update, update);
      this.scheduleFlush();
    }
  }

  private onAwareness(
    change: { added: number[]; updated: number[]; removed: number[] },
    origin: unknown,
  ): void {
    const changed = [...change.added, ...change.updated, ...change.removed];
    if (origin instanceof CollabConnection) {
      for (const id of [...change.added, ...change.updated]) origin.awarenessClients.add(id);
      for (const id of change.removed) origin.awarenessClients.delete(id);
    }
    const update = awarenessProtocol.encodeAwarenessUpdate(this.awareness, changed);
    const m = message(MessageType.awareness, (e) => encoding.writeVarUint8Array(e, update));
    for (const conn of this.connections) if (conn !== origin) conn.send(m);
    if (origin !== FROM_PEER && origin !== 'timeout')
      this.bus.publish(this.name.name, BusMessage.awareness, update);
  }

  private onPeer(type: BusMessageType, payload: Uint8Array): void {
    if (this.closed) return;
    if (this.peerQueue) this.peerQueue.push([type, payload]);
    else this.applyPeer(type, payload);
  }

  private applyPeer(type: BusMessageType, payload: Uint8Array): void {
    try {
      if (type === BusMessage.update) applyToDocument(this.doc, payload, FROM_PEER);
      else if (type === BusMessage.awareness)
        awarenessProtocol.applyAwarenessUpdate(this.awareness, payload, FROM_PEER);
      else if (type === BusMessage.syncRequest) {
        const diff = Y.encodeStateAsUpdate(this.doc, payload);
        if (diff.byteLength > 2) this.bus.publish(this.name.name, BusMessage.update, diff);
        const mine = [...this.connections].flatMap((c) => [...c.awarenessClients]);
        if (mine.length > 0)
          this.bus.publish(
            this.name.name,
            BusMessage.awareness,
            awarenessProtocol.encodeAwarenessUpdate(this.awareness, mine),
          );
      }
    } catch (e) {
      this.log.warn(
        { err: e, document: this.name.name },
        'collaboration: could not apply a message from another process',
      );
    }
  }

  /**
   * A change the server makes itself: applied here, sent to every connection and process, persisted
   * like a client's batch (attributed to `actorId`) before this resolves. `change` says whether it
   * changed anything.
   */
  async serverEdit(change: (doc: Y.Doc) => boolean, actorId: string): Promise<boolean> {
    await this.ready;
    // Whatever reached the stream without passing through this process first (e.g. a first seed).
    await this.persistence.catchUp(this.doc);
    let changed = false;
    this.serverActor = actorId;
    this.doc.transact(() => {
      changed = change(this.doc);
    }, SERVER_EDIT);
    await this.flush();
    return changed;
  }

  /**
   * Acknowledges `seq` once the flush that takes the current batch has committed (decision 0067). An
   * update that changed nothing (the server had it) is acknowledged after that flush too: whatever it
   * duplicated is then either in an earlier committed batch or in this one.
   */
  private awaitSave(conn: CollabConnection, seq: number): void {
    this.unacked.set(conn, seq);
    this.scheduleFlush();
  }

  private sendAcks(acks: Map<CollabConnection, number>): void {
    for (const [conn, seq] of acks)
      if (!conn.closed) conn.send(message(MessageType.saved, (e) => encoding.writeVarUint(e, seq)));
  }

  private scheduleFlush(): void {
    if (this.flushTimer) return;
    this.flushDeadline = performance.now() + this.options.flushMs + FLUSH_MAX_WAIT_MS;
    this.flushTimer = setTimeout(() => this.flushWhenQuiet(), this.options.flushMs);
  }

  /** The flush timer's end: flushes now, or once the connections pause (decision 0085). */
  private flushWhenQuiet(): void {
    const wait = quietFlushWait(performance.now(), this.lastInputAt, this.flushDeadline);
    if (wait > 0) this.flushTimer = setTimeout(() => this.flushWhenQuiet(), wait);
    else void this.flush();
  }

  /** Number of accepted updates not yet persisted. */
  get unflushed(): number {
    return this.pending.count;
  }

  /**
   * Persists the updates accepted so far. Flushes run one after the other; an update is durable once
   * the flush that follows it has completed. A failed flush keeps the batch and retries.
   */
  flush(): Promise<void> {
    if (this.flushTimer) {
      clearTimeout(this.flushTimer);
      this.flushTimer = null;
    }
    const run = this.flushing.then(async () => {
      const acks = this.unacked;
      this.unacked = new Map();
      if (this.pending.count === 0) return this.sendAcks(acks);
      const batch = this.pending.take();
      const actors = [...this.pendingActors];
      this.pendingActors = new Set();
      try {
        await this.persistence.append(this.doc, batch, actors);
        this.sendAcks(acks);
        await this.kind
          ?.persisted?.(this.loadedView, actors)
          .catch((e: unknown) =>
            this.log.error({ err: e, document: this.name.name }, 'collaboration: after-persist hook failed'),
          );
      } catch (e) {
        this.pending.putBack(batch);
        for (const a of actors) this.pendingActors.add(a);
        for (const [conn, seq] of acks) if (!this.unacked.has(conn)) this.unacked.set(conn, seq);
        this.log.error(
          { err: e, document: this.name.name },
          'collaboration: could not persist updates; will retry',
        );
        if (!this.closed && !this.flushTimer)
          this.flushTimer = setTimeout(() => void this.flush(), Math.max(this.options.flushMs, 1000));
        throw e;
      }
    });
    this.flushing = run.catch(() => {});
    return run;
  }

  /** Flushes, leaves the inter-process channel and frees the document. */
  async close(): Promise<void> {
    try {
      await this.flush();
    } finally {
      this.closed = true;
      if (this.flushTimer) clearTimeout(this.flushTimer);
      await this.bus.leave(this.name.name).catch(() => {});
      this.awareness.destroy();
      this.shadow?.destroy();
      this.doc.destroy();
    }
  }
}
