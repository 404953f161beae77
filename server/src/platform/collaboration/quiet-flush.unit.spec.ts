import { describe, expect, it } from '@jest/globals';
import { FLUSH_MAX_WAIT_MS, FLUSH_QUIET_MS, quietFlushWait } from './collab-document.js';

const FLUSH_MS = 250;

/**
 * When the document's flush timer flushes (decision 0085): the timer set at `dueSince` ends
 * `FLUSH_MS` later (deadline `FLUSH_MAX_WAIT_MS` after that) and is set again for each wait
 * `quietFlushWait` asks for, as `flushWhenQuiet` does;
 * `arrivals` are the times the connections' messages arrive.
 */
function flushTime(arrivals: number[], dueSince = 0): number {
  let now = dueSince + FLUSH_MS;
  for (let timers = 0; timers < 10_000; timers++) {
    const last = Math.max(-Infinity, ...arrivals.filter((t) => t <= now));
    const wait = quietFlushWait(now, last, dueSince + FLUSH_MS + FLUSH_MAX_WAIT_MS);
    if (wait === 0) return now;
    expect(wait).toBeGreaterThan(0);
    now += wait;
  }
  throw new Error('the flush never ran');
}

/** A message every `every` ms from `from` to `to`. */
const steady = (from: number, to: number, every: number) =>
  Array.from({ length: Math.floor((to - from) / every) + 1 }, (_, i) => from + i * every);

describe('the flush waits for a pause in the editors’ messages (decision 0085)', () => {
  it('flushes when the timer ends if nobody typed in the last moments', () => {
    expect(flushTime([])).toBe(FLUSH_MS);
    expect(flushTime(steady(0, 240, 10))).toBe(FLUSH_MS);
    expect(flushTime([FLUSH_MS - FLUSH_QUIET_MS])).toBe(FLUSH_MS);
  });

  it('waits until the connections have been quiet for FLUSH_QUIET_MS', () => {
    // A burst of keystrokes from 12 editors across the timer's end, then a pause.
    const burst = steady(FLUSH_MS - 3, FLUSH_MS + 4, 0.5);
    const t = flushTime(burst);
    expect(t).toBeGreaterThanOrEqual(FLUSH_MS + 4 + FLUSH_QUIET_MS);
    expect(t).toBeLessThan(FLUSH_MS + 4 + FLUSH_QUIET_MS + 1);
    // Message just before the end: the wait is what is left of the pause.
    expect(quietFlushWait(FLUSH_MS, FLUSH_MS - 0.5, FLUSH_MS + FLUSH_MAX_WAIT_MS)).toBeCloseTo(
      FLUSH_QUIET_MS - 0.5,
    );
  });

  it('finds a pause between rounds of typing', () => {
    // Rounds every 8 ms: 2 ms of messages, then 6 ms in which the editors only receive.
    const rounds = steady(0, 600, 8).flatMap((start) => steady(start, start + 2, 0.25));
    const t = flushTime(rounds);
    const lastBefore = Math.max(...rounds.filter((a) => a <= t));
    expect(t - lastBefore).toBeGreaterThanOrEqual(FLUSH_QUIET_MS);
    expect(t).toBeLessThan(FLUSH_MS + 8 + FLUSH_QUIET_MS);
  });

  it('flushes FLUSH_MAX_WAIT_MS after the timer at the latest, however steady the typing', () => {
    const neverQuiet = steady(0, 2_000, 1);
    expect(flushTime(neverQuiet)).toBe(FLUSH_MS + FLUSH_MAX_WAIT_MS);
    expect(flushTime(neverQuiet, 37)).toBe(37 + FLUSH_MS + FLUSH_MAX_WAIT_MS);
    // The last wait never overshoots the deadline.
    expect(
      quietFlushWait(
        FLUSH_MS + FLUSH_MAX_WAIT_MS - 0.25,
        FLUSH_MS + FLUSH_MAX_WAIT_MS - 0.5,
        FLUSH_MS + FLUSH_MAX_WAIT_MS,
      ),
    ).toBe(0.25);
  });
});
