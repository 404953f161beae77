import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createClient } from 'redis';

const here = dirname(fileURLToPath(import.meta.url));
export const REPO_ROOT = join(here, '..', '..');
const ENTRY = join(here, 'portal-process.ts');
const REGISTER = join(here, 'swc-register.mjs');
const READY = 'PORTAL_READY ';

export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
export const PASSWORD = 'correct horse battery staple';
export const ADMIN = 'admin@example.com';

export interface PortalProcess {
  url: string;
  pid: number;
  child: ChildProcess;
  /** Resolves with the exit code (or signal) once the process has ended. */
  exited: Promise<number | string | null>;
  /** Everything the process wrote (stdout and stderr), for failure messages. */
  output(): string;
  /** SIGTERM (graceful) and wait; SIGKILL after `graceMs`. */
  stop(graceMs?: number): Promise<void>;
  /** SIGKILL and wait until the process is gone. */
  kill(): Promise<void>;
}

const running = new Set<ChildProcess>();

/**
 * Starts `tests/support/portal-process.ts` as a child process (`node --conditions=source --import
 * ./swc-register.mjs`: swc like Jest, since tsx cannot emit the decorator metadata Nest needs), on 127.0.0.1 and a port the OS picks, with `env` added to the environment. Resolves once it
 * listens.
 */
export function startPortal(env: Record<string, string>, timeoutMs = 60_000): Promise<PortalProcess> {
  // PORTAL_NODE_FLAGS: extra flags for the portal's node (e.g. `--cpu-prof --cpu-prof-dir=/tmp/p` to profile a benchmark's server).
  const flags = (process.env.PORTAL_NODE_FLAGS ?? '').split(/\s+/).filter(Boolean);
  const child = spawn(process.execPath, [...flags, '--conditions=source', '--import', REGISTER, ENTRY], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      LOG_LEVEL: process.env.PORTAL_LOG_LEVEL ?? 'error',
      PORT: '0',
      HOST: '127.0.0.1',
      FIRST_SUPERUSER_PASSWORD: PASSWORD,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  let out = '';
  const exited = new Promise<number | string | null>((resolve) =>
    child.once('exit', (code, signal) => {
      running.delete(child);
      resolve(code ?? signal);
    }),
  );
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`portal process did not start within ${timeoutMs} ms:\n${out.slice(-4000)}`));
    }, timeoutMs);
    const onData = (d: Buffer) => {
      out += d.toString();
      const line = out.split('\n').find((l) => l.startsWith(READY));
      if (!line || !timer) return;
      clearTimeout(timer);
      const info = JSON.parse(line.slice(READY.length)) as { url: string; pid: number };
      const proc: PortalProcess = {
        url: info.url,
        pid: info.pid,
        child,
        exited,
        output: () => out,
        stop: async (graceMs = 10_000) => {
          if (child.exitCode !== null || child.signalCode !== null) return;
          child.kill('SIGTERM');
          const t = setTimeout(() => child.kill('SIGKILL'), graceMs);
          await exited;
          clearTimeout(t);
        },
        kill: async () => {
          if (child.exitCode !== null || child.signalCode !== null) return;
          child.kill('SIGKILL');
          await exited;
        },
      };
      resolve(proc);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`portal process exited (${String(code)}) before listening:\n${out.slice(-4000)}`));
    });
  });
}

/** SIGKILLs every portal process still running (afterAll safety net). */
export async function killAllPortals(): Promise<void> {
  await Promise.all(
    [...running].map(
      (c) =>
        new Promise<void>((resolve) => {
          c.once('exit', () => resolve());
          c.kill('SIGKILL');
        }),
    ),
  );
}

/** Signs in with the form-encoded token endpoint; returns the access token. */
export async function login(base: string, username = ADMIN, password = PASSWORD): Promise<string> {
  const res = await fetch(`${base}/api/v1/login/access-token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ username, password }),
  });
  if (res.status !== 200) throw new Error(`login failed: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { access_token: string }).access_token;
}

/** A JSON API call; returns status and parsed body. */
export async function api(
  base: string,
  method: string,
  path: string,
  token: string,
  body?: unknown,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${base}/api/v1${path}`, {
    method,
    headers: {
      RequestVerificationToken: token,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : {}) as Record<string, unknown> };
}

/** Deletes every Redis key under `prefix` (the adapters mostly use pub/sub; this removes what remains). */
export async function deleteRedisKeys(prefix: string, url = TEST_REDIS_URL): Promise<number> {
  const client = createClient({ url });
  await client.connect();
  try {
    let deleted = 0;
    for await (const keys of client.scanIterator({ MATCH: `${prefix}*`, COUNT: 500 })) {
      const list = Array.isArray(keys) ? keys : [keys];
      if (list.length) deleted += await client.del(list);
    }
    return deleted;
  } finally {
    await client.close();
  }
}
