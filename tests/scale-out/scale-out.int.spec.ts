/**
 * Two real portal server processes (child processes) on one PostgreSQL database and one Redis: live
 * messages and collaborative edits cross processes, and the projection leadership survives a SIGKILL.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { io as connectClient, type Socket } from 'socket.io-client';
import { WebSocket } from 'ws';
import { WebsocketProvider } from 'y-websocket';
import * as Y from 'yjs';
import {
  LIVE_NAMESPACE,
  LIVE_PATH,
  type ClientToServerEvents,
  type LiveMessage,
  type ServerToClientEvents,
} from '@portal/projections';
import {
  createTestDatabase,
  type TestDatabase,
} from '../../server/src/platform/testing/postgres-test-database.js';
import { waitFor } from '../../server/src/platform/testing/wait-for.js';
import {
  api,
  deleteRedisKeys,
  killAllPortals,
  login,
  startPortal,
  TEST_REDIS_URL,
  type PortalProcess,
} from '../support/portal-processes.js';
import { rebuildAndCompare } from '../support/read-models.js';

type Client = Socket<ServerToClientEvents, ClientToServerEvents>;

async function health(p: PortalProcess): Promise<{ projection_leader: boolean; head_position: string }> {
  const res = await fetch(`${p.url}/api/v1/health`);
  return (await res.json()) as { projection_leader: boolean; head_position: string };
}

function liveClient(base: string, token: string): Promise<{ socket: Client; messages: LiveMessage[] }> {
  const socket: Client = connectClient(`${base}${LIVE_NAMESPACE}`, {
    path: LIVE_PATH,
    auth: { token },
    forceNew: true,
    reconnection: false,
    transports: ['websocket'],
  });
  const messages: LiveMessage[] = [];
  socket.on('live', (m) => messages.push(m));
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve({ socket, messages }));
    socket.once('connect_error', reject);
  });
}

function editor(base: string, room: string, token: string): WebsocketProvider {
  return new WebsocketProvider(`${base.replace(/^http/, 'ws')}/collab`, room, new Y.Doc(), {
    WebSocketPolyfill: WebSocket as unknown as typeof globalThis.WebSocket,
    params: { token },
    disableBc: true,
    maxBackoffTime: 500,
  });
}

const text = (p: WebsocketProvider) => p.doc.getText('body').toJSON();

describe('scale-out: two real server processes on PostgreSQL and Redis', () => {
  let db: TestDatabase;
  const prefix = `test-scale-${randomUUID()}`;
  let env: Record<string, string>;
  /** Started first: leads the projections (until killed). */
  let b: PortalProcess;
  /** Stands by. */
  let a: PortalProcess;
  let tokenA: string;
  let tokenB: string;
  const sockets: Client[] = [];
  const providers: WebsocketProvider[] = [];

  beforeAll(async () => {
    db = await createTestDatabase('portal_scale');
    env = { DATABASE_URL: db.url, REDIS_URL: TEST_REDIS_URL, REDIS_PREFIX: prefix, COLLAB_FLUSH_MS: '50' };
    b = await startPortal(env);
    a = await startPortal(env);
    tokenA = await login(a.url);
    tokenB = await login(b.url);
  }, 120_000);

  afterAll(async () => {
    for (const s of sockets) s.close();
    for (const p of providers) p.destroy();
    await Promise.all([a?.stop(), b?.stop()]);
    await killAllPortals();
    await db?.drop();
    await deleteRedisKeys(prefix);
  }, 60_000);

  it('B leads the projections, A stands by', async () => {
    expect((await health(b)).projection_leader).toBe(true);
    expect((await health(a)).projection_leader).toBe(false);
  });

  it('a command sent over HTTP to B reaches a live message on a socket connected to A', async () => {
    const client = await liveClient(a.url, tokenA);
    sockets.push(client.socket);
    const email = `scale-${randomUUID()}@example.com`;
    const started = Date.now();
    const created = await api(b.url, 'POST', '/users', tokenB, {
      email,
      first_name: 'Scale',
      last_name: 'Out',
      user_type: 'teacher',
    });
    expect(created.status).toBe(201);
    const message = await waitFor('the UserCreated message on A', () =>
      client.messages.find((m) => m.type === 'UserCreated' && m.stream === `user-${String(created.body.id)}`),
    );
    expect(message.position).toBe(created.body.position);
    expect(message.data).toMatchObject({ userId: created.body.id, login: email });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('two y-websocket editors on different processes converge on the same document', async () => {
    const room = `test:${randomUUID()}`;
    const onA = editor(a.url, room, tokenA);
    const onB = editor(b.url, room, tokenB);
    providers.push(onA, onB);
    await waitFor('both synced', () => onA.synced && onB.synced);
    for (let i = 0; i < 50; i++) {
      onA.doc.getText('body').insert(0, 'a');
      onB.doc.getText('body').insert(onB.doc.getText('body').length, 'b');
    }
    await waitFor('convergence', () => text(onA) === text(onB) && text(onA).length === 100);
    expect(text(onA)).toMatch(/^a{50}b{50}$|^[ab]{100}$/);
    expect([...text(onA)].filter((c) => c === 'a')).toHaveLength(50);
  });

  it('a SIGKILLed leader hands the projections to A within 10 s; no event is missed or applied twice', async () => {
    // Two users whose permissions change many times: the permission audit keeps one row per event.
    const users: string[] = [];
    for (let i = 0; i < 2; i++) {
      const created = await api(a.url, 'POST', '/users', tokenA, {
        email: `leader-${randomUUID()}@example.com`,
        first_name: 'Lead',
        last_name: 'Er',
        user_type: 'teacher',
      });
      expect(created.status).toBe(201);
      users.push(String(created.body.id));
    }
    const client = await liveClient(a.url, tokenA);
    sockets.push(client.socket);

    const PER_USER = 60;
    let ok = 0;
    const failures: string[] = [];
    let killedAt = 0;
    // One sequential writer per user (alternating sets, so every command changes something), to A.
    const writer = async (userId: string, killAt: number | null) => {
      for (let n = 0; n < PER_USER; n++) {
        const permissions = n % 2 === 0 ? ['USER_IS_TEACHER', 'CAN_MANAGE_ATTENDANCE'] : ['USER_IS_TEACHER'];
        const r = await api(a.url, 'PUT', `/users/${userId}/permissions`, tokenA, { permissions });
        if (r.status === 200) ok++;
        else failures.push(`${r.status} ${JSON.stringify(r.body)}`);
        if (n === killAt) {
          killedAt = Date.now();
          await b.kill();
        }
      }
    };
    await Promise.all([writer(users[0]!, 20), writer(users[1]!, null)]);
    expect(failures).toEqual([]);
    expect(ok).toBe(2 * PER_USER);
    await waitFor('A to lead the projections', async () => (await health(a)).projection_leader, 10_000);
    const takeoverMs = Date.now() - killedAt;
    expect(takeoverMs).toBeLessThan(10_000);

    // A caught up: the live channel of A announces events after the takeover.
    const head = BigInt((await health(a)).head_position);
    await waitFor('A caught up', () => client.messages.some((m) => BigInt(m.position) >= head), 10_000);

    const { before, after, checkpoints, head: storeHead } = await rebuildAndCompare(db.url);
    for (const position of Object.values(checkpoints)) expect(position).toBe(storeHead);
    expect(before).toEqual(after);
    for (const userId of users) {
      const changes = before.rm_permission_changes!.filter((r) => r.includes(userId));
      expect(changes).toHaveLength(1 + PER_USER); // UserCreated + every permission change, once each
    }
  }, 90_000);
});
