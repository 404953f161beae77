import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const script = join(root, 'scripts/client-bundle-size.mjs');
const BUDGET = 250 * 1024;

interface Screen {
  ownChunk: boolean;
  files: string[];
  bytes: number;
  gzipBytes: number;
}
interface Sizes {
  budgetBytes: number;
  screens: Record<'login' | 'dashboard', Screen>;
}

async function sizes(dist: string): Promise<{ result: Sizes; code: number }> {
  try {
    const { stdout } = await run('node', [script, '--dist', dist, '--json']);
    return { result: JSON.parse(stdout) as Sizes, code: 0 };
  } catch (e) {
    const failed = e as { stdout: string; code: number };
    return { result: JSON.parse(failed.stdout) as Sizes, code: failed.code };
  }
}

/**
 * Issue 5: route-level code splitting keeps the first screen small. The login screen's JavaScript (the
 * entry chunk and its static imports) must stay within 250 KB gzip; scripts/client-bundle-size.mjs
 * measures it from the Vite manifest (`npm run size` prints it after a build).
 */
describe('first-screen JavaScript size', () => {
  const dirs: string[] = [];
  const tempDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'portal-bundle-'));
    dirs.push(dir);
    return dir;
  };
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('counts the entry and its static imports, plus a screen’s own lazy chunk, never other lazy chunks', async () => {
    const dist = tempDir();
    mkdirSync(join(dist, '.vite'));
    mkdirSync(join(dist, 'assets'));
    const files: Record<string, string> = {
      'assets/index.js': 'x'.repeat(1000),
      'assets/shared.js': 'y'.repeat(500),
      'assets/dashboard.js': 'z'.repeat(700),
      'assets/users.js': 'u'.repeat(9000),
      'assets/index.css': 'body{}',
    };
    for (const [file, text] of Object.entries(files)) writeFileSync(join(dist, file), text);
    const manifest = {
      'index.html': {
        file: 'assets/index.js',
        isEntry: true,
        imports: ['_shared.js'],
        css: ['assets/index.css'],
        dynamicImports: [
          'src/features/dashboard/pages/DashboardPage.tsx',
          'src/features/users/pages/UsersListPage.tsx',
        ],
      },
      '_shared.js': { file: 'assets/shared.js', imports: ['index.html'] },
      'src/features/dashboard/pages/DashboardPage.tsx': {
        file: 'assets/dashboard.js',
        isDynamicEntry: true,
        imports: ['_shared.js'],
      },
      'src/features/users/pages/UsersListPage.tsx': { file: 'assets/users.js', isDynamicEntry: true },
    };
    writeFileSync(join(dist, '.vite/manifest.json'), JSON.stringify(manifest));

    const { result, code } = await sizes(dist);
    expect(code).toBe(0);
    expect(result.screens.login).toMatchObject({
      ownChunk: false,
      files: ['assets/index.js', 'assets/shared.js'],
      bytes: 1500,
    });
    expect(result.screens.dashboard).toMatchObject({
      ownChunk: true,
      files: ['assets/dashboard.js', 'assets/index.js', 'assets/shared.js'],
      bytes: 2200,
    });
    expect(result.screens.login.gzipBytes).toBeGreaterThan(0);

    // Over the budget the script fails (exit 1).
    // Random bytes do not compress: 300 KB of them is over the budget gzipped too.
    writeFileSync(join(dist, 'assets/shared.js'), randomBytes(300 * 1024));
    const over = await sizes(dist);
    expect(over.code).toBe(1);
    expect(over.result.screens.login.gzipBytes).toBeGreaterThan(BUDGET);
  });

  describe('the real client build', () => {
    let dist = '';
    beforeAll(async () => {
      dist = tempDir();
      // The client imports @portal/projections' built output (its package exports): on a fresh clone
      // the int tier runs before anything was built, so build it first (as `npm run build` does).
      await run('node', [
        join(root, 'node_modules/typescript/bin/tsc'),
        '-p',
        join(root, 'projections/tsconfig.build.json'),
      ]);
      await run(
        'node',
        [
          join(root, 'node_modules/vite/bin/vite.js'),
          'build',
          '--outDir',
          dist,
          '--emptyOutDir',
          '--sourcemap',
          'false',
          '--logLevel',
          'warn',
        ],
        // Jest sets NODE_ENV=test, which would build React's development bundle.
        {
          cwd: join(root, 'client'),
          env: { ...process.env, NODE_ENV: 'production' },
          maxBuffer: 16 * 1024 * 1024,
        },
      );
    }, 240_000);

    it('loads at most 250 KB gzip of JavaScript on the login screen', async () => {
      const { result, code } = await sizes(dist);
      expect(result.screens.login.files.length).toBeGreaterThan(0);
      expect(result.screens.login.gzipBytes).toBeLessThanOrEqual(BUDGET);
      expect(code).toBe(0);
      // The dashboard loads at least what the login screen does.
      expect(result.screens.dashboard.gzipBytes).toBeGreaterThanOrEqual(result.screens.login.gzipBytes);
    });
  });
});
