import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import * as Y from 'yjs';
import {
  HALF_TERM_REPORT_DOCUMENT_KIND,
  reportHashOf,
  sha256Hex,
  writeFacts,
  writeReportTemplate,
  type ContentNode,
  type ReportFact,
  type SignOff,
} from '@portal/projections';
import {
  DOCUMENT_SNAPSHOT_TAKEN,
  DOCUMENT_UPDATED,
  documentStream,
  type DocumentSnapshotTakenData,
  type DocumentUpdatedData,
} from '../platform/collaboration/collab.protocol.js';
import { CollaborationServer } from '../platform/collaboration/collaboration.server.js';
import { fromBase64, toBase64 } from '../platform/collaboration/document-persistence.js';
import { ConcurrencyError } from '../platform/event-store/errors.js';
import type { EventStore, RecordedEvent } from '../platform/event-store/event-store.js';
import { EVENT_STORE } from '../platform/tokens.js';

/** The text of one report at a point: its canonical form, hash, content and the stream revision. */
export interface ReportText extends SignOff {
  content: ContentNode;
}

/** Rebuilds a Yjs document from its stream's events (updates and snapshots), up to `upToRevision`. */
export function documentFrom(events: readonly RecordedEvent[], upToRevision?: bigint): Y.Doc {
  const doc = new Y.Doc();
  for (const e of events) {
    if (upToRevision !== undefined && e.revision > upToRevision) break;
    if (e.type === DOCUMENT_SNAPSHOT_TAKEN)
      Y.applyUpdate(doc, fromBase64((e.data as DocumentSnapshotTakenData).state));
    if (e.type === DOCUMENT_UPDATED) Y.applyUpdate(doc, fromBase64((e.data as DocumentUpdatedData).update));
  }
  return doc;
}

/**
 * A report's live text (`half-term-report:{id}`, decision 0057): seeds the template when a report is
 * created, and computes the snapshot a sign-off freezes. A document loaded in this process is flushed
 * first, so the stream holds every update its editors had acknowledged.
 */
@Injectable()
export class ReportDocuments {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly collab: CollaborationServer,
  ) {}

  private stream(reportId: string): string {
    return documentStream(HALF_TERM_REPORT_DOCUMENT_KIND, reportId);
  }

  /**
   * Writes the template sections (and the fact blocks, decision 0068) as the document's first update;
   * nothing when the document has one already.
   */
  async seed(reportId: string, facts: readonly ReportFact[] = []): Promise<void> {
    const doc = new Y.Doc();
    writeReportTemplate(doc);
    writeFacts(doc, facts);
    const data: DocumentUpdatedData = { update: toBase64(Y.encodeStateAsUpdate(doc)), updates: 1 };
    try {
      await this.store.append(
        this.stream(reportId),
        [{ id: randomUUID(), type: DOCUMENT_UPDATED, data, metadata: { actorId: null, actors: [] } }],
        { expectedRevision: 'no_stream' },
      );
    } catch (e) {
      if (!(e instanceof ConcurrencyError)) throw e;
    }
  }

  /**
   * Rewrites the fact blocks through the collaboration server (open editors see them at once);
   * answers whether the text changed and the document stream's revision after the write.
   */
  refreshFacts(
    reportId: string,
    facts: readonly ReportFact[],
    actorId: string,
  ): Promise<{ changed: boolean; revision: string }> {
    return this.collab.editDocument(HALF_TERM_REPORT_DOCUMENT_KIND, reportId, actorId, (doc) =>
      writeFacts(doc, facts),
    );
  }

  /** The text now (after flushing this process's editors' updates). */
  async current(reportId: string): Promise<ReportText> {
    const loaded = this.collab.loadedDocument(`${HALF_TERM_REPORT_DOCUMENT_KIND}:${reportId}`);
    if (loaded) await loaded.flush();
    const events = await this.store.readStream(this.stream(reportId));
    const revision = events.length ? events[events.length - 1]!.revision : -1n;
    const { canonical, hash, content } = await reportHashOf(reportId, documentFrom(events));
    return { canonical, hash, content, documentRevision: revision.toString() };
  }

  /** The text as it was at a stream revision (for `verify`). */
  async at(reportId: string, documentRevision: string): Promise<ReportText> {
    const events = await this.store.readStream(this.stream(reportId));
    const { canonical, hash, content } = await reportHashOf(
      reportId,
      documentFrom(events, BigInt(documentRevision)),
    );
    return { canonical, hash, content, documentRevision };
  }
}

export { hasWrittenText as hasText } from '@portal/projections';
export { sha256Hex };
