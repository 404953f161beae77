import { allProjections } from '../../../projections/src/index.js';
import { openBenchDatabase } from '../lib/targets.js';
import { demoLog, LogWriter, protectedStore } from '../suites/projections.js';
const kind = (process.env.PROFILE_TARGET ?? 'pglite') as 'pglite';
const template = await demoLog();
const db = await openBenchDatabase(kind, { poolSize: 8 });
const store = await protectedStore(db.sql);
await new LogWriter(store, template).fill(100000);
const types = allProjections.find((p) => p.name === (process.env.ONLY ?? 'users'))!.handles;
const { Session } = await import('node:inspector/promises');
const { writeFile } = await import('node:fs/promises');
const session = new Session(); session.connect();
for (let rep = 0; rep < 3; rep++) {
  if (rep === 2) { await session.post('Profiler.enable'); await session.post('Profiler.start'); }
  const t = performance.now(); let n = 0; let from = 0n;
  for (;;) { const page = await store.readAll({ fromPosition: from, maxCount: 1000, types: [...types] }); if (!page.length) break; n += page.length; from = page[page.length-1]!.position; }
  console.log('read', n, (performance.now() - t).toFixed(0));
}
const { profile } = await session.post('Profiler.stop');
await writeFile('/tmp/prof/read.cpuprofile', JSON.stringify(profile));
await store.close(); await db.dispose();
