import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { REPO_ROOT } from '../../support/portal-processes.js';

export interface ReadyProcess {
  child: ChildProcess;
  /** The line that matched `ready`. */
  line: string;
  stop(): Promise<void>;
}

/** Spawns `node args` and resolves once a stdout line matches `ready`. */
export function spawnReady(
  args: string[],
  env: Record<string, string>,
  ready: RegExp,
  options: { cwd?: string; timeoutMs?: number } = {},
): Promise<ReadyProcess> {
  const child = spawn(process.execPath, args, {
    cwd: options.cwd,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${args.join(' ')} did not start:\n${out.slice(-3000)}`));
    }, options.timeoutMs ?? 60_000);
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const line = out.split('\n').find((l) => ready.test(l));
      if (!line) return;
      clearTimeout(timer);
      resolve({
        child,
        line,
        stop: async () => {
          if (child.exitCode !== null || child.signalCode !== null) return;
          child.kill('SIGTERM');
          const t = setTimeout(() => child.kill('SIGKILL'), 10_000);
          await exited;
          clearTimeout(t);
        },
      });
    });
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`${args.join(' ')} exited before it was ready:\n${out.slice(-3000)}`));
    });
  });
}

/** A TCP port free right now on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const address = s.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      s.close(() => resolve(port));
    });
  });
}

/** Resident set size of a process, in MB (Linux /proc). */
export async function rssMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb / 1024;
}

/** The p-th percentile (0–100) of `samples` (nearest rank). */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank]!;
}

/** @y/websocket-server's entry (the reference y-websocket backend), wherever npm put it. */
export const REFERENCE_SERVER = ['node_modules', 'tests/node_modules']
  .map((d) => join(REPO_ROOT, d, '@y/websocket-server/src/server.js'))
  .find((p) => existsSync(p));
