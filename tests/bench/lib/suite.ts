/**
 * What a benchmark suite is: tests/bench/suites/<name>.ts exports `suite: BenchSuite`. The runner
 * (tests/bench/run.ts) finds every suite there, runs the ones asked for and prints/saves their reports.
 */

export type TargetKind = 'pglite' | 'postgres';

export interface SuiteContext {
  /** BENCH_SCALE: 1 = the documented sizes; 0.1 = a tenth of them. */
  scale: number;
  /** The database kinds to measure (BENCH_TARGETS, default both). */
  targets: readonly TargetKind[];
  /** Progress messages (stderr, so stdout stays table + JSON). */
  progress(message: string): void;
  /** Hands over a finished report (printed and saved as results/<suite>-<target>.json at once). */
  report(report: BenchReport): Promise<void>;
}

export interface BenchSuite {
  /** Name used on the command line and in result file names. */
  name: string;
  description: string;
  /** Runs the suite, calling ctx.report() once per target measured. */
  run(ctx: SuiteContext): Promise<void>;
}

export interface Timing {
  /** Items of work done (events, messages, ...). */
  count: number;
  ms: number;
  /** count per second. */
  rate: number;
  /** Latency percentiles of single operations (request suites), milliseconds. */
  p50Ms?: number;
  p99Ms?: number;
}

export interface GoalResult {
  goal: string;
  pass: boolean;
}

export interface Measurement {
  /** Stable key (for comparing result files). */
  key: string;
  /** What was measured, for the table. */
  label: string;
  unit: string;
  /** The code under test (the port, the runner, ...). */
  subject: Timing & { how: string };
  /** The raw-SQL (or other) baseline doing the same work in the same run, when there is one. */
  baseline?: Timing & { how: string };
  /** subject.rate / baseline.rate. */
  ratio?: number;
  goals: GoalResult[];
}

export interface BenchReport {
  suite: string;
  target: string;
  /** A short description of the database / server measured. */
  targetDetails: string;
  scale: number;
  startedAt: string;
  durationMs: number;
  environment: { node: string; platform: string; cpus: number; totalMemoryMb: number };
  sizes: Record<string, number>;
  measurements: Measurement[];
  notes: string[];
}
