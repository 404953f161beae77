/**
 * Benchmark runner: `npm run bench -- [suite ...]` (no suite = all). Every tests/bench/suites/<name>.ts
 * that exports `suite: BenchSuite` is a suite. Prints a table per report, then the reports as JSON, and
 * saves each report as tests/bench/results/<suite>-<target>.json. See tests/bench/README.md.
 */
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { formatReport } from './lib/format.js';
import type { BenchReport, BenchSuite, TargetKind } from './lib/suite.js';

const here = dirname(fileURLToPath(import.meta.url));
const ALL_TARGETS: readonly TargetKind[] = ['pglite', 'postgres'];

async function loadSuites(): Promise<Map<string, BenchSuite>> {
  const suites = new Map<string, BenchSuite>();
  const files = (await readdir(join(here, 'suites'))).filter((f) => /\.ts$/.test(f) && !f.endsWith('.d.ts'));
  for (const file of files.sort()) {
    const mod = (await import(pathToFileURL(join(here, 'suites', file)).href)) as { suite?: BenchSuite };
    if (!mod.suite) throw new Error(`tests/bench/suites/${file} does not export \`suite\``);
    suites.set(mod.suite.name, mod.suite);
  }
  return suites;
}

function parseScale(): number {
  const raw = process.env.BENCH_SCALE ?? '1';
  const scale = Number(raw);
  if (!Number.isFinite(scale) || scale <= 0)
    throw new Error(`BENCH_SCALE must be a positive number, got ${raw}`);
  return scale;
}

function parseTargets(): TargetKind[] {
  const raw = process.env.BENCH_TARGETS;
  if (!raw) return [...ALL_TARGETS];
  const targets = raw.split(',').map((t) => t.trim()) as TargetKind[];
  const unknown = targets.filter((t) => !ALL_TARGETS.includes(t));
  if (unknown.length)
    throw new Error(`Unknown BENCH_TARGETS: ${unknown.join(', ')} (use ${ALL_TARGETS.join(',')})`);
  return targets;
}

async function main(): Promise<void> {
  const suites = await loadSuites();
  const names = process.argv.slice(2).filter((a) => !a.startsWith('-'));
  if (process.argv.includes('--list')) {
    for (const s of suites.values()) console.log(`${s.name}: ${s.description}`);
    return;
  }
  const unknown = names.filter((n) => !suites.has(n));
  if (unknown.length) {
    throw new Error(`Unknown suite(s): ${unknown.join(', ')}. Available: ${[...suites.keys()].join(', ')}`);
  }
  const selected = names.length ? names.map((n) => suites.get(n)!) : [...suites.values()];
  const scale = parseScale();
  const targets = parseTargets();
  const resultsDir = join(here, 'results');
  await mkdir(resultsDir, { recursive: true });

  const reports: BenchReport[] = [];
  let failed = false;
  for (const suite of selected) {
    const progress = (message: string) => process.stderr.write(`[bench ${suite.name}] ${message}\n`);
    progress(`starting (BENCH_SCALE=${scale}, targets ${targets.join(', ')})`);
    const report = async (r: BenchReport) => {
      reports.push(r);
      const file = join(resultsDir, `${r.suite}-${r.target}.json`);
      await writeFile(file, JSON.stringify(r, null, 2) + '\n');
      console.log(formatReport(r));
      console.log(`   saved: ${relative(process.cwd(), file)}\n`);
    };
    try {
      await suite.run({ scale, targets, progress, report });
    } catch (e) {
      failed = true;
      console.error(`[bench ${suite.name}] failed:`, e);
    }
  }
  console.log(JSON.stringify(reports, null, 2));
  if (failed) process.exitCode = 1;
}

try {
  await main();
} catch (e) {
  console.error(e instanceof Error ? e.message : e);
  process.exitCode = 1;
}

// Every suite closes what it opened, so the process ends here by itself. If something was left open
// (a socket, a timer, a child), name it and exit anyway: a benchmark must be scriptable (issue 19).
const grace = setTimeout(() => {
  const open = process.getActiveResourcesInfo().filter((r) => r !== 'Timeout' && r !== 'TTYWrap');
  console.error(`[bench] still open after the suites finished: ${open.join(', ') || 'timers'}; exiting`);
  process.exit(process.exitCode ?? 0);
}, 3000);
grace.unref();
