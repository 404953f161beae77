import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import {
  Inject,
  Injectable,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { HttpAdapterHost, ModuleRef } from '@nestjs/core';
import { WebSocketServer, type WebSocket } from 'ws';
import type * as Y from 'yjs';
import { streamIdOf } from '@portal/projections';
import type { AppConfig } from '../config/config.js';
import { EVENT_STORE, type EventStore } from '../event-store/event-store.js';
import type { Log } from '../logging/logger.js';
import { APP_CONFIG, LOGGER } from '../tokens.js';
import { ACTOR_LOADER, type ActorLoader } from '../auth/actor-loader.js';
import { SessionService } from '../auth/session.service.js';
import { actorFrom, type Actor } from '../auth/request-context.js';
import { LocalCollabBus, RedisCollabBus, type AccessNotice, type CollabBus } from './collab-bus.js';
import { CollabConnection, colourFor, type CollabUser } from './collab-connection.js';
import { CollabDocument } from './collab-document.js';
import {
  ACKS_PARAM,
  CloseCode,
  COLLAB_PATH,
  documentStream,
  parseDocumentName,
  type DocumentName,
} from './collab.protocol.js';
import { DocumentKinds, type DocumentPresence } from './document-kinds.js';
import { ProjectionRunner } from '../projections/projection-runner.js';
import type { RecordedEvent } from '../event-store/event-store.js';
import { DISCONNECTING_EVENTS, REFRESHING_EVENTS } from '../live/live-sessions.js';

const STATUS_TEXT: Record<number, string> = {
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  503: 'Service Unavailable',
};

const MODE_RANK = { view: 0, suggest: 1, edit: 2 } as const;

class UpgradeRejection extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
  ) {
    super(detail);
  }
}

/** Token from `?token=`, the `RequestVerificationToken` header or `Authorization: Bearer`. */
export function upgradeToken(req: IncomingMessage, url: URL): string | null {
  const fromQuery = url.searchParams.get('token');
  if (fromQuery) return fromQuery.trim();
  const header = req.headers['requestverificationtoken'];
  const value = Array.isArray(header) ? header[0] : header;
  if (value) return value.trim();
  const auth = req.headers.authorization;
  if (auth?.toLowerCase().startsWith('bearer ')) return auth.slice(7).trim();
  return null;
}

/**
 * The collaboration server: the y-websocket protocol at `/collab/{documentName}` on the portal's own
 * HTTP server. See docs/architecture.md ("Collaborative documents").
 */
