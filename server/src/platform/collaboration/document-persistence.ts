import { randomUUID } from 'node:crypto';
import * as Y from 'yjs';
import type { EventStore, RecordedEvent } from '../event-store/event-store.js';
import { ConcurrencyError } from '../event-store/errors.js';
import type { TakenUpdates } from './update-batch.js';
import {
  DOCUMENT_SNAPSHOT_TAKEN,
  DOCUMENT_UPDATED,
  type DocumentSnapshotTakenData,
  type DocumentUpdatedData,
} from './collab.protocol.js';

/** Transaction origin of updates read from the event store (not persisted again). */
export const FROM_STORE = Symbol('collab:from-store');

const PAGE = 1000;
const MAX_CONCURRENCY_RETRIES = 20;

export const toBase64 = (u: Uint8Array) =>
  Buffer.from(u.buffer, u.byteOffset, u.byteLength).toString('base64');
export const fromBase64 = (s: string) => new Uint8Array(Buffer.from(s, 'base64'));

/**
 * A document's history in the event store: `DocumentUpdated` events (batched Yjs updates) and, after
 * `snapshotEvery` client updates (see `snapshotDue`), a `DocumentSnapshotTaken` event with the whole
 * state, so loading reads backwards to the last snapshot and applies only what follows it.
 */
export class DocumentPersistence {
  /** Revision of the last event of the stream that this process has applied (null: no stream). */
  revision: bigint | null = null;
  /** Client updates persisted since the last snapshot. */
  updatesSinceSnapshot = 0;
  /** `DocumentUpdated` events since the last snapshot, and the bytes of their updates. */
  eventsSinceSnapshot = 0;
  bytesSinceSnapshot = 0;
  /** Size of the last snapshot's state (0: none known to this process). */
  snapshotBytes = 0;
  /** Events read by the last `load` (for diagnostics and tests). */
  lastLoad = { events: 0, fromSnapshot: false };

  constructor(
    private readonly store: EventStore,
    readonly stream: string,
    private readonly snapshotEvery: number,
  ) {}

  async load(doc: Y.Doc): Promise<void> {
    const tail: RecordedEvent[] = [];
    let snapshot: RecordedEvent | null = null;
    let head: bigint | null = null;
    let from: bigint | undefined;
    // A snapshot is due after `snapshotEvery` events at the latest (`snapshotDue`): the last snapshot
    // is normally within the first `snapshotEvery + 1` events from the head. Reading a whole
    // page there would read (and decode) several older snapshots for nothing.
    let pageSize = Math.min(PAGE, this.snapshotEvery + 2);
    for (;;) {
      const page = await this.store.readStream(this.stream, {
        direction: 'backwards',
        maxCount: pageSize,
        ...(from !== undefined ? { fromRevision: from } : {}),
      });
      if (page.length === 0) break;
      head ??= page[0]!.revision;
      let found = false;
      for (const e of page) {
        if (e.type === DOCUMENT_SNAPSHOT_TAKEN) {
          snapshot = e;
          found = true;
          break;
        }
        tail.push(e);
      }
      const last = page[page.length - 1]!.revision;
      if (found || last === 0n || page.length < pageSize) break;
      from = last - 1n;
      pageSize = PAGE;
    }
    tail.reverse();
    this.sinceSnapshot(0);
    doc.transact(() => {
      if (snapshot) {
        const state = fromBase64((snapshot.data as DocumentSnapshotTakenData).state);
        Y.applyUpdate(doc, state, FROM_STORE);
        this.snapshotBytes = state.byteLength;
      }
      for (const e of tail) if (e.type === DOCUMENT_UPDATED) this.applyUpdated(doc, e);
    }, FROM_STORE);
    this.revision = head;
    this.lastLoad = { events: tail.length + (snapshot ? 1 : 0), fromSnapshot: snapshot !== null };
  }

  /** Applies what other processes appended since `revision`. */
  async catchUp(doc: Y.Doc): Promise<void> {
    for (;;) {
      const events = await this.store.readStream(this.stream, {
        direction: 'forwards',
        fromRevision: this.revision === null ? 0n : this.revision + 1n,
        maxCount: PAGE,
      });
      if (events.length === 0) return;
      doc.transact(() => {
        for (const e of events) {
          if (e.type === DOCUMENT_UPDATED) this.applyUpdated(doc, e);
          else if (e.type === DOCUMENT_SNAPSHOT_TAKEN) {
            const state = fromBase64((e.data as DocumentSnapshotTakenData).state);
            Y.applyUpdate(doc, state, FROM_STORE);
            this.sinceSnapshot(state.byteLength);
          }
          this.revision = e.revision;
        }
      }, FROM_STORE);
      if (events.length < PAGE) return;
    }
  }

