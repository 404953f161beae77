import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import * as encoding from 'lib0/encoding';
import { pino } from 'pino';
import type { WebsocketProvider } from 'y-websocket';
import * as Y from 'yjs';
import { startApp, type RunningApp } from '../../app.js';
import { loadConfig } from '../config/config.js';
import { createTestDatabase, type TestDatabase } from '../testing/postgres-test-database.js';
import { waitFor } from '../testing/wait-for.js';
import { CloseCode, documentStream, DOCUMENT_SNAPSHOT_TAKEN, DOCUMENT_UPDATED } from './collab.protocol.js';
import { CollaborationServer } from './collaboration.server.js';
import { ProjectionRunner } from '../projections/projection-runner.js';
import { DocumentKinds, testDocumentKind } from './document-kinds.js';
import { SessionService } from '../auth/session.service.js';
import {
  closes,
  documentFromStream,
  editor,
  rawSession,
  signedInUser,
  synced,
  text,
  upgradeStatus,
  userEvent,
} from './testing/collab-test-kit.js';

const silent = pino({ level: 'silent' });
const PASSWORD = 'correct horse battery staple';
const COLLAB_ENV = {
  COLLAB_FLUSH_MS: '100',
  COLLAB_SNAPSHOT_EVERY: '20',
  COLLAB_UNLOAD_GRACE_MS: '300',
  COLLAB_MAX_MESSAGE_BYTES: '65536',
  COLLAB_RATE_BURST: '60',
  COLLAB_RATE_PER_SECOND: '30',
};

function registerKinds(running: RunningApp): void {
  const kinds = running.app.get(DocumentKinds);
  kinds.registerKind(testDocumentKind('USER_IS_ADMIN'));
  kinds.registerKind({
    kind: 'secret',
    canRead: (actor) => actor.permissions.has('USER_IS_ADMIN'),
    canWrite: (actor) => actor.permissions.has('USER_IS_ADMIN'),
  });
}

const collab = (running: RunningApp) => running.app.get(CollaborationServer);
const streamEvents = async (running: RunningApp, id: string) =>
  running.infra.eventStore.readStream(documentStream('test', id));

