import type { Server as HttpServer } from 'node:http';
import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import { Server } from 'socket.io';
import { createAdapter } from '@socket.io/redis-adapter';
import { createClient } from 'redis';
import { LIVE_ERRORS, LIVE_NAMESPACE, LIVE_PATH, type ResumeResult } from '@portal/projections';
import { APP_CONFIG, EVENT_STORE, LOGGER } from '../tokens.js';
import type { AppConfig } from '../config/config.js';
import type { EventStore } from '../event-store/event-store.js';
import type { Log } from '../logging/logger.js';
import { SessionService } from '../auth/session.service.js';
import { ACTOR_LOADER, type ActorLoader } from '../auth/actor-loader.js';
import { StartupError } from '../infrastructure.js';
import { RoomPolicy, type LiveActor } from './room-policy.js';
import { parsePosition, replayMissed } from './replay.js';
import type { LiveIo, LiveNamespace, LiveSocket } from './live-types.js';

type RedisClient = ReturnType<typeof createClient>;

/** A refused handshake: the client's `connect_error` has this message and `data.status`. */
class LiveAuthError extends Error {
  constructor(
    message: string,
    readonly data: { status: number },
  ) {
    super(message);
  }
}

class ReplayBusyError extends Error {
  constructor() {
    super('A replay is already running for this connection');
  }
}

/**
 * The Socket.IO server of the live channel, on the portal's own HTTP server (path `/socket.io`,
 * namespace `/live`). Authenticates the handshake with the HTTP token, joins the socket to the rooms
 * the `RoomPolicy` derives, and replays missed events on a resume. With REDIS_URL, the Redis adapter
 * carries emits, `fetchSockets` and `disconnectSockets` across processes.
 */
