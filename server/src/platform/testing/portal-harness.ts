import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from '@jest/globals';
import { pino } from 'pino';
import { io } from 'socket.io-client';
import { LIVE_NAMESPACE, LIVE_PATH, type LiveMessage } from '@portal/projections';
import { startApp, type RunningApp, type StartOptions } from '../../app.js';
import { loadConfig } from '../config/config.js';
import { ProjectionRunner } from '../projections/projection-runner.js';
import { createTestDatabase } from './postgres-test-database.js';

/**
 * A whole portal on port 0 for API integration tests, in either storage mode, with small helpers
 * to call it as a real client does (fetch, RequestVerificationToken, X-Min-Position).
 */
export interface PortalMode {
  name: string;
  setup(prefix: string): Promise<{ env: Record<string, string>; cleanup: () => Promise<void> }>;
}

export const portalModes: PortalMode[] = [
  {
    name: 'embedded (PGlite)',
    async setup(prefix) {
      const dataDir = await mkdtemp(join(tmpdir(), `${prefix}-`));
      return { env: { DATA_DIR: dataDir }, cleanup: () => rm(dataDir, { recursive: true, force: true }) };
    },
  },
  {
    name: 'server (PostgreSQL)',
    async setup(prefix) {
      const db = await createTestDatabase(prefix);
      return { env: { DATABASE_URL: db.url }, cleanup: () => db.drop() };
    },
  },
];

export type Json = Record<string, unknown> & { detail?: string };
export interface Answer {
  status: number;
  body: Json;
}

export const HARNESS_ADMIN = 'head.office@example.com';
export const HARNESS_PASSWORD = 'correct horse battery staple';

export interface TestPortal {
  running: RunningApp;
  base: string;
  /** The first administrator's token. */
  admin: string;
  call: (
    method: string,
    path: string,
    token?: string,
    body?: unknown,
    minPosition?: string,
  ) => Promise<Answer>;
  tokenFor: (username: string, password?: string) => Promise<string>;
  /** Asserts a 2xx command answer and waits until the read models reached its `position`. */
  settle: (answer: Answer) => Promise<Answer>;
  /** Creates a user as the administrator (password HARNESS_PASSWORD) and waits for the read models. */
  createUser: (body: Record<string, unknown>) => Promise<string>;
  close: () => Promise<void>;
}

export async function startTestPortal(
  mode: PortalMode,
  prefix: string,
  env: Record<string, string> = {},
  options: StartOptions = {},
): Promise<TestPortal> {
  const setup = await mode.setup(prefix);
  const running = await startApp(
    loadConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      FIRST_SUPERUSER: HARNESS_ADMIN,
      FIRST_SUPERUSER_PASSWORD: HARNESS_PASSWORD,
      READ_YOUR_WRITES_TIMEOUT_MS: '10000',
      ...setup.env,
      ...env,
    }),
    pino({ level: 'silent' }),
    options,
  );
  const base = running.url;

  async function call(method: string, path: string, token?: string, body?: unknown, minPosition?: string) {
    const headers: Record<string, string> = {};
    if (token) headers.RequestVerificationToken = token;
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (minPosition) headers['X-Min-Position'] = minPosition;
    const res = await fetch(`${base}/api/v1${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : {}) as Json };
  }

  async function tokenFor(username: string, password = HARNESS_PASSWORD) {
    const res = await fetch(`${base}/api/v1/login/access-token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ username, password }),
    });
    expect(res.status).toBe(200);
    return ((await res.json()) as { access_token: string }).access_token;
  }

  async function settle(answer: Answer) {
    expect(answer.status).toBeLessThan(300);
    const reached = await running.app
      .get(ProjectionRunner)
      .waitForPosition(BigInt(answer.body.position as string), 10_000);
    expect(reached).toBe(true);
    return answer;
  }

  const admin = await tokenFor(HARNESS_ADMIN);

  async function createUser(body: Record<string, unknown>) {
    const res = await settle(await call('POST', '/users/', admin, { password: HARNESS_PASSWORD, ...body }));
    expect(res.status).toBe(201);
    return res.body.id as string;
  }

  return {
    running,
    base,
    admin,
    call,
    tokenFor,
    settle,
    createUser,
    async close() {
      await running.close();
      await setup.cleanup();
    },
  };
}

/** A real socket.io client on `/live` with the user's token; collects the `live` messages it receives. */
export interface LiveListener {
  messages: LiveMessage[];
  close: () => void;
}

export function listenLive(base: string, token: string): Promise<LiveListener> {
  const socket = io(`${base}${LIVE_NAMESPACE}`, {
    path: LIVE_PATH,
    auth: { token },
    forceNew: true,
    reconnection: false,
    transports: ['websocket'],
  });
  const listener: LiveListener = { messages: [], close: () => socket.close() };
  socket.on('live', (m: LiveMessage) => listener.messages.push(m));
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(listener));
    socket.once('connect_error', (e: Error) => {
      socket.close();
      reject(e);
    });
  });
}
