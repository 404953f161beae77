/**
 * Child process for runner tests: runs a ProjectionRunner with the counter projection against
 * DATABASE_URL until killed. Prints "leader" once it leads and "applied <position>" as it goes.
 * Run with: node --import tsx runner-worker.ts <databaseUrl> <batchSize>
 */
import { PgSqlClient } from '../../sql/pg-client.js';
import { PostgresEventStore } from '../../event-store/postgres/postgres-event-store.js';
import { ProjectionRunner } from '../projection-runner.js';
import { counterProjection } from './counter.projection.js';

const [url, batch] = process.argv.slice(2);
const sql = new PgSqlClient(url!);
const store = await PostgresEventStore.create(sql);
const silent = { info() {}, warn() {}, error() {}, debug() {}, child: () => silent } as never;
const runner = new ProjectionRunner(store, sql, [counterProjection()], {
  log: silent,
  batchSize: Number(batch ?? 50),
  standbyRetryMs: 500,
});
await runner.start();
let announced = false;
setInterval(() => {
  if (runner.isLeader && !announced) {
    announced = true;
    process.stdout.write('leader\n');
  }
  process.stdout.write(`applied ${runner.watcher.position}\n`);
}, 50);
