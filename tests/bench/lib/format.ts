import type { BenchReport, Measurement, Timing } from './suite.js';

const num = (n: number) => n.toLocaleString('en-US', { maximumFractionDigits: n < 100 ? 1 : 0 });

/** A plain-text table of one report (what the runner prints). */
export function formatReport(report: BenchReport): string {
  const lines: string[] = [];
  lines.push(`== ${report.suite} on ${report.target}: ${report.targetDetails}`);
  lines.push(
    `   BENCH_SCALE=${report.scale}; sizes: ${Object.entries(report.sizes)
      .map(([k, v]) => `${k}=${num(v)}`)
      .join(', ')}`,
  );
  const header = ['#', 'measurement', 'unit', 'subject', 'baseline', 'ratio', 'goals'];
  const rows = report.measurements.map((m, i) => row(i + 1, m));
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((r) => r[c]!.length)));
  const numeric = new Set([3, 4, 5]);
  const fmt = (cells: string[]) =>
    cells
      .map((cell, c) => (numeric.has(c) ? cell.padStart(widths[c]!) : cell.padEnd(widths[c]!)))
      .join('  ')
      .trimEnd();
  lines.push(fmt(header));
  lines.push(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const r of rows) lines.push(fmt(r));
  lines.push('');
  lines.push('   subject / baseline:');
  // Latency and memory rows (unit ms or MB) carry the figure itself in `ms`, the samples in `count`.
  const detail = (m: Measurement, t: { count: number; ms: number }) =>
    /^(ms|MB)\b/.test(m.unit)
      ? `${num(t.count)} sample${t.count === 1 ? '' : 's'}: ${num(t.ms)} ${m.unit.slice(0, 2)}`
      : `${num(t.count)} in ${num(t.ms)} ms`;
  report.measurements.forEach((m, i) => {
    lines.push(`   ${i + 1}. ${m.subject.how} (${detail(m, m.subject)}${percentiles(m.subject)})`);
    if (m.baseline)
      lines.push(`      vs ${m.baseline.how} (${detail(m, m.baseline)}${percentiles(m.baseline)})`);
  });
  for (const note of report.notes) lines.push(`   note: ${note}`);
  const goals = report.measurements.flatMap((m) => m.goals);
  const missed = goals.filter((g) => !g.pass).length;
  lines.push(`   goals: ${goals.length - missed} pass, ${missed} miss`);
  return lines.join('\n');
}

function row(index: number, m: Measurement): string[] {
  return [
    String(index),
    m.label,
    m.unit,
    num(m.subject.rate),
    m.baseline ? num(m.baseline.rate) : '-',
    m.ratio !== undefined ? `${m.ratio.toFixed(2)}×` : '-',
    m.goals.map((g) => `${g.pass ? 'PASS' : 'MISS'} ${g.goal}`).join('; ') || '-',
  ];
}

function percentiles(t: Timing): string {
  return t.p50Ms === undefined ? '' : `; p50 ${num(t.p50Ms)} ms, p99 ${num(t.p99Ms ?? 0)} ms`;
}
