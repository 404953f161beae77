import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase } from '../../../server/src/platform/testing/postgres-test-database.js';
import type { TargetKind } from './suite.js';

/**
 * The environment that gives a portal server process (tests/support/portal-processes.ts) a fresh store
 * of the target's kind: a new PostgreSQL database `<name>_*` (DATABASE_URL) or a new PGlite data
 * directory (DATA_DIR). `cleanup` drops or removes it once the process has stopped.
 */
export async function portalStoreEnv(
  target: TargetKind,
  name: string,
): Promise<{ env: Record<string, string>; cleanup: () => Promise<void> }> {
  if (target === 'postgres') {
    const db = await createTestDatabase(`portal_bench_${name}`);
    return { env: { DATABASE_URL: db.url }, cleanup: () => db.drop() };
  }
  const dir = await mkdtemp(join(tmpdir(), `portal-bench-${name}-`));
  return { env: { DATA_DIR: dir }, cleanup: () => rm(dir, { recursive: true, force: true }) };
}
