import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { io as connectClient, type Socket } from 'socket.io-client';
import type { WebsocketProvider } from 'y-websocket';
import { LIVE_NAMESPACE, LIVE_PATH } from '@portal/projections';
import { CloseCode } from '../platform/collaboration/collab.protocol.js';
import { DocumentKinds, testDocumentKind } from '../platform/collaboration/document-kinds.js';
import { closes, editor, synced } from '../platform/collaboration/testing/collab-test-kit.js';
import { SQL_CLIENT } from '../platform/tokens.js';
import type { SqlClient } from '../platform/sql/sql-client.js';
import { hashToken } from '../platform/auth/session.service.js';
import {
  HARNESS_ADMIN,
  HARNESS_PASSWORD,
  portalModes,
  startTestPortal,
  type TestPortal,
} from '../platform/testing/portal-harness.js';
import { waitFor } from '../platform/testing/wait-for.js';

/** A `/live` socket that records `ended` reasons and whether it is still connected. */
interface LiveProbe {
  socket: Socket;
  ended: string[];
}

const probes: LiveProbe[] = [];
const editors: WebsocketProvider[] = [];

function liveSocket(base: string, token: string): Promise<LiveProbe> {
  const socket = connectClient(`${base}${LIVE_NAMESPACE}`, {
    path: LIVE_PATH,
    auth: { token },
    forceNew: true,
    reconnection: false,
    transports: ['websocket'],
  });
  const probe: LiveProbe = { socket, ended: [] };
  probes.push(probe);
  socket.on('ended', (e: { reason: string }) => probe.ended.push(e.reason));
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(probe));
    socket.once('connect_error', reject);
  });
}

