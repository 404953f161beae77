import { allProjections } from '../../../projections/src/index.js';
import { ProjectionRunner } from '../../../server/src/platform/projections/projection-runner.js';
import { openBenchDatabase } from '../../../tests/bench/lib/targets.js';
import { silentLog } from '../../../tests/bench/lib/measure.js';
import { demoLog, LogWriter, protectedStore } from '../../../tests/bench/suites/projections.js';
const kind = (process.env.PROFILE_TARGET ?? 'pglite') as 'pglite';
const template = await demoLog();
const db = await openBenchDatabase(kind, { poolSize: 8 });
const store = await protectedStore(db.sql);
await new LogWriter(store, template).fill(100000);
await new ProjectionRunner(store, db.sql, allProjections, { log: silentLog }).rebuild();
const types = allProjections.find((p) => p.name === (process.env.ONLY ?? 'attendance'))!.handles;
for (let rep = 0; rep < Number(process.env.REPS ?? 3); rep++) {
  let t = performance.now(); let n = 0; let from = 0n;
  for (;;) { const page = await store.readAll({ fromPosition: from, maxCount: 1000, types: [...types] }); if (!page.length) break; n += page.length; from = page[page.length-1]!.position; }
  const readMs = performance.now() - t;
  t = performance.now(); let raw = 0; let f = '0';
  for (;;) { const { rows } = await db.sql.query<{position:string}>(`SELECT position, id, stream, revision, type, data, metadata, created_at FROM es_events WHERE position > $1 AND type = ANY($2::text[]) ORDER BY position LIMIT 1000`, [f, types]); if (!rows.length) break; raw += rows.length; f = String(rows[rows.length-1]!.position); }
  const rawMs = performance.now() - t;
  t = performance.now();
  await new ProjectionRunner(store, db.sql, allProjections, { log: silentLog }).rebuild([process.env.ONLY ?? 'attendance']);
  const rebuildMs = performance.now() - t;
  console.log(`read ${n} via store ${readMs.toFixed(0)} ms; raw ${raw} ${rawMs.toFixed(0)} ms; rebuild alone ${rebuildMs.toFixed(0)} ms`);
}
await store.close(); await db.dispose();
if (process.env.CPU) {
  const { Session } = await import('node:inspector/promises');
  const { writeFile } = await import('node:fs/promises');
  const db2 = await openBenchDatabase(kind, { poolSize: 8 });
  const store2 = await protectedStore(db2.sql);
  await new LogWriter(store2, template).fill(100000);
  await new ProjectionRunner(store2, db2.sql, allProjections, { log: silentLog }).rebuild();
  const session = new Session(); session.connect();
  await session.post('Profiler.enable'); await session.post('Profiler.start');
  const t = performance.now();
  await new ProjectionRunner(store2, db2.sql, allProjections, { log: silentLog }).rebuild([process.env.ONLY ?? 'attendance']);
  console.log('profiled rebuild', (performance.now() - t).toFixed(0));
  const { profile } = await session.post('Profiler.stop');
  await writeFile(process.env.CPU, JSON.stringify(profile));
  await store2.close(); await db2.dispose();
}