  /**
   * Appends a batch of client updates with the expected revision; on a concurrent append by another
   * process, applies the new tail to `doc` and retries. Takes a snapshot when due.
   */
  async append(doc: Y.Doc, batch: TakenUpdates, actors: string[]): Promise<void> {
    const merged = batch.parts.length === 1 ? batch.parts[0]! : Y.mergeUpdates(batch.parts);
    const data: DocumentUpdatedData = { update: toBase64(merged), updates: batch.count };
    const metadata = { actorId: actors.length === 1 ? actors[0]! : null, actors };
    const id = randomUUID();
    for (let attempt = 0; ; attempt++) {
      try {
        const result = await this.store.append(
          this.stream,
          [{ id, type: DOCUMENT_UPDATED, data, metadata }],
          {
            expectedRevision: this.revision ?? 'no_stream',
          },
        );
        this.revision = result.nextExpectedRevision;
        break;
      } catch (e) {
        if (!(e instanceof ConcurrencyError) || attempt >= MAX_CONCURRENCY_RETRIES) throw e;
        await this.catchUp(doc);
      }
    }
    this.countEvent(batch.count, merged.byteLength);
    if (!this.snapshotDue()) return;
    // On the embedded database a statement's work runs on this thread and its promise settles at
    // once, so the append and the snapshot would block the event loop as one piece: the editors'
    // messages that arrived meanwhile are handled between the two (decision 0082).
    await new Promise((resolve) => setImmediate(resolve));
    await this.snapshot(doc);
  }

  /** Writes the whole state; a concurrent append simply postpones it to the next batch. */
  async snapshot(doc: Y.Doc): Promise<void> {
    const covers = this.revision;
    if (covers === null) return;
    const state = Y.encodeStateAsUpdate(doc);
    const data: DocumentSnapshotTakenData = {
      state: toBase64(state),
      coversRevision: covers.toString(),
    };
    try {
      const result = await this.store.append(
        this.stream,
        [{ id: randomUUID(), type: DOCUMENT_SNAPSHOT_TAKEN, data, metadata: { actorId: null } }],
        { expectedRevision: covers },
      );
      this.revision = result.nextExpectedRevision;
      this.sinceSnapshot(state.byteLength);
    } catch (e) {
      if (!(e instanceof ConcurrencyError)) throw e;
    }
  }

  /**
   * A snapshot is due once `snapshotEvery` client updates were persisted since the last one. When
   * those came in a few large batches (many editors typing at once) it waits until the batches hold
   * as many bytes as the last snapshot, or `snapshotEvery` events (decisions 0076, 0082): a load then
   * applies at most `snapshotEvery` events and about a snapshot's bytes besides the snapshot, and a
   * busy document is no longer encoded whole and written at every flush (on PGlite, writing a
   * 100 KB snapshot blocks the event loop for 5–10 ms).
   */
  private snapshotDue(): boolean {
    if (this.updatesSinceSnapshot < this.snapshotEvery) return false;
    return this.eventsSinceSnapshot >= this.snapshotEvery || this.bytesSinceSnapshot >= this.snapshotBytes;
  }

  /** Starts counting from a snapshot of `bytes` (0: none). */
  private sinceSnapshot(bytes: number): void {
    this.snapshotBytes = bytes;
    this.updatesSinceSnapshot = 0;
    this.eventsSinceSnapshot = 0;
    this.bytesSinceSnapshot = 0;
  }

  private applyUpdated(doc: Y.Doc, e: RecordedEvent): void {
    const data = e.data as DocumentUpdatedData;
    const update = fromBase64(data.update);
    Y.applyUpdate(doc, update, FROM_STORE);
    this.countEvent(data.updates, update.byteLength);
  }

  /** One more `DocumentUpdated` event since the last snapshot, of `updates` client updates in `bytes`. */
  private countEvent(updates: number, bytes: number): void {
    this.updatesSinceSnapshot += updates;
    this.eventsSinceSnapshot++;
    this.bytesSinceSnapshot += bytes;
  }
}
