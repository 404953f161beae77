import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { IncomingMessage, Server as HttpServer } from 'node:http';
import { connect as tcpConnect } from 'node:net';
import type { Duplex } from 'node:stream';
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { pino } from 'pino';
import { io as connectClient, type Socket as ClientSocket } from 'socket.io-client';
import {
  LIVE_NAMESPACE,
  LIVE_PATH,
  type ClientToServerEvents,
  type LiveHandshakeAuth,
  type LiveMessage,
  type ResumeResult,
  type ServerToClientEvents,
  type UserCreatedData,
} from '@portal/projections';
import { startApp, type RunningApp } from '../../app.js';
import { loadConfig } from '../config/config.js';
import { SessionService } from '../auth/session.service.js';
import { ProjectionRunner } from '../projections/projection-runner.js';
import { createTestDatabase, type TestDatabase } from '../testing/postgres-test-database.js';
import { waitFor } from '../testing/wait-for.js';
import { LiveServer } from './live-server.js';
import { LiveSessions } from './live-sessions.js';
import { RoomPolicy } from './room-policy.js';
import { replayMissed } from './replay.js';

const silent = pino({ level: 'silent' });
const PASSWORD = 'correct horse battery staple';
const ADMIN = 'admin@example.com';
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

type Client = ClientSocket<ServerToClientEvents, ClientToServerEvents>;

interface Received {
  socket: Client;
  messages: LiveMessage[];
  ended: string[];
  disconnects: string[];
}

const sockets: Client[] = [];

/** Connects a real socket.io-client to `/live`; resolves once connected, rejects with the connect_error. */
function connect(base: string, auth: Partial<LiveHandshakeAuth>, websocketOnly = true): Promise<Received> {
  const socket: Client = connectClient(`${base}${LIVE_NAMESPACE}`, {
    path: LIVE_PATH,
    auth,
    forceNew: true,
    reconnection: false,
    ...(websocketOnly ? { transports: ['websocket'] } : {}),
  });
  sockets.push(socket);
  const received: Received = { socket, messages: [], ended: [], disconnects: [] };
  socket.on('live', (m) => received.messages.push(m));
  socket.on('ended', (e) => received.ended.push(e.reason));
  socket.on('disconnect', (reason) => received.disconnects.push(reason));
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(received));
    socket.once('connect_error', (e) => {
      socket.close();
      reject(e);
    });
  });
}

