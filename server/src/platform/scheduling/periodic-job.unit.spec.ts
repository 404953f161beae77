import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { PeriodicJob, type PeriodicJobOptions } from './periodic-job.js';

/** A job whose passes stay open until the test releases them. */
class GatedJob extends PeriodicJob<number> {
  readonly intervalMs = 10;
  passes = 0;
  failures: unknown[] = [];
  private release: Array<() => void> = [];
  fail = false;

  constructor(options?: PeriodicJobOptions) {
    super(options);
  }

  protected pass(): Promise<number> {
    this.passes++;
    const n = this.passes;
    return new Promise<number>((resolve, reject) =>
      this.release.push(() => (this.fail ? reject(new Error('boom')) : resolve(n))),
    );
  }

  protected override onPassError(error: unknown): void {
    this.failures.push(error);
  }

  finish(): void {
    for (const r of this.release.splice(0)) r();
  }
}

const flush = () => new Promise((r) => setImmediate(r));

describe('PeriodicJob', () => {
  beforeEach(() => {
    jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick', 'queueMicrotask'] });
  });
  afterEach(() => {
    jest.useRealTimers();
  });

  it('runs one pass at a time: ticks and runOnce during a pass join it', async () => {
    const job = new GatedJob();
    job.start();
    jest.advanceTimersByTime(10);
    expect(job.passes).toBe(1);
    jest.advanceTimersByTime(50);
    const joined = job.runOnce();
    expect(job.passes).toBe(1);
    expect(job.busy).toBe(true);
    job.finish();
    await expect(joined).resolves.toBe(1);
    expect(job.busy).toBe(false);
    jest.advanceTimersByTime(10);
    expect(job.passes).toBe(2);
    job.finish();
    await job.stop();
  });

  it('shutdown stops the timer and waits for the pass in flight', async () => {
    const job = new GatedJob();
    job.onApplicationBootstrap();
    jest.advanceTimersByTime(10);
    let stopped = false;
    const stopping = job.onApplicationShutdown().then(() => (stopped = true));
    await flush();
    expect(stopped).toBe(false);
    job.finish();
    await stopping;
    expect(stopped).toBe(true);
    jest.advanceTimersByTime(100);
    expect(job.passes).toBe(1);
  });

  it('unrefs its timer so it never keeps the process alive', () => {
    const unref = jest.fn();
    const spy = jest.spyOn(global, 'setInterval').mockReturnValue({ unref } as unknown as NodeJS.Timeout);
    const job = new GatedJob();
    job.start();
    expect(unref).toHaveBeenCalled();
    spy.mockRestore();
  });

  it('reports a failed timer pass and keeps ticking', async () => {
    const job = new GatedJob();
    job.fail = true;
    job.start();
    jest.advanceTimersByTime(10);
    job.finish();
    await flush();
    expect(job.failures).toHaveLength(1);
    job.fail = false;
    jest.advanceTimersByTime(10);
    expect(job.passes).toBe(2);
    job.finish();
    await job.stop();
  });

  it('with leaderOnly, ticks only while the predicate holds', async () => {
    let leader = false;
    const job = new GatedJob({ leaderOnly: () => leader });
    job.start();
    jest.advanceTimersByTime(30);
    expect(job.passes).toBe(0);
    leader = true;
    jest.advanceTimersByTime(10);
    expect(job.passes).toBe(1);
    job.finish();
    await job.stop();
  });
});
