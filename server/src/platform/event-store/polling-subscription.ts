import type { EventEmitter } from 'node:events';
import type { RecordedEvent, Subscription } from './event-store.js';

const BATCH = 500;
/** Even without a notification, look again this often (a lost NOTIFY only delays, never loses). */
const POLL_MS = 1000;

/**
 * A catch-up subscription over `readAll`: reads in pages until it has caught up, then waits for an
 * append signal (or the poll interval) and reads again. Because positions are handed out in commit
 * order, reading "after the last position seen" never skips an event.
 */
export class PollingSubscription implements Subscription {
  private closed = false;
  private generation = 0;
  private wake: (() => void) | null = null;
  private readonly onSignal = () => {
    this.generation++;
    this.wake?.();
  };

  constructor(
    private readonly options: {
      fromPosition: bigint;
      read: (fromPosition: bigint, maxCount: number) => Promise<RecordedEvent[]>;
      accept: (event: RecordedEvent) => boolean;
      signal: EventEmitter;
      onClose: () => void;
    },
  ) {
    options.signal.on('appended', this.onSignal);
  }

  async *[Symbol.asyncIterator](): AsyncIterator<RecordedEvent> {
    let position = this.options.fromPosition;
    try {
      while (!this.closed) {
        const seen = this.generation;
        const batch = await this.options.read(position, BATCH);
        for (const event of batch) {
          if (this.closed) return;
          position = event.position;
          if (this.options.accept(event)) yield event;
        }
        if (batch.length < BATCH && seen === this.generation) await this.sleep(seen);
      }
    } finally {
      await this.close();
    }
  }

  private sleep(seen: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, POLL_MS);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = () => {
        this.wake = null;
        done();
      };
      if (seen !== this.generation || this.closed) this.wake();
    });
  }

  close(): Promise<void> {
    if (!this.closed) {
      this.closed = true;
      this.options.signal.off('appended', this.onSignal);
      this.wake?.();
      this.options.onClose();
    }
    return Promise.resolve();
  }
}
