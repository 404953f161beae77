import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  usersProjection,
  type Projection,
  type ProjectionEvent,
  type ProjectionTx,
} from '@portal/projections';
import type { EventData } from '../event-store/event-store.js';
import { PostgresEventStore } from '../event-store/postgres/postgres-event-store.js';
import type { SqlClient } from '../sql/sql-client.js';
import { recordingLog } from '../testing/recording-log.js';
import { ProjectionRunner } from './projection-runner.js';
import { sqlTargets } from '../testing/sql-targets.js';

type ApplyBatch = (events: readonly ProjectionEvent[], tx: ProjectionTx) => Promise<void>;

/** The users projection's own applyBatch when it has one, else its apply in a loop. */
const usersBatch: ApplyBatch =
  (usersProjection as Projection & { applyBatch?: ApplyBatch }).applyBatch?.bind(usersProjection) ??
  (async (events, tx) => {
    for (const e of events) await usersProjection.apply(e, tx);
  });

/** The users projection fed through applyBatch, counting its calls. */
function batching(counter: { batches: number; events: number }): Projection {
  const applyBatch = usersBatch;
  return {
    ...usersProjection,
    applyBatch: (events: readonly ProjectionEvent[], tx: ProjectionTx) => {
      counter.batches++;
      counter.events += events.length;
      return applyBatch(events, tx);
    },
  };
}

/** The users projection without applyBatch: the runner applies its events one by one. */
const perEvent = (): Projection => ({ ...usersProjection, applyBatch: undefined });

function userCreated(login: string): EventData {
  return {
    id: randomUUID(),
    type: 'UserCreated',
    data: {
      userId: randomUUID(),
      login,
      email: `${login.toLowerCase()}@example.org`,
      firstName: 'Ada',
      lastName: login,
      userType: 'student',
      permissions: ['USER_IS_STUDENT'],
    },
    metadata: { actorId: null },
  };
}

async function dumpUsers(sql: SqlClient): Promise<unknown[]> {
  const { rows } = await sql.query(
    `SELECT id, login, email, first_name, last_name, user_type, permissions, has_access,
            created_at::text, updated_at::text, version::text FROM rm_users ORDER BY id`,
  );
  return rows;
}

const targets = sqlTargets('portal_batch');

describe.each(targets)('ProjectionRunner with applyBatch on $name', (target) => {
  let sql: SqlClient;
  let store: PostgresEventStore;
  beforeAll(async () => {
    sql = await target.open();
    store = await PostgresEventStore.create(sql);
  });
  afterAll(async () => {
    await store.close();
    await sql.close();
    await target.close();
  });

  it(`${target.name}: applyBatch gives the users table apply gives, event by event`, async () => {
    for (let s = 0; s < 5; s++) {
      const events = Array.from({ length: 9 }, (_, i) => userCreated(`User${s}x${i}-${randomUUID()}`));
      await store.append(`user-batch-${randomUUID()}`, events, { expectedRevision: 'no_stream' });
    }
    const log = recordingLog();
    const one = await new ProjectionRunner(store, sql, [perEvent()], { log, batchSize: 7 }).rebuild();
    const byEvent = await dumpUsers(sql);

    const counter = { batches: 0, events: 0 };
    const all = await new ProjectionRunner(store, sql, [batching(counter)], { log, batchSize: 7 }).rebuild();
    expect(all.events).toBe(one.events);
    expect(counter.events).toBe(one.events);
    expect(counter.batches).toBe(Math.ceil(one.events / 7));
    expect(await dumpUsers(sql)).toEqual(byEvent);
    expect(byEvent.length).toBe(one.events);
  });

  it(`${target.name}: when applyBatch fails, the batch is applied event by event and the culprit dead-lettered`, async () => {
    await sql.query('DELETE FROM proj_dead_letters');
    const login = `Twice-${randomUUID()}`;
    const events = [userCreated(`Once-${randomUUID()}`), userCreated(login), userCreated(login)];
    const last = await store.append(`user-dup-${randomUUID()}`, events, { expectedRevision: 'no_stream' });
    const log = recordingLog();
    const counter = { batches: 0, events: 0 };
    await new ProjectionRunner(store, sql, [batching(counter)], { log, batchSize: 500 }).rebuild();

    const { rows } = await sql.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM rm_users WHERE login = ANY($1::text[])`,
      [[login.toLowerCase(), (events[0]!.data as { login: string }).login.toLowerCase()]],
    );
    expect(rows[0]!.n).toBe(2);
    const dead = await sql.query<{ position: string }>(
      `SELECT position::text FROM proj_dead_letters WHERE projection = 'users'`,
    );
    expect(dead.rows).toEqual([{ position: last.position.toString() }]);
    expect(log.entries.some((e) => e.level === 'warn' && e.msg.includes('event by event'))).toBe(true);
  });
});
