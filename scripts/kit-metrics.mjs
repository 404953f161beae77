#!/usr/bin/env node
// Domain-kit measurements (issue: "Measure it"): lines per controller route, SQL in controllers,
// write loops, per tree. Usage: node scripts/kit-metrics.mjs [repo dir]. Pure file reading.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = process.argv[2] ?? process.cwd();
function walk(dir, out = []) {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else out.push(p);
  }
  return out;
}
const files = walk(join(root, 'server/src')).filter((f) => f.endsWith('.ts'));
const controllers = files.filter((f) => f.endsWith('.controller.ts'));
const perRoute = [];
let sqlInControllers = 0;
let routes = 0;
let controllersWithSql = 0;
for (const f of controllers) {
  const text = readFileSync(f, 'utf8');
  const lines = text
    .split('\n')
    .filter(
      (l) =>
        l.trim() && !l.trim().startsWith('//') && !l.trim().startsWith('*') && !l.trim().startsWith('/*'),
    );
  const n = (text.match(/@(Get|Post|Put|Patch|Delete)\(/g) ?? []).length;
  if (n === 0) continue;
  routes += n;
  perRoute.push(lines.length / n);
  sqlInControllers += (text.match(/\b(SELECT|INSERT INTO|UPDATE \w+ SET|DELETE FROM)\b/g) ?? []).length;
  if (/\b(SELECT|INSERT INTO|UPDATE \w+ SET|DELETE FROM)\b/.test(text)) controllersWithSql++;
}
perRoute.sort((a, b) => a - b);
const median = perRoute[Math.floor(perRoute.length / 2)] ?? 0;
const nonTest = files.filter((f) => !f.includes('.spec.'));
const grepCount = (re) => nonTest.reduce((s, f) => s + (readFileSync(f, 'utf8').match(re) ?? []).length, 0);
const serverLines = nonTest.reduce((s, f) => s + readFileSync(f, 'utf8').split('\n').length, 0);
// Reads of the caller's own user row although the guard loaded the actor (decision 0050).
const callerRowRereads = grepCount(/\.actorRow\(|byId\((req\.actor!?|actor|me)\.(userId|id)\)/g);
const projectionFiles = walk(join(root, 'projections/src')).filter(
  (f) => f.endsWith('.projection.ts') && !f.includes('.spec.'),
);
const projectionText = projectionFiles.map((f) => readFileSync(f, 'utf8')).join('\n');
console.log(
  JSON.stringify(
    {
      controllers: perRoute.length,
      routes,
      median_code_lines_per_route: Number(median.toFixed(1)),
      sql_statements_in_controllers: sqlInControllers,
      controllers_with_sql: controllersWithSql,
      private_run_wrappers: grepCount(/private async run\(/g),
      deciders_importing_nest: files.filter(
        (f) => f.endsWith('.decider.ts') && readFileSync(f, 'utf8').includes('@nestjs/common'),
      ).length,
      caller_row_rereads: callerRowRereads,
      req_actor_bang: grepCount(/req\.actor!/g),
      projections_using_guarded_update: projectionFiles.filter((f) =>
        readFileSync(f, 'utf8').includes('guardedUpdate('),
      ).length,
      hand_written_version_guards_in_projections: (
        projectionText.match(/WHERE id = \$1 AND version </g) ?? []
      ).length,
      identity_files: nonTest.filter((f) => f.includes('/identity/')).length,
      server_non_test_lines: serverLines,
      files: relative(process.cwd(), root) || '.',
    },
    null,
    1,
  ),
);
