/**
 * Runs only the `reports` suite's convergence row (12 editors on one report through a real portal, beside
 * @y/websocket-server) and prints its measurements: for profiling item 3 of issue 19 without the rest
 * of the suite.
 *
 *   PROFILE_TARGET=pglite|postgres PROFILE_ROUNDS=300 [PROFILE_SESSIONS=3] node --conditions=source --import tsx tests/bench/tools/profile-convergence.ts
 *   PORTAL_NODE_FLAGS="--cpu-prof --cpu-prof-dir=/tmp/prof" ... (CPU profile of the portal, written on exit)
 *   PORTAL_PROFILE_ON_SIGNAL=/tmp/rounds.cpuprofile ... (CPU profile of the measured rounds only, decision 0076)
 */
import { reportConvergence } from '../lib/report-convergence.js';

const target = (process.env.PROFILE_TARGET ?? 'pglite') as 'pglite' | 'postgres';
const rounds = Number(process.env.PROFILE_ROUNDS ?? 300);
const sessions = Number(process.env.PROFILE_SESSIONS ?? 1);
for (const m of await reportConvergence(target, rounds, (line) => console.error(line), { sessions }))
  console.log(
    `${m.label}: subject ${m.subject.rate} / baseline ${m.baseline?.rate} (${m.ratio}×) ${m.goals.map((g) => `${g.goal}: ${g.pass ? 'met' : 'missed'}`).join(', ')}`,
  );
process.exit(0); // the editors' providers keep the event loop alive
