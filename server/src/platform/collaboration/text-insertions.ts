import * as Y from 'yjs';

/** Characters one update inserted into a text (one Yjs item), with the formatting they carry. */
export interface InsertedRun {
  /** The text they are in (a text that existed before the update). */
  text: Y.XmlText;
  /** Their formatting attributes as `toDelta` gives them (attribute name to value). */
  attributes: Readonly<Record<string, unknown>>;
  /** Nothing visible comes before them in `text`. */
  first: boolean;
  /** Nothing visible comes after them in `text`. */
  last: boolean;
}

/**
 * What one update did when all it did was type (decision 0082): the characters it inserted into texts
 * that existed before it, or null when it did anything else — deleted anything that was there, added
 * anything but characters and formatting marks (an element, an embed, a new text, an attribute of a
 * type), changed the formatting of a character that was there, or left structs waiting for others.
 * An empty list: it changed nothing visible (it only added formatting marks that were there already,
 * or things it deleted itself).
 *
 * Call it inside the transaction that applied the update, after `applyUpdate` and before the
 * transaction ends: Yjs merges adjacent items of one client when a transaction ends, and a character
 * typed after one's own earlier text would then be part of an item that was there before. `new`
 * below means an item of a clock at or past the transaction's `beforeState`.
 *
 * Each changed text is walked once, keeping the formatting in force as `toDelta` does (a format item
 * sets or, with null, clears its attribute for what follows), and for each attribute a new format
 * item set, the value it had at that point before the update. A character that was there must see
 * the same value in both, compared by JSON as the report checks compare marks.
 */
export function textInsertions(tr: Y.Transaction, doc: Y.Doc): InsertedRun[] | null {
  const store = doc.store;
  if (store.pendingStructs !== null || store.pendingDs !== null) return null;
  const before = tr.beforeState;
  const clockBefore = (client: number) => before.get(client) ?? 0;
  // Nothing that was there was deleted (what the update inserted and deleted itself is invisible).
  for (const [client, deletes] of tr.deleteSet.clients)
    for (const d of deletes) if (d.clock < clockBefore(client)) return null;
  const changed: ReadonlyMap<unknown, unknown> = tr.changed;
  // Every new struct is a character run, a formatting mark or deleted content, in a text that was there.
  const texts = new Set<Y.XmlText>();
  /** The update's items (a keystroke's are one or a few). */
  const added = new Set<Y.Item>();
  for (const [client, structs] of store.clients) {
    const from = clockBefore(client);
    const last = structs[structs.length - 1];
    if (!last || last.id.clock + last.length <= from) continue;
    for (let i = Y.findIndexSS(structs, from); i < structs.length; i++) {
      const item = structs[i]!;
      if (!(item instanceof Y.Item) || item.parentSub !== null) return null;
      const c = item.content;
      if (!(c instanceof Y.ContentString || c instanceof Y.ContentFormat || c instanceof Y.ContentDeleted))
        return null;
      const parent = item.parent;
      if (!(parent instanceof Y.XmlText) || !changed.has(parent)) return null;
      texts.add(parent);
      added.add(item);
    }
  }
  for (const type of tr.changed.keys()) if (!(type instanceof Y.XmlText) || !texts.has(type)) return null;
  const runs: InsertedRun[] = [];
  for (const text of texts) if (!walk(text, added, runs)) return null;
  return runs;
}

/**
 * Adds the text's new visible characters to `runs`; false when a character that was there changed.
 * `added` holds the update's items: told apart by identity, since reading each item's id on the walk
 * costs more than the set.
 */
function walk(text: Y.XmlText, added: ReadonlySet<Y.Item>, runs: InsertedRun[]): boolean {
  const after = new Map<string, unknown>();
  // For each attribute a new formatting mark set, its value before the update at this point of the
  // walk (undefined: not set); an attribute leaves when a mark that was there sets it again for both.
  const overridden = new Map<string, unknown>();
  let visibleSeen = false;
  let lastRun: InsertedRun | null = null;
  for (let n = text._start; n !== null; n = n.right) {
    if (n.deleted) continue;
    const c = n.content;
    const isNew = added.has(n);
    if (c instanceof Y.ContentFormat) {
      if (isNew) {
        if (!overridden.has(c.key)) overridden.set(c.key, after.get(c.key));
      } else overridden.delete(c.key);
      applyFormat(after, c);
      continue;
    }
    // `toDelta` gives characters and embeds; the report's text keeps the characters only, so only
    // characters count as something before or after a run.
    const characters = c instanceof Y.ContentString && c.str !== '';
    if (isNew) {
      // Only characters are new here (textInsertions refused anything else).
      lastRun = { text, attributes: Object.fromEntries(after), first: !visibleSeen, last: false };
      runs.push(lastRun);
    } else {
      if (overridden.size > 0)
        for (const [key, was] of overridden) if (!sameJson(after.get(key), was)) return false;
      if (characters) lastRun = null;
    }
    if (characters) visibleSeen = true;
  }
  if (lastRun) lastRun.last = true;
  return true;
}

/** The formatting in force after a format item, as `toDelta` keeps it: null clears the attribute. */
export function applyFormat(attributes: Map<string, unknown>, format: Y.ContentFormat): void {
  if (format.value === null) attributes.delete(format.key);
  else attributes.set(format.key, format.value);
}

const sameJson = (a: unknown, b: unknown) =>
  a === b || (a !== undefined && b !== undefined && JSON.stringify(a) === JSON.stringify(b));
