import { Injectable } from '@nestjs/common';
import type { ChangedType, DocumentEditor } from '@portal/projections';
import type * as Y from 'yjs';
import type { Actor } from '../auth/request-context.js';
import type { RecordedEvent } from '../event-store/event-store.js';
import type { InsertedRun } from './text-insertions.js';

/** A document loaded in this process, as its kind's hooks see it. */
export interface LoadedDocument {
  id: string;
  /** The live document (read it; never change it from a hook). */
  doc: Y.Doc;
  /** The kind's own memory for this loaded document (e.g. the text at the last flush). */
  memo: Map<string, unknown>;
  /** The document's state as `UpdateCheck.version` counts it (what a check kept for it is current). */
  version: number;
}

/** One update from a writing connection, before it is applied (decision 0060). */
export interface UpdateCheck {
  id: string;
  actor: Actor;
  /** The connection may only suggest. */
  suggestOnly: boolean;
  /** The document as it is. */
  before: Y.Doc;
  /** A copy of the document with the update applied. */
  after: Y.Doc;
  /**
   * Which state `before` is in (this loaded document): it moves by exactly one when the checked
   * update is applied, and on every change from elsewhere. A kind may keep what it derived from
   * `after` for the next check whose `version` is this one plus one (decision 0067).
   */
  version?: number;
  /** The loaded document's memory (as `LoadedDocument.memo`). */
  memo?: Map<string, unknown>;
  /**
   * The shared types of `after` the update changed (Yjs `transaction.changed`: types that existed
   * before it and gained, lost or changed an item or an attribute; a new type shows as a change of its
   * parent). Lets a kind skip a full check when only parts it does not guard changed (decision 0071).
   */
  changed?: readonly ChangedType[];
  /**
   * For a suggest-only connection: the characters the update typed when typing into texts that were
   * there is all it did, else null (`textInsertions`, decision 0082). Lets a kind accept a keystroke
   * without converting the text.
   */
  insertions?: readonly InsertedRun[] | null;
}

/** An update the server did not apply: refused by the kind, or sent by a read-only connection. */
export interface RefusedUpdate {
  id: string;
  actor: Actor;
  reason: string;
  update: Uint8Array;
  before: Y.Doc;
  after: Y.Doc;
}

/** Who is connected to a document now (this process), for presence. */
export interface DocumentPresence {
  id: string;
  editors: DocumentEditor[];
}

/**
 * A kind of collaborative document (`half-term-report`, `safeguarding-incident`, ...). Domain modules
 * register their kinds at start; the collaboration server asks them who may read and who may write.
 * A user who may read but not write gets a read-only connection.
 */
export interface DocumentKind {
  kind: string;
  canRead(actor: Actor, id: string): boolean | Promise<boolean>;
  canWrite(actor: Actor, id: string): boolean | Promise<boolean>;
  /**
   * The id of the document whose access rules this event changes (null: none). After the event is in
   * the read models, every process re-checks the connections to that document.
   */
  accessChangedBy?(event: RecordedEvent): string | null;
  /**
   * Whether a user who may write may only suggest (decision 0060). Such a connection's updates must
   * pass `validateUpdate`; a change of this answer closes the connection with 4501 like a write change.
   */
  suggestOnly?(actor: Actor, id: string): boolean | Promise<boolean>;
  /**
   * Checks an update from a writing connection before it is applied: null accepts it, a reason refuses
   * it. Refused updates go to `refused` (kept, never silently lost) and the connection is told and
   * closed with 4409 so its client starts again from the server's text.
   */
  validateUpdate?(check: UpdateCheck): string | null;
  /** Keeps a refused update (e.g. as an event). Read-only connections' real changes come here too. */
  refused?(refused: RefusedUpdate): Promise<{ ref?: string; text?: string } | void>;
  /** After the document was loaded in this process. */
  loaded?(doc: LoadedDocument): void;
  /** After a batch of updates by `actors` was persisted. */
  persisted?(doc: LoadedDocument, actors: string[]): Promise<void>;
  /** Someone connected to or left the document in this process. */
  presence?(presence: DocumentPresence): void;
}

@Injectable()
export class DocumentKinds {
  private readonly kinds = new Map<string, DocumentKind>();

  registerKind(kind: DocumentKind): void {
    if (!/^[a-z][a-z0-9-]{0,62}$/.test(kind.kind)) throw new Error(`Invalid document kind "${kind.kind}"`);
    if (this.kinds.has(kind.kind)) throw new Error(`Document kind "${kind.kind}" is already registered`);
    this.kinds.set(kind.kind, kind);
  }

  get(kind: string): DocumentKind | undefined {
    return this.kinds.get(kind);
  }

  unregisterKind(kind: string): void {
    this.kinds.delete(kind);
  }

  /** The documents (kind, id) whose access rules one of these events changes, each once. */
  accessChangedBy(events: readonly RecordedEvent[]): { kind: string; id: string }[] {
    const found = new Map<string, { kind: string; id: string }>();
    for (const event of events)
      for (const kind of this.kinds.values()) {
        const id = kind.accessChangedBy?.(event);
        if (id) found.set(`${kind.kind}:${id}`, { kind: kind.kind, id });
      }
    return [...found.values()];
  }
}

/** A kind for tests: any signed-in user reads, users with `writePermission` write. */
export function testDocumentKind(writePermission = 'USER_IS_ADMIN'): DocumentKind {
  return {
    kind: 'test',
    canRead: () => true,
    canWrite: (actor) => actor.permissions.has(writePermission),
  };
}
