/**
 * `npm run projections:rebuild [-- name ...]`: rebuilds read models from the first event.
 * In embedded mode, stop the portal first (it holds DATA_DIR). With DATABASE_URL, a running leader is
 * asked to rebuild and this command waits for it.
 */
import { allProjections } from '@portal/projections';
import { ConfigError, loadConfig } from '../platform/config/config.js';
import { openInfrastructure, StartupError } from '../platform/infrastructure.js';
import { createLogger } from '../platform/logging/logger.js';
import { ProjectionRunner } from '../platform/projections/projection-runner.js';

const names = process.argv.slice(2);

async function main(): Promise<number> {
  const log = createLogger();
  const config = loadConfig();
  const infra = await openInfrastructure(config);
  try {
    const runner = new ProjectionRunner(infra.eventStore, infra.sql, allProjections, { log });
    const targets = names.length ? names : allProjections.map((p) => p.name);
    process.stdout.write(`Rebuilding ${targets.join(', ')} from the first event (mode: ${config.mode})...\n`);
    const result = await runner.rebuild(names.length ? names : undefined);
    const rate =
      result.events > 0 && result.ms > 0
        ? ` (${Math.round((result.events * 1000) / result.ms)} events/s)`
        : '';
    process.stdout.write(
      result.events >= 0
        ? `Done: ${result.events} events applied up to position ${result.position} in ${result.ms} ms${rate}.\n`
        : `Done: the leading server rebuilt up to position ${result.position} in ${result.ms} ms.\n`,
    );
    return 0;
  } finally {
    await infra.close();
  }
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    const expected = e instanceof ConfigError || e instanceof StartupError;
    process.stderr.write(`\nThe rebuild could not run: ${expected ? (e as Error).message : String(e)}\n\n`);
    if (!expected) console.error(e);
    process.exit(1);
  },
);
