import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import * as decoding from 'lib0/decoding';
import { pino } from 'pino';
import { WebSocket } from 'ws';
import { WebsocketProvider } from 'y-websocket';
import * as Y from 'yjs';
import { startApp, type RunningApp } from '../../app.js';
import { loadConfig } from '../config/config.js';
import { waitFor } from '../testing/wait-for.js';
import type { EventStore } from '../event-store/event-store.js';
import { CloseCode, documentStream, MessageType } from './collab.protocol.js';
import { DocumentKinds } from './document-kinds.js';
import { closes, documentFromStream, signedInUser, synced } from './testing/collab-test-kit.js';

const silent = pino({ level: 'silent' });
const FLUSH_MS = 100;

/**
 * Decision 0067: the collaboration server acknowledges a client's updates (`saved`, n) only after the
 * batch holding them is committed to the event store, and never acknowledges a refused update.
 */
describe('collaboration server: "saved" acknowledgements', () => {
  let dataDir: string;
  let running: RunningApp;
  let writer: { userId: string; token: string };
  const providers: WebsocketProvider[] = [];
  /** Appends to streams named here wait until the gate opens (or fail, when `fail` is set). */
  const gate = { held: new Set<string>(), fail: new Set<string>(), release: [] as (() => void)[] };

  /** An editor that asks for acknowledgements and records each one (the count it carries). */
  const ackingEditor = (room: string) => {
    const doc = new Y.Doc();
    const p = new WebsocketProvider(`${running.url.replace(/^http/, 'ws')}/collab`, room, doc, {
      WebSocketPolyfill: WebSocket as unknown as typeof globalThis.WebSocket,
      params: { token: writer.token, acks: '1' },
      disableBc: true,
      maxBackoffTime: 500,
    });
    const acks: number[] = [];
    p.messageHandlers[MessageType.saved] = (_encoder, decoder) => {
      acks.push(decoding.readVarUint(decoder));
    };
    providers.push(p);
    return { p, acks, body: doc.getText('body') };
  };
  const stored = async (id: string, kind = 'test') =>
    (await documentFromStream(running, documentStream(kind, id))).getText('body').toJSON();
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'portal-collab-acks-'));
    running = await startApp(
      loadConfig({
        PORT: '0',
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        FIRST_SUPERUSER_PASSWORD: 'correct horse battery staple',
        COLLAB_FLUSH_MS: String(FLUSH_MS),
      }),
      silent,
    );
    const kinds = running.app.get(DocumentKinds);
    kinds.registerKind({ kind: 'test', canRead: () => true, canWrite: () => true });
    kinds.registerKind({
      kind: 'picky',
      canRead: () => true,
      canWrite: () => true,
      validateUpdate: ({ after }) => (after.getText('body').toJSON().includes('NO') ? 'no_shouting' : null),
      refused: () => Promise.resolve({ ref: 'kept' }),
    });
    const store: EventStore = running.infra.eventStore;
    const append = store.append.bind(store);
    store.append = async (stream: string, ...rest: unknown[]) => {
      if (gate.fail.has(stream)) {
        gate.fail.delete(stream);
        throw new Error('store unavailable (test)');
      }
      if (gate.held.has(stream)) await new Promise<void>((r) => gate.release.push(r));
      return (append as (...a: unknown[]) => ReturnType<EventStore['append']>)(stream, ...rest);
    };
    writer = await signedInUser(running, ['USER_IS_ADMIN'], 'Ada');
  });
  afterEach(() => {
    for (const p of providers.splice(0)) p.destroy();
  });
  afterAll(async () => {
    await running?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('acknowledges an update only once it is readable from the event store', async () => {
    const id = randomUUID();
    const stream = documentStream('test', id);
    const { p, acks, body } = ackingEditor(`test:${id}`);
    await synced(p);
    // The first message (sync step 2, nothing new) is acknowledged after the next (empty) flush.
    await waitFor('ack of the sync step', () => acks.length > 0);
    const before = acks.at(-1)!;

    gate.held.add(stream);
    body.insert(0, 'kept safe');
    await sleep(FLUSH_MS * 6);
    // The flush is stuck in the store: nothing is acknowledged and nothing is stored.
    expect(acks.at(-1)).toBe(before);
    expect(await stored(id)).toBe('');

    gate.held.delete(stream);
    for (const r of gate.release.splice(0)) r();
    await waitFor('ack after the commit', () => acks.at(-1)! > before);
    expect(acks.at(-1)).toBe(before + 1);
    expect(await stored(id)).toBe('kept safe');
  });

  it('does not acknowledge a batch whose write failed until the retry has committed it', async () => {
    const id = randomUUID();
    const stream = documentStream('test', id);
    const { p, acks, body } = ackingEditor(`test:${id}`);
    await synced(p);
    await waitFor('ack of the sync step', () => acks.length > 0);
    const before = acks.at(-1)!;
    gate.fail.add(stream);
    body.insert(0, 'retried');
    // The failed flush retries after max(flushMs, 1000) ms; no ack before that.
    await sleep(600);
    expect(acks.at(-1)).toBe(before);
    await waitFor('ack after the retry', () => acks.at(-1)! > before, 5000);
    expect(gate.fail.has(stream)).toBe(false);
    expect(await stored(id)).toBe('retried');
  });

  it('never acknowledges a refused update', async () => {
    const id = randomUUID();
    const { p, acks, body } = ackingEditor(`picky:${id}`);
    const closed = closes(p);
    p.messageHandlers[MessageType.auth] = () => {}; // the refusal notice (tested elsewhere)
    await synced(p);
    body.insert(0, 'fine');
    await waitFor('ack of the accepted edit', () => acks.length > 0 && acks.at(-1)! >= 2);
    const accepted = acks.at(-1)!;
    body.insert(4, ' NO');
    await waitFor('closed as refused', () => closed.some((c) => c.code === CloseCode.editRefused));
    await sleep(FLUSH_MS * 4);
    expect(acks.at(-1)).toBe(accepted);
    expect(await stored(id, 'picky')).toBe('fine');
  });

  it('sends nothing to a client that did not ask (a stock y-websocket client)', async () => {
    const id = randomUUID();
    const doc = new Y.Doc();
    const p = new WebsocketProvider(`${running.url.replace(/^http/, 'ws')}/collab`, `test:${id}`, doc, {
      WebSocketPolyfill: WebSocket as unknown as typeof globalThis.WebSocket,
      params: { token: writer.token },
      disableBc: true,
    });
    providers.push(p);
    const unknown: number[] = [];
    p.messageHandlers[MessageType.saved] = () => unknown.push(1);
    await synced(p);
    doc.getText('body').insert(0, 'plain');
    await waitFor('stored', async () => (await stored(id)) === 'plain');
    await sleep(FLUSH_MS * 2);
    expect(unknown).toEqual([]);
  });
});
