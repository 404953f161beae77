import * as Y from 'yjs';

/** Updates merged into one as soon as this many have arrived (decision 0076). */
export const MERGE_RUN = 32;

/** What a flush takes from a batch: the updates (some already merged) and how many client updates they hold. */
export interface TakenUpdates {
  parts: Uint8Array[];
  count: number;
}

/**
 * The updates a document accepted since its last flush (decision 0076). Every `runLength` updates are
 * merged into one as they arrive, so a flush merges a few parts instead of hundreds of small updates:
 * `Y.mergeUpdates` grows faster than linearly with the number of updates, and a flush of 500 keystrokes
 * held the event loop for 4–9 ms while every editor waited.
 */
export class UpdateBatch {
  private merged: Uint8Array[] = [];
  private run: Uint8Array[] = [];
  /** Client updates in the batch (a merged part counts every update it holds). */
  count = 0;

  constructor(private readonly runLength = MERGE_RUN) {}

  push(update: Uint8Array): void {
    this.run.push(update);
    this.count++;
    if (this.run.length >= this.runLength) {
      this.merged.push(Y.mergeUpdates(this.run));
      this.run = [];
    }
  }

  /** Empties the batch and returns what it held. */
  take(): TakenUpdates {
    const taken = { parts: [...this.merged, ...this.run], count: this.count };
    this.merged = [];
    this.run = [];
    this.count = 0;
    return taken;
  }

  /** Puts back what a failed flush took, ahead of what arrived since. */
  putBack(taken: TakenUpdates): void {
    this.merged = [...taken.parts, ...this.merged];
    this.count += taken.count;
  }
}
