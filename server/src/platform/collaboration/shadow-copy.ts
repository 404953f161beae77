import * as Y from 'yjs';
import type { ChangedType } from '@portal/projections';
import { textInsertions, type InsertedRun } from './text-insertions.js';

/**
 * Applies a connection's update to the shadow copy (the document with every accepted update, where an
 * update is tried before the document takes it) and returns the shared types it changed: Yjs's
 * `transaction.changed`, types that existed before and gained, lost or changed an item or attribute.
 *
 * The update is applied inside a transaction marked local (decision 0078). A transaction that carries
 * remote changes makes Yjs clean up the formatting of every changed text that gained a formatting
 * item: a walk over the whole text that copies a Map per item, the largest single allocation of a
 * suggesting editor's keystroke. The document does that clean-up when it takes the update, and its
 * result (deletions of redundant formatting items, if any) reaches the shadow as a change from
 * elsewhere, so on the shadow it is repeated work. A redundant formatting item changes no text and no
 * attribute the checks read (`toDelta` gives the same delta). The one other thing Yjs does for a remote
 * transaction, dropping the search markers of changed lists and texts (their cached positions may be
 * stale), is done here.
 *
 * With `insertions`, also tells what the update typed when typing is all it did (`textInsertions`,
 * decision 0082; read inside the transaction, before Yjs merges the new items into older ones).
 */
export function applyToShadow(
  shadow: Y.Doc,
  update: Uint8Array,
  options: { insertions?: boolean } = {},
): { changed: ChangedType[]; insertions?: InsertedRun[] | null } {
  let changed: ChangedType[] = [];
  let insertions: InsertedRun[] | null | undefined;
  shadow.transact((tr) => {
    Y.applyUpdate(shadow, update); // joins this transaction, and marks it remote
    changed = [...tr.changed.keys()];
    markLocal(tr);
    if (options.insertions) insertions = textInsertions(tr, shadow);
  });
  return { changed, insertions };
}

/**
 * Applies an update the shadow accepted (or one from another process) to the document itself, without
 * Yjs's whole-text formatting walk when the update deletes nothing (decision 0083). That walk, run after
 * every remote transaction that inserts a formatting item (every suggestion keystroke), cleans only the
 * formatting items before a text's first character in Yjs 13.6 (see 0078), and every client runs the
 * same clean-up on its own copy and sends what it deletes. An update that deletes keeps Yjs's clean-up
 * as it is (the contextless clean-up after deletions does remove items). So does one that carries the
 * document's own client id: Yjs then gives the document a new one, so that the server's own edits
 * (`SERVER_EDIT`) never reuse a clock a client has used.
 */
export function applyToDocument(doc: Y.Doc, update: Uint8Array, origin: unknown): void {
  doc.transact((tr) => {
    Y.applyUpdate(doc, update); // joins this transaction, and marks it remote
    if (tr.deleteSet.clients.size > 0) return;
    if (Y.getState(doc.store, doc.clientID) !== (tr.beforeState.get(doc.clientID) ?? 0)) return;
    markLocal(tr);
  }, origin);
}

/**
 * Marks a transaction that applied an update local, so Yjs skips its formatting clean-up, and does the
 * one other thing Yjs does for a remote transaction: drops the search markers (cached index positions)
 * of the lists and texts it changed, which may be stale.
 */
function markLocal(tr: Y.Transaction): void {
  for (const type of tr.changed.keys()) if (type._searchMarker) type._searchMarker.length = 0;
  tr.local = true;
}
