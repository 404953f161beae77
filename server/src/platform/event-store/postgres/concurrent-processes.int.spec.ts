import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { PgSqlClient } from '../../sql/pg-client.js';
import { createTestDatabase, type TestDatabase } from '../../testing/postgres-test-database.js';
import type { RecordedEvent } from '../event-store.js';
import { take } from '../event-store.contract.js';
import { PostgresEventStore } from './postgres-event-store.js';

const PROCESSES = 4;
const WRITERS = 8;
const EVENTS = 30;

function runWorker(url: string, tag: string): Promise<string[]> {
  const worker = fileURLToPath(new URL('../testing/append-worker.ts', import.meta.url));
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--conditions=source', '--import', 'tsx', worker, url, tag, String(WRITERS), String(EVENTS)],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    // 'close', not 'exit': 'exit' can come before the last of stdout has been read (a loaded CI
    // machine once parsed an empty output here).
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`worker ${tag} exited with ${code}`));
      resolve(JSON.parse(out.trim().split('\n').pop()!) as string[]);
    });
  });
}

describe('EventStore contract: postgres, several OS processes', () => {
  let db: TestDatabase;
  let sql: PgSqlClient;
  let store: PostgresEventStore;
  beforeAll(async () => {
    db = await createTestDatabase('portal_concurrency');
    sql = new PgSqlClient(db.url);
    store = await PostgresEventStore.create(sql);
  });
  afterAll(async () => {
    await store.close();
    await sql.close();
    await db.drop();
  });

  it(`postgres: ${PROCESSES} processes x ${WRITERS} writers append while a subscriber reads $all: every event once, in position order`, async () => {
    const total = PROCESSES * WRITERS * EVENTS;
    const sub = store.subscribeToAll({ fromPosition: 0n, filter: { streamPrefixes: ['concurrent-'] } });
    const seen = take(sub, total, 60_000);
    const written = (
      await Promise.all(Array.from({ length: PROCESSES }, (_, p) => runWorker(db.url, `p${p}`)))
    ).flat();
    const events: RecordedEvent[] = await seen;
    await sub.close();

    expect(written).toHaveLength(total);
    expect(events).toHaveLength(total);
    const ids = events.map((e) => e.id);
    expect(new Set(ids).size).toBe(total);
    expect(new Set(ids)).toEqual(new Set(written));
    for (let i = 1; i < events.length; i++) expect(events[i]!.position > events[i - 1]!.position).toBe(true);
    // Per stream, revisions are contiguous from 0: no lost or duplicated revision under contention.
    const byStream = new Map<string, bigint[]>();
    for (const e of events) byStream.set(e.stream, [...(byStream.get(e.stream) ?? []), e.revision]);
    for (const revisions of byStream.values()) expect(revisions).toEqual(revisions.map((_, i) => BigInt(i)));
    // A fresh read of $all agrees with what the live subscriber saw.
    const all = await store.readAll({ fromPosition: 0n, maxCount: total + 100 });
    expect(all.filter((e) => e.stream.startsWith('concurrent-')).map((e) => e.id)).toEqual(ids);
  });
});
