import { describe, expect, it } from '@jest/globals';
import * as Y from 'yjs';
import { UpdateBatch } from './update-batch.js';

/** `count` single-character updates typed into one text, as a connection would send them. */
function keystrokes(count: number): { updates: Uint8Array[]; text: string } {
  const doc = new Y.Doc();
  const updates: Uint8Array[] = [];
  doc.on('update', (u: Uint8Array) => updates.push(u));
  for (let i = 0; i < count; i++) doc.getText('t').insert(i, String.fromCharCode(97 + (i % 26)));
  return { updates, text: doc.getText('t').toJSON() };
}

const textOf = (parts: Uint8Array[]) => {
  const doc = new Y.Doc();
  Y.applyUpdate(doc, Y.mergeUpdates(parts));
  return doc.getText('t').toJSON();
};

describe('UpdateBatch: the updates of one flush, merged in runs as they arrive', () => {
  it('merges every run of updates into one part and keeps the rest as they came', () => {
    const { updates, text } = keystrokes(70);
    const batch = new UpdateBatch(32);
    for (const u of updates) batch.push(u);
    const taken = batch.take();
    // Two runs of 32 merged, then the last 6 updates as they are.
    expect(taken.parts).toHaveLength(2 + 6);
    expect(taken.parts.slice(2)).toEqual(updates.slice(64));
    expect(taken.count).toBe(70);
    expect(textOf(taken.parts)).toBe(text);
  });

  it('is empty after take', () => {
    const batch = new UpdateBatch(4);
    for (const u of keystrokes(9).updates) batch.push(u);
    batch.take();
    expect(batch.count).toBe(0);
    expect(batch.take()).toEqual({ parts: [], count: 0 });
  });

  it('a failed flush puts its updates back ahead of those that arrived since, with their count', () => {
    const { updates, text } = keystrokes(20);
    const batch = new UpdateBatch(4);
    for (const u of updates.slice(0, 10)) batch.push(u);
    const failed = batch.take();
    for (const u of updates.slice(10)) batch.push(u);
    batch.putBack(failed);
    expect(batch.count).toBe(20);
    const retried = batch.take();
    expect(retried.count).toBe(20);
    expect(textOf(retried.parts)).toBe(text);
  });
});
