import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import * as Y from 'yjs';
import type { EventStore } from '../event-store/event-store.js';
import { PostgresEventStore } from '../event-store/postgres/postgres-event-store.js';
import { PgliteSqlClient } from '../sql/pglite-client.js';
import { DOCUMENT_SNAPSHOT_TAKEN, DOCUMENT_UPDATED } from './collab.protocol.js';
import { DocumentPersistence } from './document-persistence.js';

const SNAPSHOT_EVERY = 10;

/** A document being typed into, and a persistence writing its batches to `stream`. */
function typing(store: EventStore, stream: string) {
  const doc = new Y.Doc();
  // A fixed client id: an update's size depends on it (a varint in every item), a snapshot's hardly.
  doc.clientID = 1;
  const persistence = new DocumentPersistence(store, stream, SNAPSHOT_EVERY);
  let typed = 0;
  /** Types `count` characters (one update each) and persists them as one batch. */
  const batch = async (count: number) => {
    const updates: Uint8Array[] = [];
    const keep = (u: Uint8Array) => updates.push(u);
    doc.on('update', keep);
    for (let i = 0; i < count; i++) doc.getText('t').insert(typed++, 'abcdefghij'[i % 10]!);
    doc.off('update', keep);
    await persistence.append(doc, { parts: updates, count }, ['writer']);
  };
  return { doc, persistence, batch };
}

const typesOf = async (store: EventStore, stream: string) =>
  (await store.readStream(stream)).map((e) => e.type);

describe('DocumentPersistence on the real PGlite event store: when snapshots are taken', () => {
  let sql: PgliteSqlClient;
  let store: EventStore;

  beforeAll(async () => {
    sql = await PgliteSqlClient.open();
    store = await PostgresEventStore.create(sql);
  });
  afterAll(async () => {
    await store.close();
    await sql.close();
  });

  it('one keystroke per batch: a snapshot after every `snapshotEvery` updates', async () => {
    const stream = `doc-${randomUUID()}`;
    const { batch } = typing(store, stream);
    for (let i = 0; i < 25; i++) await batch(1);
    const types = await typesOf(store, stream);
    const snapshots = types.flatMap((t, i) => (t === DOCUMENT_SNAPSHOT_TAKEN ? [i] : []));
    // After the 10th and the 20th update (each followed by its snapshot event).
    expect(snapshots).toEqual([10, 21]);
  });

  it('large batches: the first snapshot at once, later ones when the batches hold as many bytes as the snapshot', async () => {
    const stream = `doc-${randomUUID()}`;
    const { doc, batch, persistence } = typing(store, stream);
    await batch(4000); // a long text, then many editors typing: batches of 200 updates
    expect(await typesOf(store, stream)).toEqual([DOCUMENT_UPDATED, DOCUMENT_SNAPSHOT_TAKEN]);
    const snapshotBytes = Y.encodeStateAsUpdate(doc).byteLength;
    expect(persistence.snapshotBytes).toBe(snapshotBytes);
    let batches = 0;
    while ((await typesOf(store, stream)).at(-1) !== DOCUMENT_SNAPSHOT_TAKEN || batches === 0) {
      await batch(200);
      batches++;
      expect(batches).toBeLessThan(SNAPSHOT_EVERY + 1);
    }
    // Each 200-update batch passes `snapshotEvery` on its own, yet the snapshot waited for more than one
    // (the bytes decided: see the two expectations below).
    expect(batches).toBeGreaterThan(1);
    const events = await store.readStream(stream);
    const sinceSnapshot = events
      .slice(2, -1)
      .map((e) => Buffer.from((e.data as { update: string }).update, 'base64'));
    const bytes = sinceSnapshot.reduce((n, u) => n + u.byteLength, 0);
    expect(bytes).toBeGreaterThanOrEqual(snapshotBytes);
    expect(bytes - sinceSnapshot.at(-1)!.byteLength).toBeLessThan(snapshotBytes);
  });

  it('never more than `snapshotEvery` events after a snapshot, and a load applies only those', async () => {
    const stream = `doc-${randomUUID()}`;
    const { doc, batch } = typing(store, stream);
    await batch(4000); // a snapshot far larger than the batches that follow
    for (let i = 0; i < SNAPSHOT_EVERY + 3; i++) await batch(SNAPSHOT_EVERY);
    const types = await typesOf(store, stream);
    const last = types.lastIndexOf(DOCUMENT_SNAPSHOT_TAKEN);
    expect(types.filter((t) => t === DOCUMENT_SNAPSHOT_TAKEN)).toHaveLength(2);
    expect(types.slice(last - SNAPSHOT_EVERY, last)).toEqual(Array(SNAPSHOT_EVERY).fill(DOCUMENT_UPDATED));

    const loaded = new Y.Doc();
    const reader = new DocumentPersistence(store, stream, SNAPSHOT_EVERY);
    await reader.load(loaded);
    expect(loaded.getText('t').toJSON()).toBe(doc.getText('t').toJSON());
    expect(reader.lastLoad).toEqual({ events: types.length - last, fromSnapshot: true });
    // The reader carries on counting where the writer was.
    expect(reader.eventsSinceSnapshot).toBe(types.length - last - 1);
    expect(reader.snapshotBytes).toBeGreaterThan(0);
  });
});
