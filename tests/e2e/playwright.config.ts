import { defineConfig, devices } from '@playwright/test';
import { mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { E2E_BASE_URL, E2E_PORT, SUPERUSER } from './support/env.js';
import { chooseChromium } from './support/browser.js';

/**
 * End-to-end tests: the built portal (server + client/dist) in Chromium.
 *
 * Environment overrides:
 * - E2E_SERVER_COMMAND: command that starts the server (default `node server/dist/main.js`, run from the
 *   repository root); it gets PORT, DATA_DIR, FIRST_SUPERUSER and FIRST_SUPERUSER_PASSWORD.
 * - E2E_PORT (default 3100), E2E_DATA_DIR (default a fresh tests/e2e/.artifacts/data-<timestamp>).
 * - E2E_SERVER_LOGS=1: show the server's stdout.
 * - CHROMIUM_PATH: the Chromium to drive. Without it, Debian's /usr/bin/chromium when installed, else the
 *   Chromium inside the @sparticuz/chromium npm package (support/browser.ts); E2E_BROWSER=bundled forces that.
 */

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(here, '../..');
const artifacts = join(here, '.artifacts');

/** Data directories of earlier runs older than this are removed when a new run starts. */
const STALE_DATA_DIR_MS = 60 * 60 * 1000;

function removeStaleDataDirs(): void {
  let entries: string[];
  try {
    entries = readdirSync(artifacts);
  } catch {
    return;
  }
  for (const entry of entries) {
    if (!entry.startsWith('data-')) continue;
    const path = join(artifacts, entry);
    try {
      if (Date.now() - statSync(path).mtimeMs > STALE_DATA_DIR_MS)
        rmSync(path, { recursive: true, force: true });
    } catch {
      // Best effort: a directory we cannot remove is left for the next run.
    }
  }
}

// The runner loads this file first and passes its environment to the workers, which load it again:
// choose the data directory once so every process agrees on it.
if (!process.env.E2E_DATA_DIR) {
  removeStaleDataDirs();
  process.env.E2E_DATA_DIR = join(artifacts, `data-${new Date().toISOString().replace(/[:.]/g, '-')}`);
}
const dataDir = process.env.E2E_DATA_DIR;
mkdirSync(dataDir, { recursive: true });

// The browser is chosen once, in the runner; the workers read the choice from the environment.
if (!process.env.E2E_CHROMIUM_EXECUTABLE) {
  const choice = await chooseChromium();
  process.env.E2E_CHROMIUM_EXECUTABLE = choice.executablePath;
  process.env.E2E_CHROMIUM_ARGS = JSON.stringify(choice.args);
  process.stdout.write(`Browser tests drive Chromium from ${choice.source}: ${choice.executablePath}\n`);
}
const chromiumArgs = JSON.parse(process.env.E2E_CHROMIUM_ARGS ?? '[]') as string[];

export default defineConfig({
  testDir: here,
  testMatch: '**/*.e2e.spec.ts',
  outputDir: join(artifacts, 'test-results'),
  fullyParallel: false,
  workers: 1,
  // One retry: on a loaded 2-core machine a timing-sensitive step can miss its window; a test that
  // fails twice fails the run (flaky passes show as "flaky" in the report).
  retries: 1,
  reporter: 'list',
  forbidOnly: Boolean(process.env.CI),
  // Windows sized for a loaded 2-core machine: in one CI run there everything took 2–3 times as long
  // (e2e 30.9 min against 11), and screens that were on their way missed a 5 s window. Longer windows
  // only wait longer for what must appear; they change no assertion.
  timeout: 60_000,
  expect: { timeout: 10_000 },
  use: {
    ...devices['Desktop Chrome'],
    baseURL: E2E_BASE_URL,
    browserName: 'chromium',
    locale: 'en-GB',
    timezoneId: 'Europe/London',
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: process.env.E2E_CHROMIUM_EXECUTABLE,
      args: chromiumArgs,
    },
  },
  webServer: {
    command: process.env.E2E_SERVER_COMMAND ?? 'node server/dist/main.js',
    cwd: repoRoot,
    env: {
      PORT: String(E2E_PORT),
      DATA_DIR: dataDir,
      FIRST_SUPERUSER: SUPERUSER.email,
      FIRST_SUPERUSER_PASSWORD: SUPERUSER.password,
      // Tests seed what they need through the API; the demo organisation would only get in the way.
      DEMO_DATA: 'false',
    },
    url: `${E2E_BASE_URL}/api/v1/health`,
    reuseExistingServer: false,
    timeout: 120_000,
    // Server logs are noisy; E2E_SERVER_LOGS=1 shows them. Errors (stderr) always show.
    stdout: process.env.E2E_SERVER_LOGS ? 'pipe' : 'ignore',
    stderr: 'pipe',
    gracefulShutdown: { signal: 'SIGTERM', timeout: 5_000 },
  },
});
