import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from '@jest/globals';
import { DirectoryLockedError } from './directory-lock.js';
import { PgliteSqlClient } from './pglite-client.js';

describe('embedded PGlite data directory lock', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const d of dirs) await rm(d, { recursive: true, force: true });
  });

  it('pglite: a second process on the same DATA_DIR is refused while the first runs, and may start once it died', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'portal-lock-'));
    dirs.push(dir);
    const holder = fileURLToPath(new URL('./testing/hold-lock.ts', import.meta.url));
    const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', holder, dir], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const exited = new Promise((r) => child.once('exit', r));
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (d: Buffer) => d.toString().includes('locked') && resolve());
      child.once('exit', () => reject(new Error('lock holder exited early')));
    });
    const refused = PgliteSqlClient.open(dir);
    await expect(refused).rejects.toBeInstanceOf(DirectoryLockedError);
    await expect(PgliteSqlClient.open(dir)).rejects.toThrow(
      new RegExp(`in use by another portal process \\(pid ${child.pid}`),
    );
    child.kill('SIGKILL');
    await exited;
    // The lock file of a process that died is stale: the next process takes over.
    const sql = await PgliteSqlClient.open(dir);
    expect((await sql.query<{ ok: number }>('SELECT 1 AS ok')).rows).toEqual([{ ok: 1 }]);
    await sql.close();
  });
});
