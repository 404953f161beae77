import type { OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';

export interface PeriodicJobOptions {
  /**
   * Run only where this holds at the tick (e.g. `() => runner.isLeader`): jobs that must not run in
   * every process. Jobs that are safe everywhere (each step goes through a decider at a revision) omit it.
   */
  leaderOnly?: () => boolean;
}

/**
 * A job run every `intervalMs` in the background (decision 0047): the timer is `unref`'d so it never
 * keeps the process alive, passes never overlap (single flight: a tick, or a `runOnce` call, while a
 * pass runs joins that pass), and shutdown stops the timer and waits for the pass in flight. A failed
 * pass is reported to `onPassError` and the next tick runs as usual.
 */
export abstract class PeriodicJob<Result = void> implements OnApplicationBootstrap, OnApplicationShutdown {
  /** Milliseconds between ticks, read when the job starts. */
  abstract readonly intervalMs: number;

  private timer: NodeJS.Timeout | null = null;
  private running: Promise<Result> | null = null;

  constructor(private readonly options: PeriodicJobOptions = {}) {}

  /** One pass of the job. */
  protected abstract pass(now: Date): Promise<Result>;

  /** A pass the timer started failed (a direct `runOnce` caller gets the rejection instead). */
  protected onPassError(_error: unknown): void {}

  /** Whether a pass is running now. */
  get busy(): boolean {
    return this.running !== null;
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => this.tick(), this.intervalMs);
    this.timer.unref();
  }

  /** Stops the timer and waits for the pass in flight, if any (its failure is not rethrown). */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running?.catch(() => {});
  }

  /** One pass now, or the pass already running. */
  runOnce(now = new Date()): Promise<Result> {
    this.running ??= this.pass(now).finally(() => {
      this.running = null;
    });
    return this.running;
  }

  onApplicationBootstrap(): void {
    this.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.stop();
  }

  private tick(): void {
    if (this.options.leaderOnly && !this.options.leaderOnly()) return;
    this.runOnce().catch((e: unknown) => this.onPassError(e));
  }
}
