/**
 * A real portal server process for multi-process tests and benchmarks: configured from the environment
 * like `server/src/main.ts`, plus the `test` collaborative document kind (any signed-in user reads,
 * USER_IS_ADMIN writes). Prints one line `PORTAL_READY {"url":...,"pid":...,"leader":...}` when
 * listening; SIGTERM closes it gracefully. With `PORTAL_PROFILE_ON_SIGNAL=<file>`, SIGWINCH starts a
 * CPU profile and the next SIGWINCH writes it to that file (a benchmark profiles only its measured phase). Run with `node --conditions=source --import ./tests/support/swc-register.mjs`.
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { startApp } from '../../server/src/app.js';
import { loadConfig } from '../../server/src/platform/config/config.js';
import { createLogger } from '../../server/src/platform/logging/logger.js';
import { DocumentKinds, testDocumentKind } from '../../server/src/platform/collaboration/document-kinds.js';
import { ProjectionRunner } from '../../server/src/platform/projections/projection-runner.js';

export const READY_PREFIX = 'PORTAL_READY ';

const running = await startApp(loadConfig(), createLogger());
running.app.get(DocumentKinds).registerKind(testDocumentKind('USER_IS_ADMIN'));
process.stdout.write(
  `${READY_PREFIX}${JSON.stringify({
    url: running.url,
    pid: process.pid,
    leader: running.app.get(ProjectionRunner).isLeader,
  })}\n`,
);
let stopping = false;
process.on('SIGTERM', () => {
  if (stopping) return;
  stopping = true;
  running.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
});

if (process.env.PORTAL_PROFILE_ON_SIGNAL) {
  const file = process.env.PORTAL_PROFILE_ON_SIGNAL;
  const session = new Session();
  session.connect();
  let profiling = false;
  process.on('SIGWINCH', () => {
    const toggle = async () => {
      if (!profiling) {
        profiling = true;
        await session.post('Profiler.enable');
        await session.post('Profiler.setSamplingInterval', { interval: 200 });
        await session.post('Profiler.start');
      } else {
        profiling = false;
        const { profile } = await session.post('Profiler.stop');
        writeFileSync(file, JSON.stringify(profile));
      }
    };
    toggle().catch((e: unknown) => process.stderr.write(`profile: ${String(e)}\n`));
  });
}