@Injectable()
export class LiveServer implements OnModuleDestroy {
  private io: LiveIo | null = null;
  private redis: RedisClient[] = [];
  private readonly pendingRooms = new WeakMap<LiveSocket, string[]>();
  private readonly replaying = new WeakSet<LiveSocket>();
  private sweeper: NodeJS.Timeout | null = null;
  private readonly connectionHandlers: ((socket: LiveSocket) => void)[] = [];
  /** How often this process re-checks the sessions of its own sockets (idle or expired sessions). */
  static sweepIntervalMs = 60_000;
  private readonly log: Log;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(LOGGER) log: Log,
    @Inject(ACTOR_LOADER) private readonly actors: ActorLoader,
    private readonly sessions: SessionService,
    private readonly policy: RoomPolicy,
  ) {
    this.log = log.child({ component: 'live' });
  }

  /** The `/live` namespace once attached (null before `attach` and after close). */
  get namespace(): LiveNamespace | null {
    return this.io?.of(LIVE_NAMESPACE) ?? null;
  }

  /**
   * Domain modules add their client→server messages here (at module init, before `attach`): the
   * handler runs for every authenticated socket once it has joined its rooms.
   */
  onConnection(handler: (socket: LiveSocket) => void): void {
    this.connectionHandlers.push(handler);
  }

  async attach(httpServer: HttpServer): Promise<void> {
    if (this.io) throw new Error('The live server is already attached');
    const io: LiveIo = new Server(httpServer, {
      path: LIVE_PATH,
      serveClient: false,
      // Other upgrades on this port (the Yjs endpoint at /collab/) may authenticate slowly: leave them be.
      destroyUpgrade: false,
      // A connection lost without a close (network gone, laptop lid shut) is noticed within 10 s, so
      // presence and the sweep do not keep a dead socket for the default 45 s.
      pingInterval: 5_000,
      pingTimeout: 5_000,
    });
    this.io = io;
    if (this.config.redisUrl) io.adapter(await this.redisAdapter(this.config.redisUrl));
    else if (this.config.mode !== 'embedded') {
      this.log.warn(
        'REDIS_URL is not set: live updates reach only the sockets connected to the leading server process',
      );
    }
    io.of('/').use((_socket, next) => next(new Error(`Unknown namespace: use ${LIVE_NAMESPACE}`)));
    const nsp = io.of(LIVE_NAMESPACE);
    nsp.use((socket, next) => {
      this.authenticate(socket).then(
        () => next(),
        (e: unknown) => {
          if (e instanceof LiveAuthError) return next(e);
          this.log.error({ err: e }, 'live handshake failed');
          next(new Error('Live updates are unavailable'));
        },
      );
    });
    nsp.on('connection', (socket) => this.connected(socket));
    this.sweeper = setInterval(() => {
      this.sweepSessions().catch((e: unknown) => this.log.warn({ err: e }, 'live session sweep failed'));
    }, LiveServer.sweepIntervalMs).unref();
  }

  /**
   * Disconnects this process's sockets whose session has ended without anyone telling us (idle or
   * absolute expiry, a revocation without a refresh). Runs every `sweepIntervalMs`.
   */
  async sweepSessions(): Promise<number> {
    const nsp = this.namespace;
    if (!nsp || nsp.sockets.size === 0) return 0;
    const sockets = [...nsp.sockets.values()];
    const alive = await this.sessions.alive([...new Set(sockets.map((s) => s.data.sessionId))]);
    let ended = 0;
    for (const socket of sockets) {
      if (alive.has(socket.data.sessionId)) continue;
      socket.emit('ended', { reason: 'session_ended' });
      socket.disconnect(true);
      ended++;
    }
    return ended;
  }

  async onModuleDestroy(): Promise<void> {
    const io = this.io;
    this.io = null;
    if (this.sweeper) clearInterval(this.sweeper);
    this.sweeper = null;
    if (!io) return;
    io.of(LIVE_NAMESPACE).local.disconnectSockets(true);
    io.engine.close();
    for (const nsp of [io.of('/'), io.of(LIVE_NAMESPACE)]) await Promise.resolve(nsp.adapter.close());
    const clients = this.redis;
    this.redis = [];
    await Promise.all(clients.map((c) => c.close().catch(() => c.destroy())));
  }

  /** Rooms for a user now, or null when they may not use the live channel. */
  async roomsFor(userId: string): Promise<string[] | null> {
    const loaded = await this.actors.load(userId);
    if (!loaded || !loaded.hasAccess) return null;
    const actor: LiveActor = {
      userId,
      permissions: new Set(loaded.permissions),
      customerId: loaded.customerId ?? null,
    };
    return this.policy.rooms(actor);
  }

  private async authenticate(socket: LiveSocket): Promise<void> {
    const auth = socket.handshake.auth as { token?: unknown };
    const token = typeof auth.token === 'string' ? auth.token.trim() : '';
    if (!token) throw new LiveAuthError(LIVE_ERRORS.notAuthenticated, { status: 401 });
    const check = await this.sessions.verify(token);
    if (!check.ok) {
      if (check.reason === 'ended') throw new LiveAuthError(LIVE_ERRORS.sessionEnded, { status: 401 });
      throw new LiveAuthError(LIVE_ERRORS.invalidCredentials, { status: 403 });
    }
    const loaded = await this.actors.load(check.session.userId);
    if (!loaded) throw new LiveAuthError(LIVE_ERRORS.userNotFound, { status: 404 });
    if (!loaded.hasAccess) {
      await this.sessions.revoke(check.session.id);
      throw new LiveAuthError(LIVE_ERRORS.sessionEnded, { status: 401 });
    }
    socket.data = {
      userId: check.session.userId,
      sessionId: check.session.id,
      impersonatorId: check.session.impersonatorId,
    };
    const rooms = this.policy.rooms({
      userId: check.session.userId,
      permissions: new Set(loaded.permissions),
      customerId: loaded.customerId ?? null,
    });
    this.pendingRooms.set(socket, rooms);
  }

  private connected(socket: LiveSocket): void {
    // Joined before anything is replayed: nothing published from here on is missed.
    void socket.join(this.pendingRooms.get(socket) ?? []);
    this.pendingRooms.delete(socket);
    for (const handler of this.connectionHandlers) handler(socket);
    socket.on('resume', (lastPosition, ack) => {
      if (typeof ack !== 'function') return;
      const after = parsePosition(lastPosition);
      if (after === null) {
        ack({ error: 'lastPosition must be a decimal string' });
        return;
      }
      this.replay(socket, after).then(ack, (e: unknown) => {
        if (e instanceof ReplayBusyError) return ack({ error: e.message });
        this.log.error({ err: e, userId: socket.data.userId }, 'live replay failed');
        ack({ error: 'Could not replay missed events' });
      });
    });
    const after = parsePosition((socket.handshake.auth as { lastPosition?: unknown }).lastPosition);
    if (after !== null) {
      this.replay(socket, after).then(
        (result) => socket.emit('resumed', result),
        (e: unknown) => {
          this.log.error({ err: e, userId: socket.data.userId }, 'live replay failed');
          socket.emit('resumed', { replayed: 0, upTo: after.toString(), truncated: true });
        },
      );
    }
  }

  /** One replay at a time per socket (each may read up to LIVE_REPLAY_LIMIT events). */
  private async replay(socket: LiveSocket, after: bigint): Promise<ResumeResult> {
    if (this.replaying.has(socket)) throw new ReplayBusyError();
    this.replaying.add(socket);
    try {
      return await replayMissed(this.store, this.policy, socket.rooms, after, (message) => {
        if (socket.connected) socket.emit('live', message);
      });
    } finally {
      this.replaying.delete(socket);
    }
  }

  private async redisAdapter(url: string) {
    let started = false;
    const pub: RedisClient = createClient({
      url,
      socket: {
        connectTimeout: 5000,
        // At start, give up after a few tries (startup fails naming REDIS_URL); later, retry for ever.
        reconnectStrategy: (retries: number, cause: Error) =>
          !started && retries >= 2 ? new Error(cause.message) : Math.min(100 * 2 ** retries, 2000),
      },
    });
    const sub = pub.duplicate();
    this.redis = [pub, sub];
    for (const client of this.redis) {
      client.on('error', (e: unknown) => this.log.warn({ err: e }, 'Redis connection error (live updates)'));
    }
    const timeout = new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error('no answer within 10 s')), 10_000).unref(),
    );
    try {
      await Promise.race([Promise.all([pub.connect(), sub.connect()]), timeout]);
      started = true;
    } catch (e) {
      await Promise.all(this.redis.map((c) => Promise.resolve(c.destroy())));
      this.redis = [];
      throw new StartupError(
        `Could not reach Redis at REDIS_URL: ${(e as Error).message}. Check that Redis runs and fix REDIS_URL.`,
      );
    }
    return createAdapter(pub, sub, { key: `${this.config.redisPrefix}:live` });
  }
}
