import { rmSync } from 'node:fs';
import { mkdir, open, readFile, rm } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';

export interface DirectoryLock {
  readonly path: string;
  release(): Promise<void>;
}

export class DirectoryLockedError extends Error {
  override readonly name = 'DirectoryLockedError';
}

const LOCK_FILE = 'portal.lock';

/**
 * Takes an exclusive lock on `dir` by creating `dir/portal.lock` (O_EXCL) holding our pid and host.
 * A lock left by a process that no longer runs on this host is stale and taken over.
 */
export async function acquireDirectoryLock(dir: string): Promise<DirectoryLock> {
  await mkdir(dir, { recursive: true });
  const path = join(dir, LOCK_FILE);
  const content = JSON.stringify({ pid: process.pid, host: hostname(), since: new Date().toISOString() });
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const handle = await open(path, 'wx', 0o600);
      await handle.writeFile(content);
      await handle.close();
      let released = false;
      const releaseSync = () => {
        released = true;
        rmSync(path, { force: true });
      };
      process.once('exit', releaseSync);
      return {
        path,
        release: async () => {
          if (released) return;
          released = true;
          process.off('exit', releaseSync);
          await rm(path, { force: true });
        },
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const holder = await readHolder(path);
      if (holder && holder.host === hostname() && holder.pid !== process.pid && !isAlive(holder.pid)) {
        await rm(path, { force: true }); // stale: its process is gone
        continue;
      }
      throw new DirectoryLockedError(
        `The data directory ${dir} is in use by another portal process` +
          (holder ? ` (pid ${holder.pid} on ${holder.host}, since ${holder.since})` : '') +
          `. Stop that process, or set DATA_DIR to another directory. ` +
          `To run several processes, use a PostgreSQL server (DATABASE_URL).`,
      );
    }
  }
  throw new DirectoryLockedError(`Could not take the lock ${path}`);
}

async function readHolder(path: string): Promise<{ pid: number; host: string; since: string } | null> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as { pid: number; host: string; since: string };
  } catch {
    return null;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
