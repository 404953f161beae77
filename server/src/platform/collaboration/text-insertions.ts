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
 * the same value in both, compared by JSON as the report checks compare marks. The walk starts at
 * the update's items and ends when nothing more can change (decision 0084): the formatting in force
 * there is found by looking back only as far as the keys the text's marks have set require
 * (`formatKeysOf`); a text seen for the first time, or an update whose items lie apart, is walked
 * from its beginning. `fullWalk` always walks from the beginning (tests compare the two).
 */
export function textInsertions(
  tr: Y.Transaction,
  doc: Y.Doc,
  options: { fullWalk?: boolean } = {},
): InsertedRun[] | null {
  const store = doc.store;
  if (store.pendingStructs !== null || store.pendingDs !== null) return null;
  const before = tr.beforeState;
  const clockBefore = (client: number) => before.get(client) ?? 0;
  // Nothing that was there was deleted (what the update inserted and deleted itself is invisible).
  for (const [client, deletes] of tr.deleteSet.clients)
    for (const d of deletes) if (d.clock < clockBefore(client)) return null;
  const changed: ReadonlyMap<unknown, unknown> = tr.changed;
  // Every new struct is a character run, a formatting mark or deleted content, in a text that was there.
  /** Each changed text with one of the update's items in it and how many it has. */
  const texts = new Map<Y.XmlText, { one: Y.Item; count: number }>();
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
      const seen = texts.get(parent);
      if (seen) seen.count++;
      else texts.set(parent, { one: item, count: 1 });
      added.add(item);
    }
  }
  for (const type of tr.changed.keys()) if (!(type instanceof Y.XmlText) || !texts.has(type)) return null;
  const keys = options.fullWalk ? null : formatKeysOf(doc);
  const runs: InsertedRun[] = [];
  for (const [text, { one, count }] of texts) {
    const known = keys?.get(text);
    const start = known && startBefore(one, added, known);
    const walked = start ? walk(text, added, start, count) : null;
    if (walked === false) return null;
    if (walked) {
      walkCounts.near++;
      runs.push(...walked);
    } else {
      if (keys) walkCounts.whole++;
      // No keys known yet for this text, or one of the update's items lies further back: from the start.
      const found = new Set<string>();
      const whole = walk(
        text,
        added,
        { item: text._start, attributes: new Map(), visibleSeen: false },
        count,
        found,
      );
      if (!whole) return null;
      runs.push(...whole);
      keys?.set(text, found);
    }
  }
  return runs;
}

/** How many texts were walked from near the update's items and how many from their start (tests, profiling). */
export const walkCounts = { near: 0, whole: 0 };

/**
 * For each text of a document, every formatting key a mark in it has set since it was first walked
 * whole: a superset of the keys of the text's marks, which tells how far back the formatting in force
 * at a point has to be looked for. Kept up to date after every transaction on the document (one
 * listener per document, reading only the transaction's new items).
 */
const formatKeys = new WeakMap<Y.Doc, WeakMap<Y.XmlText, Set<string>>>();

function formatKeysOf(doc: Y.Doc): WeakMap<Y.XmlText, Set<string>> {
  const known = formatKeys.get(doc);
  if (known) return known;
  const byText = new WeakMap<Y.XmlText, Set<string>>();
  formatKeys.set(doc, byText);
  doc.on('afterTransaction', (tr: Y.Transaction) => {
    for (const [client, clock] of tr.afterState) {
      const from = tr.beforeState.get(client) ?? 0;
      if (clock <= from) continue;
      const structs = doc.store.clients.get(client)!;
      for (let i = Y.findIndexSS(structs, from); i < structs.length; i++) {
        const item = structs[i]!;
        if (!(item instanceof Y.Item) || !(item.content instanceof Y.ContentFormat)) continue;
        if (item.parent instanceof Y.XmlText) byText.get(item.parent)?.add(item.content.key);
      }
    }
  });
  return byText;
}

/** Where a walk starts: at `item`, with the formatting in force there and whether a character comes before. */
interface WalkStart {
  item: Y.Item | null;
  attributes: Map<string, unknown>;
  visibleSeen: boolean;
}

/**
 * The start of a walk that sees every one of the update's items in a text without walking the text
 * from its beginning: the leftmost of the update's items reached from `one` over the update's items and
 * deleted items, with the formatting in force there, found by looking back from it until every key
 * the text's marks may set has its nearest mark and a character has been seen (or the text begins).
 * Null when the look back meets one of the update's items (the walk then starts at the beginning; a
 * walk that meets fewer items than the update put in the text does too).
 */
function startBefore(one: Y.Item, added: ReadonlySet<Y.Item>, keys: ReadonlySet<string>): WalkStart | null {
  let item = one;
  while (item.left !== null && (added.has(item.left) || item.left.deleted)) item = item.left;
  const found = new Map<string, unknown>();
  let visibleSeen = false;
  for (let n = item.left; n !== null; n = n.left) {
    if (added.has(n)) return null;
    if (n.deleted) continue;
    const c = n.content;
    if (c instanceof Y.ContentFormat) {
      if (!found.has(c.key)) found.set(c.key, c.value);
    } else if (c instanceof Y.ContentString && c.str !== '') visibleSeen = true;
    if (visibleSeen && found.size >= keys.size && [...keys].every((k) => found.has(k))) break;
  }
  const attributes = new Map<string, unknown>();
  for (const [key, value] of found) if (value !== null) attributes.set(key, value);
  return { item, attributes, visibleSeen };
}

/**
 * The text's new visible characters from `start` on (false when a character that was there changed,
 * null when fewer than `count` of the update's items were met: some lie before the start).
 * `added` holds the update's items: told apart by identity, since reading each item's id on the walk
 * costs more than the set. The walk ends once it has met all `count`, no new mark's attribute is still
 * to be compared and the last run's `last` is known. `keys`, when given, collects every key set by a
 * mark on the way (a walk from the beginning).
 */
function walk(
  text: Y.XmlText,
  added: ReadonlySet<Y.Item>,
  start: WalkStart,
  count: number,
  keys?: Set<string>,
): InsertedRun[] | false | null {
  const runs: InsertedRun[] = [];
  const after = start.attributes;
  // For each attribute a new formatting mark set, its value before the update at this point of the
  // walk (undefined: not set); an attribute leaves when a mark that was there sets it again for both.
  const overridden = new Map<string, unknown>();
  let visibleSeen = start.visibleSeen;
  let lastRun: InsertedRun | null = null;
  let met = 0;
  for (let n = start.item; n !== null; n = n.right) {
    const isNew = added.has(n);
    if (isNew) met++;
    else if (met === count && overridden.size === 0 && lastRun === null && !keys) return runs;
    if (n.deleted) continue;
    const c = n.content;
    if (c instanceof Y.ContentFormat) {
      keys?.add(c.key);
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
  if (met < count) return null;
  if (lastRun) lastRun.last = true;
  return runs;
}

/** The formatting in force after a format item, as `toDelta` keeps it: null clears the attribute. */
export function applyFormat(attributes: Map<string, unknown>, format: Y.ContentFormat): void {
  if (format.value === null) attributes.delete(format.key);
  else attributes.set(format.key, format.value);
}

const sameJson = (a: unknown, b: unknown) =>
  a === b || (a !== undefined && b !== undefined && JSON.stringify(a) === JSON.stringify(b));