async function login(base: string, username = ADMIN, password = PASSWORD): Promise<string> {
  const res = await fetch(`${base}/api/v1/login/access-token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ username, password }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { access_token: string }).access_token;
}

/** Appends a UserCreated (as the identity module does) and returns the user id and position. */
async function createUser(
  running: RunningApp,
  permissions: string[] = ['USER_IS_TEACHER'],
): Promise<{ userId: string; position: bigint }> {
  const userId = randomUUID();
  const data: UserCreatedData = {
    userId,
    login: `${userId}@example.com`,
    email: `${userId}@example.com`,
    firstName: 'Test',
    lastName: 'User',
    userType: 'teacher',
    permissions,
  };
  const r = await running.infra.eventStore.append(
    `user-${userId}`,
    [{ id: randomUUID(), type: 'UserCreated', data, metadata: { actorId: null } }],
    { expectedRevision: 'no_stream' },
  );
  return { userId, position: r.position };
}

async function appendToUser(running: RunningApp, userId: string, type: string): Promise<bigint> {
  const r = await running.infra.eventStore.append(
    `user-${userId}`,
    [{ id: randomUUID(), type, data: { userId }, metadata: { actorId: null } }],
    { expectedRevision: 'any' },
  );
  return r.position;
}

/** A signed-in user without administrator rights, with a token. */
async function teacher(running: RunningApp): Promise<{ userId: string; token: string }> {
  const { userId, position } = await createUser(running);
  expect(await running.app.get(ProjectionRunner).waitForPosition(position, 10_000)).toBe(true);
  const { token } = await running.app.get(SessionService).create(userId);
  return { userId, token };
}

const at = (r: Received, position: bigint) => r.messages.filter((m) => m.position === position.toString());

afterEach(() => {
  for (const s of sockets.splice(0)) s.close();
});

describe('live updates (/live), one server on PostgreSQL', () => {
  let db: TestDatabase;
  let running: RunningApp;
  let adminToken: string;
  beforeAll(async () => {
    db = await createTestDatabase('portal_live');
    running = await startApp(
      loadConfig({ PORT: '0', HOST: '127.0.0.1', DATABASE_URL: db.url, FIRST_SUPERUSER_PASSWORD: PASSWORD }),
      silent,
    );
    adminToken = await login(running.url);
  });
  afterAll(async () => {
    await running?.close();
    await db?.drop();
  });

  it('refuses a handshake without a valid session, with the HTTP API wording', async () => {
    await expect(connect(running.url, { token: 'x'.repeat(43) })).rejects.toThrow(
      'Could not validate credentials',
    );
    await expect(connect(running.url, { token: 'not even a token' })).rejects.toThrow(
      'Could not validate credentials',
    );
    await expect(connect(running.url, {})).rejects.toThrow('Not authenticated');

    const ended = await teacher(running);
    await running.app.get(SessionService).revokeAllForUser(ended.userId);
    await expect(connect(running.url, { token: ended.token })).rejects.toThrow(
      'Session ended; sign in again',
    );

    const noAccess = await teacher(running);
    await running.infra.sql.query('UPDATE rm_users SET has_access = false WHERE id = $1', [noAccess.userId]);
    await expect(connect(running.url, { token: noAccess.token })).rejects.toThrow(
      'Session ended; sign in again',
    );
    // The main namespace is closed: only /live exists.
    const main = connectClient(running.url, { path: LIVE_PATH, auth: { token: adminToken }, forceNew: true });
    sockets.push(main);
    const error = await new Promise<Error>((resolve) => main.once('connect_error', resolve));
    expect(error.message).toMatch(/Unknown namespace/);
  });

  it('leaves other upgrades on the same port alone, even when they answer after 1 s (the Yjs endpoint)', async () => {
    const http: HttpServer = running.app.getHttpServer();
    const slowUpgrade = (req: IncomingMessage, socket: Duplex) => {
      if (!req.url?.startsWith('/collab-probe/')) return;
      setTimeout(() => socket.end('HTTP/1.1 418 I am a teapot\r\nConnection: close\r\n\r\n'), 1200);
    };
    http.on('upgrade', slowUpgrade);
    try {
      const answer = await new Promise<string>((resolve, reject) => {
        const tcp = tcpConnect(Number(new URL(running.url).port), '127.0.0.1', () =>
          tcp.write(
            'GET /collab-probe/doc HTTP/1.1\r\nHost: localhost\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n' +
              'Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n',
          ),
        );
        let data = '';
        tcp.on('data', (chunk: Buffer) => (data += chunk.toString()));
        tcp.on('close', () => resolve(data));
        tcp.on('error', reject);
      });
      expect(answer).toMatch(/^HTTP\/1\.1 418/);
    } finally {
      http.off('upgrade', slowUpgrade);
    }
  });

  it('sends a UserCreated to administrators within 1 s, and not to a user without rights', async () => {
    const other = await teacher(running);
    const admin = await connect(running.url, { token: adminToken }, false);
    const plain = await connect(running.url, { token: other.token });

    const started = Date.now();
    const created = await createUser(running);
    const message = await waitFor(
      'the UserCreated at the admin socket',
      () => at(admin, created.position)[0],
    );
    const latency = Date.now() - started;
    expect(latency).toBeLessThan(1000);
    expect(message).toEqual({
      type: 'UserCreated',
      stream: `user-${created.userId}`,
      position: created.position.toString(),
      data: { userId: created.userId, login: `${created.userId}@example.com`, userType: 'teacher' },
    });

    // Emits reach a socket in order: once the teacher sees a later event of their own, the UserCreated
    // (earlier) was not sent to them.
    const own = await appendToUser(running, other.userId, 'UserProfileUpdated');
    const ownMessage = await waitFor('the teacher’s own event', () => at(plain, own)[0]);
    expect(ownMessage?.data).toEqual({ userId: other.userId });
    expect(plain.messages.map((m) => m.position)).toEqual([own.toString()]);
    // An administrator gets each event once, even though they are in several of its rooms.
    await waitFor('the admin to see the teacher’s event', () => at(admin, own).length === 1);
    expect(at(admin, created.position)).toHaveLength(1);
  });

  it('replays missed events after a reconnect exactly once, through the same room policy', async () => {
    const runner = running.app.get(ProjectionRunner);
    const other = await teacher(running);
    const first = await connect(running.url, { token: adminToken });
    const seen = await createUser(running);
    await waitFor('the first event', () => at(first, seen.position).length === 1);
    first.socket.close();

    // Missed while offline: two users created, one event on the teacher's own stream.
    const missedA = await createUser(running);
    const missedB = await createUser(running);
    const teachers = await appendToUser(running, other.userId, 'UserProfileUpdated');
    expect(await runner.waitForPosition(teachers, 10_000)).toBe(true);

    const again = await connect(running.url, { token: adminToken, lastPosition: seen.position.toString() });
    const resumed = await new Promise<ResumeResult>((resolve) => again.socket.once('resumed', resolve));
    expect(resumed).toEqual({ replayed: 3, upTo: teachers.toString(), truncated: false });
    expect(again.messages.map((m) => m.position)).toEqual(
      [missedA.position, missedB.position, teachers].map(String),
    );

    // The teacher, resuming from the same point, gets only what their rooms may see.
    const plain = await connect(running.url, { token: other.token });
    const ack = await plain.socket.emitWithAck('resume', seen.position.toString());
    expect(ack).toEqual({ replayed: 1, upTo: teachers.toString(), truncated: false });
    expect(plain.messages).toEqual([
      {
        type: 'UserProfileUpdated',
        stream: `user-${other.userId}`,
        position: String(teachers),
        data: { userId: other.userId },
      },
    ]);
    const [one, two] = await Promise.all([
      plain.socket.emitWithAck('resume', '0'),
      plain.socket.emitWithAck('resume', '0'),
    ]);
    expect(one).toMatchObject({ truncated: false });
    expect(two).toEqual({ error: 'A replay is already running for this connection' });
    expect(await plain.socket.emitWithAck('resume', 'yesterday')).toEqual({
      error: 'lastPosition must be a decimal string',
    });

    // The replay is bounded: more missed events than the limit → truncated (the client refetches).
    const bounded = await replayMissed(
      running.infra.eventStore,
      running.app.get(RoomPolicy),
      new Set(['admins']),
      seen.position,
      () => {},
      2,
    );
    expect(bounded).toEqual({ replayed: 2, upTo: missedB.position.toString(), truncated: true });
  });

  it('disconnects a user’s sockets within 1 s when their sessions are revoked or they are blocked', async () => {
    const live = running.app.get(LiveSessions);
    const revoked = await teacher(running);
    const socket = await connect(running.url, { token: revoked.token });
    const started = Date.now();
    await running.app.get(SessionService).revokeAllForUser(revoked.userId);
    expect(await live.refreshUser(revoked.userId)).toEqual({ kept: 0, disconnected: 1 });
    await waitFor('the revoked socket to be disconnected', () => socket.disconnects.length > 0);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(socket.disconnects).toEqual(['io server disconnect']);
    expect(socket.ended).toEqual(['session_ended']);

    // A session that ends without a refresh (here: revoked directly) is found by the periodic sweep.
    const swept = await teacher(running);
    const sweptSocket = await connect(running.url, { token: swept.token });
    const admin = await connect(running.url, { token: adminToken });
    await running.app.get(SessionService).revokeAllForUser(swept.userId);
    expect(await running.app.get(LiveServer).sweepSessions()).toBe(1);
    await waitFor('the swept socket to be disconnected', () => sweptSocket.disconnects.length > 0);
    expect(sweptSocket.ended).toEqual(['session_ended']);
    expect(admin.disconnects).toEqual([]);

    const blocked = await teacher(running);
    const blockedSocket = await connect(running.url, { token: blocked.token });
    const blockedAt = Date.now();
    await appendToUser(running, blocked.userId, 'UserBlocked');
    await waitFor('the blocked socket to be disconnected', () => blockedSocket.disconnects.length > 0);
    expect(Date.now() - blockedAt).toBeLessThan(1000);
    expect(blockedSocket.ended).toEqual(['blocked']);
    expect(blockedSocket.messages.map((m) => m.type)).toEqual(['UserBlocked']);
  });

  it('re-derives a user’s rooms when their permissions change', async () => {
    const promoted = await teacher(running);
    const socket = await connect(running.url, { token: promoted.token });
    await running.infra.sql.query(`UPDATE rm_users SET permissions = '["USER_IS_ADMIN"]' WHERE id = $1`, [
      promoted.userId,
    ]);
    // The identity module appends UserPermissionsChanged; the publisher refreshes the user's rooms.
    const changed = await appendToUser(running, promoted.userId, 'UserPermissionsChanged');
    await waitFor('the permission change', () => at(socket, changed).length === 1);
    await waitFor('the admins room', async () => {
      const [remote] = await running.app
        .get(LiveServer)
        .namespace!.in(`user:${promoted.userId}`)
        .fetchSockets();
      return remote?.rooms.has('admins');
    });
    const created = await createUser(running);
    await waitFor(
      'an admin-only event at the promoted user',
      () => at(socket, created.position).length === 1,
    );

    await running.infra.sql.query(`UPDATE rm_users SET permissions = '[]' WHERE id = $1`, [promoted.userId]);
    expect(await running.app.get(LiveSessions).refreshUser(promoted.userId)).toEqual({
      kept: 1,
      disconnected: 0,
    });
    const own = await appendToUser(running, promoted.userId, 'UserProfileUpdated');
    const later = await createUser(running);
    const after = await appendToUser(running, promoted.userId, 'UserProfileUpdated');
    await waitFor('the user’s own later event', () => at(socket, after).length === 1);
    expect(at(socket, own)).toHaveLength(1);
    expect(at(socket, later.position)).toHaveLength(0);
  });
});

describe('live updates in embedded mode (PGlite)', () => {
  let dataDir: string;
  let running: RunningApp;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'portal-live-'));
    running = await startApp(
      loadConfig({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, FIRST_SUPERUSER_PASSWORD: PASSWORD }),
      silent,
    );
  });
  let closed = false;
  afterAll(async () => {
    if (!closed) await running?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('publishes to an admin socket and drops a revoked session’s socket', async () => {
    const admin = await connect(running.url, { token: await login(running.url) });
    const other = await teacher(running);
    const socket = await connect(running.url, { token: other.token });
    const created = await createUser(running);
    await waitFor('the UserCreated at the admin socket', () => at(admin, created.position).length === 1);
    await running.app.get(SessionService).revokeAllForUser(other.userId);
    expect(await running.app.get(LiveSessions).refreshUser(other.userId)).toEqual({
      kept: 0,
      disconnected: 1,
    });
    await waitFor('the revoked socket to be disconnected', () => socket.disconnects.length > 0);
    expect(admin.disconnects).toEqual([]);
  });

  it('closes promptly with sockets still open, and ends them', async () => {
    const admin = await connect(running.url, { token: await login(running.url) });
    const started = Date.now();
    closed = true;
    await running.close();
    expect(Date.now() - started).toBeLessThan(5000);
    await waitFor('the socket to be disconnected', () => admin.disconnects.length > 0);
  });
});

describe('live updates across two server processes with REDIS_URL', () => {
  let db: TestDatabase;
  let a: RunningApp;
  let b: RunningApp;
  beforeAll(async () => {
    db = await createTestDatabase('portal_live_redis');
    const env = {
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: db.url,
      FIRST_SUPERUSER_PASSWORD: PASSWORD,
      REDIS_URL,
      REDIS_PREFIX: `test-live-${randomUUID()}`,
    };
    // B starts first and leads the projections; A stands by, so A's sockets hear only through Redis.
    b = await startApp(loadConfig(env), silent);
    a = await startApp(loadConfig(env), silent);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await db?.drop();
  });

  it('refuses to start, naming REDIS_URL, when Redis cannot be reached', async () => {
    const config = loadConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: db.url,
      FIRST_SUPERUSER_PASSWORD: PASSWORD,
      REDIS_URL: 'redis://127.0.0.1:1',
    });
    await expect(startApp(config, silent)).rejects.toThrow(/REDIS_URL/);
  });

  it('an event appended via process B reaches a client connected to process A', async () => {
    expect(b.app.get(ProjectionRunner).isLeader).toBe(true);
    expect(a.app.get(ProjectionRunner).isLeader).toBe(false);
    const admin = await connect(a.url, { token: await login(a.url) });
    const started = Date.now();
    const created = await createUser(b);
    await waitFor('the event at the socket on A', () => at(admin, created.position).length === 1);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('process B disconnects a user’s socket connected to process A', async () => {
    const other = await teacher(b);
    const socket = await connect(a.url, { token: other.token });
    await b.app.get(SessionService).revokeAllForUser(other.userId);
    const started = Date.now();
    expect(await b.app.get(LiveSessions).refreshUser(other.userId)).toEqual({ kept: 0, disconnected: 1 });
    await waitFor('the socket on A to be disconnected', () => socket.disconnects.length > 0);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(socket.ended).toEqual(['session_ended']);
  });
});