describe('collaboration server, embedded mode', () => {
  let dataDir: string;
  let running: RunningApp;
  let writer: { userId: string; token: string };
  let writer2: { userId: string; token: string };
  let reader: { userId: string; token: string };
  const providers: WebsocketProvider[] = [];
  const open = (room: string, token: string | null) => {
    const p = editor(running, room, token);
    providers.push(p);
    return p;
  };
  const start = async () => {
    running = await startApp(
      loadConfig({
        PORT: '0',
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        FIRST_SUPERUSER_PASSWORD: PASSWORD,
        ...COLLAB_ENV,
      }),
      silent,
    );
    registerKinds(running);
  };

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'portal-collab-'));
    await start();
    writer = await signedInUser(running, ['USER_IS_ADMIN'], 'Ada');
    writer2 = await signedInUser(running, ['USER_IS_ADMIN'], 'Grace');
    reader = await signedInUser(running, ['USER_IS_TEACHER'], 'Rita');
  });
  afterEach(() => {
    for (const p of providers.splice(0)) p.destroy();
  });
  afterAll(async () => {
    await running?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('lets two editors converge, with names and colours in awareness set by the server', async () => {
    const room = `test:${randomUUID()}`;
    const a = open(room, writer.token);
    const b = open(room, writer2.token);
    await Promise.all([synced(a), synced(b)]);
    a.doc.getText('body').insert(0, 'Hello ');
    b.doc.getText('body').insert(0, 'World');
    await waitFor('convergence', () => text(a) === text(b) && text(a).length === 11);
    expect(text(a)).toContain('Hello ');
    expect(text(a)).toContain('World');

    b.awareness.setLocalStateField('user', { id: 'someone-else', name: 'Mallory', color: '#000', extra: 1 });
    b.awareness.setLocalStateField('cursor', { anchor: 3 });
    const seen = await waitFor('awareness of b at a', () => {
      const s = a.awareness.getStates().get(b.doc.clientID) as
        { user?: Record<string, unknown>; cursor?: unknown } | undefined;
      return s?.cursor ? s : undefined;
    });
    expect(seen?.user).toMatchObject({ id: writer2.userId, name: 'Grace User', extra: 1 });
    expect(seen?.user?.color).toMatch(/^#[0-9a-f]{6}$/);
    expect(seen?.user?.color).not.toBe('#000');
  });

  it("gives a read-only user the document but neither applies nor persists that user's edits", async () => {
    const id = randomUUID();
    const room = `test:${id}`;
    const w = open(room, writer.token);
    await synced(w);
    w.doc.getText('body').insert(0, 'official');
    const r = open(room, reader.token);
    await waitFor('reader receives the document', () => text(r) === 'official');

    r.doc.getText('body').insert(0, 'EVIL ');
    // Same socket, later message: once the writer sees this marker the server has handled the edit.
    r.awareness.setLocalStateField('marker', 'after-edit');
    await waitFor('marker at writer', () => {
      const s = w.awareness.getStates().get(r.doc.clientID) as { marker?: string } | undefined;
      return s?.marker === 'after-edit';
    });
    expect(text(w)).toBe('official');
    const doc = collab(running).loadedDocument(room)!;
    expect(doc.doc.getText('body').toJSON()).toBe('official');
    expect(doc.droppedReadOnlyUpdates).toBeGreaterThan(0);

    w.doc.getText('body').insert(8, ' text');
    await waitFor('reader receives later edits', () => text(r).includes('official text'));
    await waitFor('flushed', async () => doc.unflushed === 0 && (await streamEvents(running, id)).length > 0);
    const stored = await documentFromStream(running, documentStream('test', id));
    expect(stored.getText('body').toJSON()).toBe('official text');
  });

  it('refuses upgrades with HTTP 401/403/404 and loads nothing', async () => {
    const id = randomUUID();
    const base = `${running.url.replace(/^http/, 'ws')}/collab`;
    expect(await upgradeStatus(`${base}/test:${id}`)).toBe(401);
    expect(await upgradeStatus(`${base}/test:${id}?token=${'x'.repeat(43)}`)).toBe(403);
    expect(await upgradeStatus(`${base}/secret:${id}?token=${reader.token}`)).toBe(403);
    expect(await upgradeStatus(`${base}/nope:${id}?token=${reader.token}`)).toBe(404);
    expect(await upgradeStatus(`${base}/not-a-name?token=${reader.token}`)).toBe(404);
    expect(await upgradeStatus(`${base}/test:${id}`, { RequestVerificationToken: reader.token })).toBe(101);

    // The stock client without a token: it must stop retrying itself (disconnect on connection-close).
    const p = open(`test:${id}-anon`, null);
    let closes = 0;
    p.on('connection-close', (event) => {
      // event is null for the close that disconnect() itself causes
      if (!event) return;
      closes++;
      p.disconnect();
    });
    await waitFor('connection-close', () => closes > 0);
    expect(p.wsconnected).toBe(false);
    expect(collab(running).loadedDocumentNames).not.toContain(`test:${id}-anon`);
    expect(await streamEvents(running, `${id}-anon`)).toEqual([]);
  });

  it('closes a connection that sends bad input, with a code and reason, and keeps the document intact', async () => {
    const id = randomUUID();
    const room = `test:${id}`;
    const w = open(room, writer.token);
    await synced(w);
    w.doc.getText('body').insert(0, 'intact');
    await waitFor(
      'server has the text',
      () => collab(running).loadedDocument(room)?.doc.getText('body').toJSON() === 'intact',
    );
    const url = `${running.url.replace(/^http/, 'ws')}/collab/${room}?token=${writer.token}`;

    const textFrame = await rawSession(url, (ws) => ws.send('hello'));
    expect(textFrame.code).toBe(CloseCode.malformed);

    const garbage = encoding.createEncoder();
    encoding.writeVarUint(garbage, 0);
    encoding.writeVarUint(garbage, 2);
    encoding.writeVarUint8Array(garbage, new Uint8Array([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]));
    const malformed = await rawSession(url, (ws) => ws.send(encoding.toUint8Array(garbage)));
    expect(malformed.code).toBe(CloseCode.malformed);
    expect(malformed.reason).toMatch(/malformed/);

    const unknownType = await rawSession(url, (ws) => ws.send(new Uint8Array([42])));
    expect(unknownType.code).toBe(CloseCode.malformed);

    const big = await rawSession(url, (ws) => ws.send(new Uint8Array(70_000)));
    expect(big.code).toBe(CloseCode.tooLarge);

    const flooded = await rawSession(url, (ws) => {
      const query = new Uint8Array([3]);
      for (let i = 0; i < 200; i++) ws.send(query);
    });
    expect(flooded.code).toBe(CloseCode.rateLimited);
    expect(flooded.reason).toMatch(/too many/);

    expect(w.wsconnected).toBe(true);
    w.doc.getText('body').insert(6, '!');
    await waitFor(
      'server still works',
      () => collab(running).loadedDocument(room)?.doc.getText('body').toJSON() === 'intact!',
    );
  });

  it('takes a snapshot event after N updates, and loading starts from it', async () => {
    const id = randomUUID();
    const room = `test:${id}`;
    const w = open(room, writer.token);
    await synced(w);
    for (let i = 0; i < 25; i++) w.doc.getText('body').insert(i, String.fromCharCode(97 + i));
    await waitFor('snapshot event', async () =>
      (await streamEvents(running, id)).some((e) => e.type === DOCUMENT_SNAPSHOT_TAKEN),
    );
    w.doc.getText('body').insert(25, 'Z');
    await waitFor('flushed after snapshot', async () => {
      const events = await streamEvents(running, id);
      return (
        events.at(-1)?.type === DOCUMENT_UPDATED && collab(running).loadedDocument(room)?.unflushed === 0
      );
    });
    w.destroy();
    await waitFor('unloaded', () => !collab(running).loadedDocumentNames.includes(room), 5000);

    const again = open(room, writer2.token);
    await synced(again);
    await waitFor('content', () => text(again) === 'abcdefghijklmnopqrstuvwxyZ');
    const loaded = collab(running).loadedDocument(room)!;
    expect(loaded.persistence.lastLoad.fromSnapshot).toBe(true);
    const events = await streamEvents(running, id);
    const snapshotAt = events.findLastIndex((e) => e.type === DOCUMENT_SNAPSHOT_TAKEN);
    expect(loaded.persistence.lastLoad.events).toBe(events.length - snapshotAt);
  });

  it('flushes and unloads a document nobody has open after the grace period', async () => {
    const id = randomUUID();
    const room = `test:${id}`;
    const w = open(room, writer.token);
    await synced(w);
    w.doc.getText('body').insert(0, 'bye');
    await waitFor(
      'loaded with text',
      () => collab(running).loadedDocument(room)?.doc.getText('body').toJSON() === 'bye',
    );
    w.destroy();
    await waitFor('unloaded', () => !collab(running).loadedDocumentNames.includes(room), 5000);
    const stored = await documentFromStream(running, documentStream('test', id));
    expect(stored.getText('body').toJSON()).toBe('bye');
  });

  it('closes a deactivated user’s open documents within a second, with the reason', async () => {
    const gone = await signedInUser(running, ['USER_IS_ADMIN'], 'Gone');
    const p = open(`test:${randomUUID()}`, gone.token);
    const seen = closes(p);
    await synced(p);
    const started = Date.now();
    await userEvent(running, gone.userId, 'UserDeactivated', { scheduled: false });
    await waitFor('the connection closed', () => seen.length > 0, 5000);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(seen[0]).toEqual({ code: CloseCode.forbidden, reason: 'deactivated' });
    expect(p.wsconnected).toBe(false);
  });

  it('closes connections whose session has ended at the next sweep', async () => {
    const idle = await signedInUser(running, ['USER_IS_ADMIN'], 'Idle');
    const p = open(`test:${randomUUID()}`, idle.token);
    const seen = closes(p);
    await synced(p);
    await running.app.get(SessionService).revokeAllForUser(idle.userId);
    expect(await collab(running).sweepSessions()).toBe(1);
    await waitFor('the connection closed', () => seen.length > 0);
    expect(seen[0]).toEqual({ code: CloseCode.forbidden, reason: 'session_ended' });
  });

  it('keeps acknowledged (flushed) content across a restart, and flushes on shutdown', async () => {
    const id = randomUUID();
    const room = `test:${id}`;
    const w = open(room, writer.token);
    await synced(w);
    w.doc.getText('body').insert(0, 'durable');
    await waitFor('flush event in the stream', async () =>
      (await streamEvents(running, id)).some((e) => e.type === DOCUMENT_UPDATED),
    );
    // Not yet flushed when the server stops: graceful shutdown flushes it.
    w.doc.getText('body').insert(7, ' too');
    await waitFor(
      'server has it',
      () => collab(running).loadedDocument(room)?.doc.getText('body').toJSON() === 'durable too',
    );
    w.destroy();
    providers.splice(0);
    await running.close();
    await start();

    const fresh = open(room, writer.token);
    await synced(fresh);
    await waitFor('same content after restart', () => text(fresh) === 'durable too');
    const doc = new Y.Doc();
    Y.applyUpdate(doc, Y.encodeStateAsUpdate(fresh.doc));
    expect(doc.getText('body').toJSON()).toBe('durable too');
  });
});

describe('collaboration server, two processes on PostgreSQL with REDIS_URL', () => {
  let db: TestDatabase;
  const apps: RunningApp[] = [];
  const providers: WebsocketProvider[] = [];

  beforeAll(async () => {
    db = await createTestDatabase('portal_collab');
    for (let i = 0; i < 2; i++) {
      const app = await startApp(
        loadConfig({
          PORT: '0',
          HOST: '127.0.0.1',
          DATABASE_URL: db.url,
          REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
          FIRST_SUPERUSER_PASSWORD: PASSWORD,
          ...COLLAB_ENV,
        }),
        silent,
      );
      registerKinds(app);
      apps.push(app);
    }
  });
  afterAll(async () => {
    for (const p of providers.splice(0)) p.destroy();
    for (const app of apps) await app.close().catch(() => {});
    await db?.drop();
  });

  it('a block or a lost permission closes connections on the other process within a second', async () => {
    const [leader, standby] = apps as [RunningApp, RunningApp];
    expect(leader.app.get(ProjectionRunner).isLeader).toBe(true);
    expect(standby.app.get(ProjectionRunner).isLeader).toBe(false);

    const blocked = await signedInUser(standby, ['USER_IS_ADMIN'], 'Blocked');
    const pb = editor(standby, `test:${randomUUID()}`, blocked.token);
    providers.push(pb);
    const blockedCloses = closes(pb);
    await synced(pb);
    let started = Date.now();
    await userEvent(leader, blocked.userId, 'UserBlocked');
    await waitFor('the blocked user’s connection closed', () => blockedCloses.length > 0, 5000);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(blockedCloses).toEqual([{ code: CloseCode.forbidden, reason: 'blocked' }]);

    // Losing USER_IS_ADMIN: the `secret` document closes (no read), the `test` one reconnects read-only.
    const demoted = await signedInUser(standby, ['USER_IS_ADMIN'], 'Demoted');
    const secret = editor(standby, `secret:${randomUUID()}`, demoted.token);
    const shared = editor(standby, `test:${randomUUID()}`, demoted.token);
    providers.push(secret, shared);
    const secretCloses = closes(secret);
    const sharedCloses = closes(shared);
    await Promise.all([synced(secret), synced(shared)]);
    started = Date.now();
    await userEvent(leader, demoted.userId, 'UserPermissionsChanged', {
      permissions: ['USER_IS_TEACHER'],
      added: ['USER_IS_TEACHER'],
      removed: ['USER_IS_ADMIN'],
    });
    await waitFor('both connections closed', () => secretCloses.length > 0 && sharedCloses.length > 0, 5000);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(secretCloses[0]).toEqual({ code: CloseCode.forbidden, reason: 'no_access' });
    expect(sharedCloses[0]).toEqual({ code: CloseCode.accessChanged, reason: 'access changed: reconnect' });
    // 4501 is a "try again": the provider reconnects, now read-only.
    await waitFor('reconnected read-only', () => {
      const d = collab(standby).loadedDocument(shared.roomname);
      return !!d && [...d.connections].some((c) => c.actor.userId === demoted.userId && c.readOnly);
    });
  });

  it('converges editors connected to different processes and persists both sides once', async () => {
    const [one, two] = apps as [RunningApp, RunningApp];
    const a = await signedInUser(one, ['USER_IS_ADMIN'], 'Ada');
    const b = await signedInUser(two, ['USER_IS_ADMIN'], 'Grace');
    const id = randomUUID();
    const room = `test:${id}`;
    const pa = editor(one, room, a.token);
    providers.push(pa);
    await synced(pa);
    pa.doc.getText('body').insert(0, 'from one;');
    const pb = editor(two, room, b.token);
    providers.push(pb);
    await synced(pb);
    await waitFor('late joiner on the other process gets the text', () => text(pb).includes('from one;'));
    for (let i = 0; i < 10; i++) {
      pa.doc.getText('body').insert(0, 'a');
      pb.doc.getText('body').insert(0, 'b');
    }
    await waitFor('convergence across processes', () => text(pa) === text(pb) && text(pa).length === 29);
    pb.awareness.setLocalStateField('cursor', 1); // a state at clock 0 is never propagated (y-protocols)
    await waitFor('awareness across processes', () => {
      const s = pa.awareness.getStates().get(pb.doc.clientID) as { user?: { id?: string } } | undefined;
      return s?.user?.id === b.userId;
    });
    await waitFor('both flushed', () =>
      apps.every((app) => (collab(app).loadedDocument(room)?.unflushed ?? 0) === 0),
    );
    await waitFor('stream holds everything', async () => {
      const stored = await documentFromStream(one, documentStream('test', id));
      return stored.getText('body').toJSON() === text(pa);
    });
  });
});
