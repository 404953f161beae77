import { randomUUID } from 'node:crypto';
import type { UserCreatedData } from '@portal/projections';
import { WebSocket } from 'ws';
import { WebsocketProvider } from 'y-websocket';
import * as Y from 'yjs';
import type { RunningApp } from '../../../app.js';
import { SessionService } from '../../auth/session.service.js';
import { ProjectionRunner } from '../../projections/projection-runner.js';
import { waitFor } from '../../testing/wait-for.js';
import { DOCUMENT_UPDATED, DOCUMENT_SNAPSHOT_TAKEN, type DocumentUpdatedData } from '../collab.protocol.js';
import type { DocumentSnapshotTakenData } from '../collab.protocol.js';
import { fromBase64 } from '../document-persistence.js';

/** Creates a user as an event, waits for the read model, and opens a session: returns the token. */
export async function signedInUser(
  running: RunningApp,
  permissions: string[],
  firstName = 'Test',
): Promise<{ userId: string; token: string }> {
  const userId = randomUUID();
  const data: UserCreatedData = {
    userId,
    login: `${userId}@example.com`,
    email: `${userId}@example.com`,
    firstName,
    lastName: 'User',
    userType: permissions.includes('USER_IS_ADMIN') ? 'super_admin' : 'teacher',
    permissions,
  };
  const result = await running.infra.eventStore.append(
    `user-${userId}`,
    [{ id: randomUUID(), type: 'UserCreated', data, metadata: { actorId: null } }],
    { expectedRevision: 'no_stream' },
  );
  await running.app.get(ProjectionRunner).waitForPosition(result.position, 20_000);
  const { token } = await running.app.get(SessionService).create(userId);
  return { userId, token };
}

/** A stock y-websocket client in Node (`ws` as the WebSocket). */
export function editor(running: RunningApp, room: string, token: string | null): WebsocketProvider {
  const doc = new Y.Doc();
  return new WebsocketProvider(`${running.url.replace(/^http/, 'ws')}/collab`, room, doc, {
    WebSocketPolyfill: WebSocket as unknown as typeof globalThis.WebSocket,
    params: token ? { token } : {},
    disableBc: true,
    maxBackoffTime: 500,
  });
}

export const text = (p: WebsocketProvider) => p.doc.getText('body').toJSON();

export async function synced(p: WebsocketProvider, timeoutMs = 10_000): Promise<void> {
  await waitFor('provider synced', () => p.synced, timeoutMs);
}

/** Rebuilds a document from its stream alone, as a fresh process would. */
export async function documentFromStream(running: RunningApp, stream: string): Promise<Y.Doc> {
  const doc = new Y.Doc();
  for (const e of await running.infra.eventStore.readStream(stream)) {
    if (e.type === DOCUMENT_UPDATED) Y.applyUpdate(doc, fromBase64((e.data as DocumentUpdatedData).update));
    if (e.type === DOCUMENT_SNAPSHOT_TAKEN)
      Y.applyUpdate(doc, fromBase64((e.data as DocumentSnapshotTakenData).state));
  }
  return doc;
}

/** Opens a raw WebSocket and reports the HTTP status of a refused upgrade (or 101). */
export function upgradeStatus(url: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers });
    ws.on('unexpected-response', (_req, res) => {
      resolve(res.statusCode ?? 0);
      ws.terminate();
    });
    ws.on('open', () => {
      resolve(101);
      ws.close();
    });
    ws.on('error', (e) => reject(e));
  });
}

/** Opens a raw WebSocket, sends `frames`, and resolves with the close code and reason. */
export function rawSession(
  url: string,
  send: (ws: WebSocket) => void,
): Promise<{ code: number; reason: string }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    ws.on('open', () => send(ws));
    ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() }));
    ws.on('error', (e) => reject(e));
  });
}

/** Appends one event to `user-{userId}` and waits until the projections (and their listeners) have it. */
export async function userEvent(
  running: RunningApp,
  userId: string,
  type: string,
  data: Record<string, unknown> = {},
): Promise<void> {
  const stream = `user-${userId}`;
  const last = (
    await running.infra.eventStore.readStream(stream, { direction: 'backwards', maxCount: 1 })
  )[0];
  await running.infra.eventStore.append(
    stream,
    [{ id: randomUUID(), type, data: { userId, ...data }, metadata: { actorId: null } }],
    { expectedRevision: last ? last.revision : 'no_stream' },
  );
}

/** Records how a provider's connections closed (code and reason), in order. */
export function closes(p: WebsocketProvider): { code: number; reason: string }[] {
  const seen: { code: number; reason: string }[] = [];
  p.on('connection-close', (event: { code: number; reason: unknown } | null) => {
    if (event) seen.push({ code: event.code, reason: String(event.reason) });
  });
  return seen;
}
