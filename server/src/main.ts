import { loadConfig, ConfigError } from './platform/config/config.js';
import { createLogger } from './platform/logging/logger.js';
import { StartupError } from './platform/infrastructure.js';
import { startApp } from './app.js';

const log = createLogger();

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig(process.env, { demoDataByDefault: true });
  } catch (e) {
    if (e instanceof ConfigError) return fail(e.message);
    throw e;
  }
  let running;
  try {
    // The port opens before the demo data is in; until then the portal answers "starting" (health 503).
    running = await startApp(config, log, {
      onStarting: (message) =>
        process.stdout.write(
          message === 'ready'
            ? '  Demo data loaded: the portal is ready.\n'
            : `  The portal is starting: ${message}\n`,
        ),
    });
  } catch (e) {
    if (e instanceof StartupError) return fail(e.message);
    throw e;
  }
  const { firstSuperuser, demo } = running;
  log.info(
    { url: running.url, mode: config.mode, eventStore: running.infra.eventStore.kind },
    'portal started',
  );
  const lines = [
    '',
    `  Tutoring Portal is running at ${running.url}  (mode: ${config.mode}, event store: ${running.infra.eventStore.kind})`,
    config.publicDiagnostics
      ? `  API docs: ${running.url}/api/docs`
      : '  API docs: not served (PUBLIC_DIAGNOSTICS=false, the production default)',
    `  Sign in as ${firstSuperuser.email}` +
      (config.firstSuperuser.isDefaultPassword
        ? ` with the demo password ${config.firstSuperuser.password} (set FIRST_SUPERUSER_PASSWORD to choose your own)`
        : ' with the password from FIRST_SUPERUSER_PASSWORD'),
    ...(demo
      ? [
          '',
          `  Demo data: ${demo.customers} partner schools, ${demo.teachers} teachers, ${demo.students} students (DEMO_DATA=false turns it off).`,
          `  Demo accounts, all with the password ${demo.password}:`,
          // One school's four roles, then the teachers and the student.
          ...[...demo.logins.slice(0, 4), ...demo.logins.slice(-3)].map(
            (l) => `    ${l.email.padEnd(40)} ${l.role}`,
          ),
          '    (more in the README)',
        ]
      : []),
    '',
  ];
  process.stdout.write(lines.join('\n') + '\n');

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'stopping');
    running
      .close()
      .then(() => process.exit(0))
      .catch((e: unknown) => {
        log.error({ err: e }, 'error while stopping');
        process.exit(1);
      });
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => stop(signal));
}

function fail(message: string): void {
  process.stderr.write(`\nThe portal could not start: ${message}\n\n`);
  process.exitCode = 1;
}

main().catch((e: unknown) => {
  log.error({ err: e }, 'the portal could not start');
  process.exitCode = 1;
});
