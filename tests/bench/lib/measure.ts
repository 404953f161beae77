import { cpus, totalmem } from 'node:os';
import type { Log } from '../../../server/src/platform/logging/logger.js';
import type { BenchReport, GoalResult, Measurement, Timing } from './suite.js';

/** Runs `fn` once and returns its result with the elapsed milliseconds. */
export async function timed<T>(fn: () => Promise<T>): Promise<{ result: T; ms: number }> {
  const started = process.hrtime.bigint();
  const result = await fn();
  return { result, ms: Number(process.hrtime.bigint() - started) / 1e6 };
}

export function timing(count: number, ms: number): Timing {
  return { count, ms: round(ms, 1), rate: ms > 0 ? round((count * 1000) / ms, 1) : 0 };
}

export function measurement(m: Omit<Measurement, 'ratio' | 'goals'> & { goals?: GoalResult[] }): Measurement {
  const ratio = m.baseline && m.baseline.rate > 0 ? round(m.subject.rate / m.baseline.rate, 3) : undefined;
  return { ...m, ...(ratio === undefined ? {} : { ratio }), goals: m.goals ?? [] };
}

export function atLeastRatio(m: Measurement, min: number): GoalResult {
  return { goal: `≥ ${min}× baseline`, pass: m.ratio !== undefined && m.ratio >= min };
}

export function atLeastRate(m: Measurement, min: number): GoalResult {
  return { goal: `≥ ${min.toLocaleString('en-US')} ${m.unit}`, pass: m.subject.rate >= min };
}

/** Scales a documented size, never below `min`. */
/**
 * Untimed warm-up rounds before a latency measurement of `rounds` rounds (a tenth, at most 30): the
 * first rounds measure the JIT compiling each server's path rather than the steady state.
 */
export const warmUpRounds = (rounds: number) => Math.min(30, Math.ceil(rounds / 10));

export function scaled(size: number, scale: number, min = 1): number {
  return Math.max(min, Math.round(size * scale));
}

/** Runs `task(i)` for i in [0, count) on `concurrency` workers; each worker takes the next index. */
export async function runConcurrently(
  count: number,
  concurrency: number,
  task: (worker: number, index: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async (_, worker) => {
      while (next < count) await task(worker, next++);
    }),
  );
}

function round(n: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}

/** The machine a report was measured on. */
export function benchEnvironment(): BenchReport['environment'] {
  return {
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    cpus: cpus().length,
    totalMemoryMb: Math.round(totalmem() / 2 ** 20),
  };
}

/** A log that says nothing: the server's classes run quietly inside a benchmark. */
export const silentLog: Log = (() => {
  const noop = () => {};
  const log = { info: noop, warn: noop, error: noop, debug: noop, child: () => log };
  return log as unknown as Log;
})();
