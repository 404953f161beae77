// `npm run size`: the gzip size of the JavaScript the first screens load, from the client build's Vite
// manifest (client/dist/.vite/manifest.json; `npm run build -w @portal/client` writes it).
//
// A screen loads the entry chunk and everything it imports statically; a screen that is its own lazy
// chunk (router.tsx `lazy(...)`) adds that chunk and its static imports. Lazy chunks the screen does not
// open are not counted. The login screen's budget is 250 KB gzip (issue 5); over it, this exits 1.
//
// Options: --dist <dir> (default client/dist), --json (machine-readable output).
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

export const LOGIN_BUDGET_BYTES = 250 * 1024;

/**
 * The screens reported, by the modules they render (each a key of the manifest when it is its own lazy
 * chunk): the dashboard renders inside the portal's layout.
 */
export const SCREENS = {
  login: ['src/features/auth/pages/LoginPage.tsx'],
  dashboard: ['src/app/layouts/PortalLayout.tsx', 'src/features/dashboard/pages/DashboardPage.tsx'],
};

/** Manifest keys of `key` and everything it imports statically. */
export function staticClosure(manifest, key, seen = new Set()) {
  if (seen.has(key) || !manifest[key]) return seen;
  seen.add(key);
  for (const next of manifest[key].imports ?? []) staticClosure(manifest, next, seen);
  return seen;
}

/** The JS files (relative to dist) a screen loads first: the entry's static closure, plus its own chunks'. */
export function screenFiles(manifest, screenModules) {
  const entry = Object.keys(manifest).find((k) => manifest[k].isEntry);
  if (!entry) throw new Error('the manifest has no entry chunk');
  const keys = staticClosure(manifest, entry);
  for (const module of screenModules) if (manifest[module]) staticClosure(manifest, module, keys);
  return [...keys].map((k) => manifest[k].file).filter((f) => f.endsWith('.js'));
}

export function measure(distDir) {
  const manifest = JSON.parse(readFileSync(join(distDir, '.vite', 'manifest.json'), 'utf8'));
  const gzipOf = (file) => gzipSync(readFileSync(join(distDir, file))).length;
  const rawOf = (file) => readFileSync(join(distDir, file)).length;
  const screens = {};
  for (const [name, modules] of Object.entries(SCREENS)) {
    const files = screenFiles(manifest, modules).sort();
    screens[name] = {
      ownChunk: modules.some((m) => Boolean(manifest[m])),
      files,
      bytes: files.reduce((sum, f) => sum + rawOf(f), 0),
      gzipBytes: files.reduce((sum, f) => sum + gzipOf(f), 0),
    };
  }
  return { budgetBytes: LOGIN_BUDGET_BYTES, screens };
}

const kb = (n) => `${(n / 1024).toFixed(1)} KB`;

function main(argv) {
  const here = dirname(fileURLToPath(import.meta.url));
  const at = argv.indexOf('--dist');
  const dist = resolve(at >= 0 ? argv[at + 1] : join(here, '..', 'client', 'dist'));
  const result = measure(dist);
  if (argv.includes('--json')) console.log(JSON.stringify(result, null, 2));
  else {
    console.log(`First-screen JavaScript (${dist}):`);
    for (const [name, s] of Object.entries(result.screens))
      console.log(
        `  ${name.padEnd(10)} ${kb(s.gzipBytes).padStart(9)} gzip (${kb(s.bytes)} raw) in ${s.files.length} file(s)` +
          `${s.ownChunk ? '' : ', in the entry chunk'}`,
      );
    console.log(`  budget     ${kb(LOGIN_BUDGET_BYTES).padStart(9)} gzip for the login screen`);
  }
  if (result.screens.login.gzipBytes > LOGIN_BUDGET_BYTES) {
    console.error(`The login screen loads ${kb(result.screens.login.gzipBytes)} gzip: over the budget.`);
    process.exitCode = 1;
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url))
  main(process.argv.slice(2));
