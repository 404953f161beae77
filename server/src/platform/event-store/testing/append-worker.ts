/**
 * Child process for the concurrency contract: `writers` concurrent writers, each appending `events`
 * single events (with the exact expected revision) to a stream of its own, and some to one shared
 * stream with 'any'. Prints the ids it appended as JSON on its last line.
 * Run with: node --import tsx append-worker.ts <databaseUrl> <tag> <writers> <events>
 */
import { randomUUID } from 'node:crypto';
import { PgSqlClient } from '../../sql/pg-client.js';
import { PostgresEventStore } from '../postgres/postgres-event-store.js';

const [url, tag, writers, events] = process.argv.slice(2);
const sql = new PgSqlClient(url!, Number(writers));
const store = await PostgresEventStore.create(sql);
const ids: string[] = [];
await Promise.all(
  Array.from({ length: Number(writers) }, async (_, w) => {
    const stream = `concurrent-${tag}-${w}-${randomUUID()}`;
    for (let i = 0; i < Number(events); i++) {
      const id = randomUUID();
      const shared = i % 5 === 4;
      await store.append(
        shared ? `concurrent-shared-${tag}` : stream,
        [{ id, type: 'Written', data: { tag, w, i } }],
        {
          expectedRevision: shared ? 'any' : i === 0 ? 'no_stream' : BigInt(i - 1 - Math.floor(i / 5)),
        },
      );
      ids.push(id);
    }
  }),
);
await store.close();
await sql.close();
process.stdout.write(JSON.stringify(ids) + '\n');