@Injectable()
export class CollaborationServer implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly wss: WebSocketServer;
  private readonly documents = new Map<string, CollabDocument>();
  private readonly log: Log;
  private bus: CollabBus = new LocalCollabBus();
  private actors: ActorLoader | null = null;
  private server: Server | null = null;
  private stopping = false;
  /** Every open connection of this process, with its document (for access re-checks). */
  private readonly open = new Map<CollabConnection, DocumentName>();
  private stopApplied: (() => void) | null = null;
  private sweeper: NodeJS.Timeout | null = null;
  /** How often this process re-checks the sessions of its own connections (idle or expired sessions). */
  static sweepIntervalMs = 60_000;
  private readonly onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const path = (req.url ?? '').split('?')[0]!;
    if (!path.startsWith(`${COLLAB_PATH}/`)) return; // someone else's upgrade (Socket.IO, ...)
    void this.upgrade(req, socket, head);
  };

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(LOGGER) log: Log,
    private readonly sessions: SessionService,
    private readonly kinds: DocumentKinds,
    private readonly adapterHost: HttpAdapterHost,
    private readonly moduleRef: ModuleRef,
  ) {
    this.log = log.child({ component: 'collaboration' });
    // ws enforces a hard cap; between the configured limit and the cap we close with our own code.
    this.wss = new WebSocketServer({ noServer: true, maxPayload: config.collab.maxMessageBytes * 2 });
  }

  async onApplicationBootstrap(): Promise<void> {
    this.actors = this.moduleRef.get<ActorLoader>(ACTOR_LOADER, { strict: false });
    if (this.config.redisUrl)
      this.bus = await RedisCollabBus.connect(this.config.redisUrl, this.log, this.config.redisPrefix);
    await this.bus.onAccess((notice) => this.onAccessNotice(notice));
    // The leading process hears committed user events and tells every process (the live channel's signal).
    const runner = this.moduleRef.get(ProjectionRunner, { strict: false });
    this.stopApplied = runner.onApplied((events) => this.accessEvents(events));
    this.sweeper = setInterval(() => {
      this.sweepSessions().catch((e: unknown) =>
        this.log.warn({ err: e }, 'collaboration: session sweep failed'),
      );
    }, CollaborationServer.sweepIntervalMs).unref();
    this.server = this.adapterHost.httpAdapter.getHttpServer() as Server;
    this.server.on('upgrade', this.onUpgrade);
  }

  /**
   * Blocks, deactivations and password changes end the user's connections on every process; permission
   * changes make every process re-check them (see DISCONNECTING_EVENTS and REFRESHING_EVENTS).
   */
  accessEvents(events: readonly RecordedEvent[]): void {
    const recheck = new Set<string>();
    for (const event of events) {
      const userId = streamIdOf(event.stream, 'user');
      if (!userId) continue;
      const reason = DISCONNECTING_EVENTS[event.type];
      if (reason) {
        recheck.delete(userId);
        this.bus.announce({ type: 'end', userId, reason });
      } else if (REFRESHING_EVENTS.has(event.type)) recheck.add(userId);
    }
    for (const userId of recheck) this.bus.announce({ type: 'recheck', userId });
    for (const document of this.kinds.accessChangedBy(events))
      this.bus.announce({ type: 'recheck-document', ...document });
  }

  /** Closes every connection of `userId` on every process, with `reason` as the close reason. */
  endUser(userId: string, reason: string): void {
    this.bus.announce({ type: 'end', userId, reason });
  }

  /** Asks every process to re-check the session and rights of `userId`'s connections. */
  recheckUser(userId: string): void {
    this.bus.announce({ type: 'recheck', userId });
  }

  private onAccessNotice(notice: AccessNotice): void {
    if (notice.type === 'end') {
      for (const conn of this.connectionsOf(notice.userId))
        conn.close(CloseCode.forbidden, notice.reason.slice(0, 120));
      return;
    }
    if (notice.type === 'recheck-document') {
      this.recheckDocument(notice.kind, notice.id).catch((e: unknown) =>
        this.log.error({ err: e, document: notice }, 'collaboration: could not re-check a document'),
      );
      return;
    }
    this.recheckLocal(notice.userId).catch((e: unknown) =>
      this.log.error({ err: e, userId: notice.userId }, 'collaboration: could not re-check access'),
    );
  }

  private connectionsOf(userId: string): CollabConnection[] {
    return [...this.open.keys()].filter((c) => c.actor.userId === userId && !c.closed);
  }

  /**
   * Re-checks this process's connections of `userId`: an ended session or a user who may no longer
   * sign in closes them (4403); a document the user may no longer read closes (4403 `no_access`); a
   * change between read-only and read-write closes with 4501 so the client reconnects with its new rights.
   */
  async recheckLocal(userId: string): Promise<number> {
    const conns = this.connectionsOf(userId);
    if (conns.length === 0) return 0;
    const loaded = await this.actors!.load(userId);
    if (!loaded || !loaded.hasAccess) {
      for (const conn of conns) conn.close(CloseCode.forbidden, 'no_access');
      return conns.length;
    }
    const alive = await this.sessions.alive([...new Set(conns.map((c) => c.actor.sessionId))]);
    let closed = 0;
    for (const conn of conns) {
      if (!alive.has(conn.actor.sessionId)) {
        conn.close(CloseCode.forbidden, 'session_ended');
        closed++;
        continue;
      }
      const actor: Actor = { ...conn.actor, permissions: new Set(loaded.permissions) };
      if (await this.recheckAccess(conn, actor)) closed++;
    }
    return closed;
  }

  /**
   * Re-checks this process's connections to one document after its access rules changed: a reader who
   * may no longer read is closed (4403 `no_access`); a change between read-only and read-write closes
   * with 4501 so the client reconnects with its new rights.
   */
  async recheckDocument(kind: string, id: string): Promise<number> {
    let closed = 0;
    for (const [conn, name] of this.open)
      if (
        !conn.closed &&
        name.kind === kind &&
        name.id === id &&
        (await this.recheckAccess(conn, conn.actor))
      )
        closed++;
    return closed;
  }

  /** Closes `conn` when `actor` may no longer use it as it is; true when it was closed. */
  private async recheckAccess(conn: CollabConnection, actor: Actor): Promise<boolean> {
    const name = this.open.get(conn)!;
    const kind = this.kinds.get(name.kind);
    const canWrite = kind ? await kind.canWrite(actor, name.id) : false;
    const canRead = canWrite || (kind ? await kind.canRead(actor, name.id) : false);
    const suggestOnly = canWrite && kind?.suggestOnly ? await kind.suggestOnly(actor, name.id) : false;
    if (!canRead) conn.close(CloseCode.forbidden, 'no_access');
    else if (canWrite === conn.readOnly || suggestOnly !== conn.suggestOnly)
      conn.close(CloseCode.accessChanged, 'access changed: reconnect');
    else return false;
    return true;
  }

  /**
   * Closes this process's connections whose session has ended without anyone telling us (idle or
   * absolute expiry). Runs every `sweepIntervalMs`.
   */
  async sweepSessions(): Promise<number> {
    const conns = [...this.open.keys()].filter((c) => !c.closed);
    if (conns.length === 0) return 0;
    const alive = await this.sessions.alive([...new Set(conns.map((c) => c.actor.sessionId))]);
    let ended = 0;
    for (const conn of conns) {
      if (alive.has(conn.actor.sessionId)) continue;
      conn.close(CloseCode.forbidden, 'session_ended');
      ended++;
    }
    return ended;
  }

  /** Closes every connection, flushes and unloads every document. */
  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    this.stopApplied?.();
    if (this.sweeper) clearInterval(this.sweeper);
    this.server?.off('upgrade', this.onUpgrade);
    for (const client of this.wss.clients) client.close(CloseCode.goingAway, 'server shutting down');
    await Promise.allSettled([...this.documents.values()].map((d) => this.unload(d)));
    for (const client of this.wss.clients) client.terminate();
    await new Promise<void>((r) => this.wss.close(() => r()));
    await this.bus.close();
  }

  /**
   * Changes a document on the server's own account (not a connection's): loads it here if it is not,
   * applies `change`, lets every editor and process see it and persists it. Answers whether it changed
   * and the document stream's revision after the write (`-1`: no stream).
   */
  async editDocument(
    kind: string,
    id: string,
    actorId: string,
    change: (doc: Y.Doc) => boolean,
  ): Promise<{ changed: boolean; revision: string }> {
    const name = parseDocumentName(`${kind}:${id}`);
    if (!name) throw new Error(`editDocument: not a document name: ${kind}:${id}`);
    const wasLoaded = this.documents.has(name.name);
    const doc = await this.acquire(name);
    try {
      const changed = await doc.serverEdit(change, actorId);
      return { changed, revision: (doc.persistence.revision ?? -1n).toString() };
    } finally {
      // Loaded only for this edit: freed at once (nobody is connected), not after the grace period.
      if (!wasLoaded && doc.refs === 1) {
        doc.refs = 0;
        await this.unload(doc);
      } else this.release(doc);
    }
  }

  /** The loaded document of that name (tests and diagnostics). */
  loadedDocument(name: string): CollabDocument | undefined {
    const d = this.documents.get(name);
    return d && !d.unloading ? d : undefined;
  }

  get loadedDocumentNames(): string[] {
    return [...this.documents.keys()];
  }

  private async upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    socket.on('error', () => socket.destroy());
    try {
      if (this.stopping) throw new UpgradeRejection(503, 'Server shutting down');
      const url = new URL(req.url ?? '/', 'http://localhost');
      const { actor, user } = await this.authenticate(req, url);
      let raw: string;
      try {
        raw = decodeURIComponent(url.pathname.slice(COLLAB_PATH.length + 1));
      } catch {
        throw new UpgradeRejection(404, 'Document not found');
      }
      const name = parseDocumentName(raw);
      const kind = name && this.kinds.get(name.kind);
      if (!name || !kind) throw new UpgradeRejection(404, 'Document not found');
      const canWrite = await kind.canWrite(actor, name.id);
      const canRead = canWrite || (await kind.canRead(actor, name.id));
      if (!canRead) throw new UpgradeRejection(403, 'You do not have access to this document');
      const suggestOnly = canWrite && kind.suggestOnly ? await kind.suggestOnly(actor, name.id) : false;
      if (socket.destroyed) return;
      this.wss.handleUpgrade(
        req,
        socket,
        head,
        (ws) =>
          void this.connect(
            ws,
            name,
            actor,
            user,
            !canWrite,
            suggestOnly,
            url.searchParams.get(ACKS_PARAM) === '1',
          ),
      );
    } catch (e) {
      if (e instanceof UpgradeRejection) return reject(socket, e.status, e.detail);
      this.log.error({ err: e }, 'collaboration: upgrade failed');
      reject(socket, 503, 'Collaboration unavailable');
    }
  }

  /** Same rules as the HTTP guard: no token 401, unverifiable 403, ended 401, unknown user 404. */
  private async authenticate(req: IncomingMessage, url: URL): Promise<{ actor: Actor; user: CollabUser }> {
    const token = upgradeToken(req, url);
    if (!token) throw new UpgradeRejection(401, 'Not authenticated');
    const check = await this.sessions.verify(token);
    if (!check.ok) {
      if (check.reason === 'ended') throw new UpgradeRejection(401, 'Session ended; sign in again');
      throw new UpgradeRejection(403, 'Could not validate credentials');
    }
    const loaded = await this.actors!.load(check.session.userId);
    if (!loaded) throw new UpgradeRejection(404, 'User not found');
    if (!loaded.hasAccess) {
      await this.sessions.revoke(check.session.id);
      throw new UpgradeRejection(401, 'Session ended; sign in again');
    }
    const actor = actorFrom(check.session, loaded);
    const user: CollabUser = {
      id: actor.userId,
      name: actor.displayName || actor.userId,
      color: colourFor(actor.userId),
    };
    return { actor, user };
  }

  private async connect(
    ws: WebSocket,
    name: DocumentName,
    actor: Actor,
    user: CollabUser,
    readOnly: boolean,
    suggestOnly = false,
    acks = false,
  ): Promise<void> {
    const conn = new CollabConnection(ws, actor, user, readOnly, this.config.collab);
    conn.suggestOnly = suggestOnly;
    conn.acks = acks;
    this.open.set(conn, name);
    ws.once('close', () => this.open.delete(conn));
    let doc: CollabDocument;
    try {
      doc = await this.acquire(name);
      await doc.ready;
    } catch (e) {
      this.log.error({ err: e, document: name.name }, 'collaboration: could not load document');
      conn.close(CloseCode.unavailable, 'document could not be loaded');
      return;
    }
    const release = () => {
      doc.detach(conn);
      this.release(doc);
      this.tellPresence(name);
    };
    if (conn.closed || ws.readyState !== ws.OPEN) return release();
    ws.once('close', release);
    doc.attach(conn);
    this.tellPresence(name);
  }

  /** Who is connected to each document of `kind` in this process (the live board's source). */
  presenceOf(kind: string): DocumentPresence[] {
    const byId = new Map<string, DocumentPresence>();
    for (const [conn, name] of this.open) {
      if (name.kind !== kind || conn.closed) continue;
      const entry = byId.get(name.id) ?? { id: name.id, editors: [] };
      byId.set(name.id, entry);
      const since = conn.openedAt.toISOString();
      const mode = conn.readOnly ? 'view' : conn.suggestOnly ? 'suggest' : 'edit';
      const same = entry.editors.find((e) => e.userId === conn.actor.userId);
      if (same) {
        // One user in several tabs: the earliest since, the highest mode.
        if (since < same.since) same.since = since;
        if (MODE_RANK[mode] > MODE_RANK[same.mode]) same.mode = mode;
        continue;
      }
      entry.editors.push({
        userId: conn.actor.userId,
        name: conn.user.name,
        color: conn.user.color,
        mode,
        since,
      });
    }
    return [...byId.values()];
  }

  private tellPresence(name: DocumentName): void {
    const kind = this.kinds.get(name.kind);
    if (!kind?.presence) return;
    const found = this.presenceOf(name.kind).find((p) => p.id === name.id);
    try {
      kind.presence(found ?? { id: name.id, editors: [] });
    } catch (e) {
      this.log.warn({ err: e, document: name.name }, 'collaboration: presence hook failed');
    }
  }

  private async acquire(name: DocumentName): Promise<CollabDocument> {
    for (;;) {
      const existing = this.documents.get(name.name);
      if (existing?.unloading) {
        await existing.unloading.catch(() => {});
        continue;
      }
      if (existing) {
        existing.refs++;
        if (existing.unloadTimer) clearTimeout(existing.unloadTimer);
        existing.unloadTimer = null;
        return existing;
      }
      const doc = new CollabDocument(
        name,
        documentStream(name.kind, name.id),
        this.store,
        this.bus,
        this.config.collab,
        this.log,
        this.kinds.get(name.kind) ?? null,
      );
      doc.refs = 1;
      this.documents.set(name.name, doc);
      doc.load().catch(() => {
        if (this.documents.get(name.name) === doc) this.documents.delete(name.name);
        void this.bus.leave(name.name).catch(() => {});
      });
      return doc;
    }
  }

  private release(doc: CollabDocument): void {
    doc.refs--;
    if (doc.refs > 0 || this.stopping || doc.unloading) return;
    doc.unloadTimer = setTimeout(() => {
      doc.unloadTimer = null;
      if (doc.refs === 0) void this.unload(doc);
    }, this.config.collab.unloadGraceMs);
  }

  private unload(doc: CollabDocument): Promise<void> {
    if (doc.unloadTimer) clearTimeout(doc.unloadTimer);
    doc.unloadTimer = null;
    doc.unloading ??= doc
      .close()
      .catch((e: unknown) =>
        this.log.error({ err: e, document: doc.name.name }, 'collaboration: unload flush failed'),
      )
      .finally(() => {
        if (this.documents.get(doc.name.name) === doc) this.documents.delete(doc.name.name);
      });
    return doc.unloading;
  }
}

/** Answers a refused upgrade with a plain HTTP status and a `{ detail }` body, then closes. */
function reject(socket: Duplex, status: number, detail: string): void {
  if (socket.destroyed) return;
  const body = JSON.stringify({ detail });
  socket.once('finish', () => socket.destroy());
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_TEXT[status] ?? 'Error'}\r\n` +
      'Connection: close\r\nContent-Type: application/json\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}
