/**
 * Times one HTTP command at a time against a real portal server process, to see where a command's
 * round trip goes (item 3 of issue 19). Not a benchmark: no baseline, prints percentiles only.
 *
 *   PROFILE_TARGET=pglite|postgres PROFILE_COMMANDS=300 node --conditions=source --import tsx tests/bench/tools/profile-command.ts
 *   PORTAL_NODE_FLAGS="--cpu-prof --cpu-prof-dir=/tmp/prof" ... (CPU profile of the portal, written on exit)
 */
import { api, login, startPortal } from '../../support/portal-processes.js';
import { portalStoreEnv } from '../lib/portal-store.js';
import { percentile } from '../lib/processes.js';

const target = (process.env.PROFILE_TARGET ?? 'pglite') as 'pglite' | 'postgres';
const count = Number(process.env.PROFILE_COMMANDS ?? 300);
const store = await portalStoreEnv(target, 'profile_command');
const portal = await startPortal(store.env);
try {
  const token = await login(portal.url);
  const me = await api(portal.url, 'GET', '/users/me', token);
  const id = String(me.body.id);
  const times: number[] = [];
  for (let i = 0; i < count + 20; i++) {
    const t0 = performance.now();
    const r = await api(portal.url, 'PUT', `/users/${id}`, token, { notes: `profile ${i}` });
    if (r.status !== 200) throw new Error(`answered ${r.status}: ${JSON.stringify(r.body)}`);
    if (i >= 20) times.push(performance.now() - t0);
  }
  const get: number[] = [];
  for (let i = 0; i < 100; i++) {
    const t0 = performance.now();
    await api(portal.url, 'GET', '/users/me', token);
    get.push(performance.now() - t0);
  }
  const f = (xs: number[], p: number) => percentile(xs, p).toFixed(1);
  console.log(
    `${target}: PUT /users/{id} × ${count}: p50 ${f(times, 50)} ms, p90 ${f(times, 90)} ms, p99 ${f(times, 99)} ms`,
  );
  console.log(`${target}: GET /users/me × 100: p50 ${f(get, 50)} ms, p99 ${f(get, 99)} ms`);
} finally {
  await portal.stop();
  await store.cleanup();
}