describe('logout and session lifetime (decision 0039)', () => {
  const mode = portalModes[0]!; // embedded: the session SQL is the same on PostgreSQL
  let portal: TestPortal;
  let teacherId: string;

  const signIn = async (username = HARNESS_ADMIN) => {
    const res = await fetch(`${portal.base}/api/v1/login/access-token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ username, password: HARNESS_PASSWORD }),
    });
    expect(res.status).toBe(200);
    return (await res.json()) as { access_token: string; token_type: string; expires_in: number };
  };
  const logout = (headers: Record<string, string>) =>
    fetch(`${portal.base}/api/v1/logout`, { method: 'POST', headers });
  const meStatus = async (token: string) => (await portal.call('GET', '/users/me', token)).status;

  beforeAll(async () => {
    portal = await startTestPortal(mode, 'portal_logout');
    portal.running.app.get(DocumentKinds).registerKind(testDocumentKind());
    teacherId = await portal.createUser({
      first_name: 'Tess',
      last_name: 'Teacher',
      email: 'tess.teacher@example.com',
      user_type: 'teacher',
    });
  }, 120_000);

  afterEach(() => {
    for (const p of probes.splice(0)) p.socket.close();
    for (const e of editors.splice(0)) e.destroy();
  });

  afterAll(async () => {
    await portal?.close();
  });

  it('answers the token with expires_in (seconds, SESSION_MAX_HOURS) beside the existing fields', async () => {
    const answer = await signIn();
    expect(Object.keys(answer).sort()).toEqual(['access_token', 'expires_in', 'token_type']);
    expect(answer).toMatchObject({ token_type: 'bearer', expires_in: 12 * 3600 });
  });

  it('revokes the presented session: 204, then that token is 401 while another session of the user lives on', async () => {
    const first = (await signIn()).access_token;
    const second = (await signIn()).access_token;
    const res = await logout({ RequestVerificationToken: first });
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
    expect(await meStatus(first)).toBe(401);
    expect((await portal.call('GET', '/users/me', first)).body).toEqual({
      detail: 'Session ended; sign in again',
    });
    expect(await meStatus(second)).toBe(200);
    // Logging out again with the dead token: 401, like any other call.
    expect((await logout({ RequestVerificationToken: first })).status).toBe(401);
    // Without a token: 401.
    expect((await logout({})).status).toBe(401);
  });

  it('takes the token as Authorization: Bearer too', async () => {
    const token = (await signIn()).access_token;
    expect((await logout({ Authorization: `Bearer ${token}` })).status).toBe(204);
    expect(await meStatus(token)).toBe(401);
  });

  it("drops the session's live socket (with `ended`) and keeps the user's other sessions' sockets", async () => {
    const leaving = (await signIn()).access_token;
    const staying = (await signIn()).access_token;
    const gone = await liveSocket(portal.base, leaving);
    const kept = await liveSocket(portal.base, staying);
    expect((await logout({ RequestVerificationToken: leaving })).status).toBe(204);
    await waitFor('the logged-out socket is disconnected', () => !gone.socket.connected, 5000);
    expect(gone.ended).toEqual(['session_ended']);
    // The other session's socket is still there (give a wrong disconnect time to happen).
    await new Promise((r) => setTimeout(r, 300));
    expect(kept.socket.connected).toBe(true);
    expect(kept.ended).toEqual([]);
    // A new socket with the dead token is refused.
    await expect(liveSocket(portal.base, leaving)).rejects.toThrow('Session ended; sign in again');
  });

  it("closes the session's collaboration connections (4403 session_ended), not the other session's", async () => {
    const leaving = (await signIn()).access_token;
    const staying = (await signIn()).access_token;
    const room = `test:${randomUUID()}`;
    const gone = editor(portal.running, room, leaving);
    const kept = editor(portal.running, room, staying);
    editors.push(gone, kept);
    const goneCloses = closes(gone);
    const keptCloses = closes(kept);
    gone.on('connection-close', (event: unknown) => event && gone.disconnect()); // no retries
    await Promise.all([synced(gone), synced(kept)]);
    expect((await logout({ RequestVerificationToken: leaving })).status).toBe(204);
    await waitFor('the logged-out connection closed', () => goneCloses.length > 0, 5000);
    expect(goneCloses[0]).toEqual({ code: CloseCode.forbidden, reason: 'session_ended' });
    await new Promise((r) => setTimeout(r, 300));
    expect(keptCloses).toEqual([]);
    expect(kept.wsconnected).toBe(true);
  });

  it('ends only the impersonation session when it logs out; its answer carries expires_in', async () => {
    const admin = (await signIn()).access_token;
    const started = await portal.call('POST', `/login/${teacherId}/access-token`, admin);
    expect(started.status).toBe(200);
    expect(started.body.expires_in).toBe(12 * 3600);
    const session = started.body.access_token as string;
    expect((await logout({ RequestVerificationToken: session })).status).toBe(204);
    expect(await meStatus(session)).toBe(401);
    expect(await meStatus(admin)).toBe(200);
  });

  describe('lifetime: SESSION_IDLE_MINUTES (120) and SESSION_MAX_HOURS (12) by default', () => {
    const sql = () => portal.running.app.get<SqlClient>(SQL_CLIENT);
    const row = async (token: string) =>
      (
        await sql().query<{ idle: number; lifetime: number }>(
          `SELECT extract(epoch FROM clock_timestamp() - last_seen_at)::float8 AS idle,
                  extract(epoch FROM expires_at - created_at)::float8 AS lifetime
             FROM auth_sessions WHERE token_hash = $1`,
          [hashToken(token)],
        )
      ).rows[0]!;
    const backdate = (token: string, assignment: string) =>
      sql().query(`UPDATE auth_sessions SET ${assignment} WHERE token_hash = $1`, [hashToken(token)]);

    it('stores the absolute expiry 12 hours after sign-in', async () => {
      const token = (await signIn()).access_token;
      expect(Math.round((await row(token)).lifetime)).toBe(12 * 3600);
    });

    it('ends a session idle for longer than 2 hours, and not one idle for a bit less', async () => {
      const idle = (await signIn()).access_token;
      const active = (await signIn()).access_token;
      await backdate(idle, `last_seen_at = clock_timestamp() - interval '121 minutes'`);
      await backdate(active, `last_seen_at = clock_timestamp() - interval '119 minutes'`);
      expect(await meStatus(idle)).toBe(401);
      expect(await meStatus(active)).toBe(200);
      // The request kept `active` alive: its idle clock started again.
      expect((await row(active)).idle).toBeLessThan(60);
    });

    it('ends a session at its absolute expiry however active it is', async () => {
      const token = (await signIn()).access_token;
      expect(await meStatus(token)).toBe(200);
      await backdate(token, `expires_at = clock_timestamp() - interval '1 second'`);
      expect(await meStatus(token)).toBe(401);
    });
  });
});
