import { FACT_BLOCK, REPORT_SECTIONS, canonicalJson, type ContentNode } from './report-content.js';

/**
 * Suggestions in a report's text (decision 0060), on the ProseMirror-shaped JSON `reportContentOf`
 * builds, shared by the server (the suggest-only check, the suggestion events) and the browser (the
 * suggestion cards). The editor marks suggestions with `@handlewithcare/prosemirror-suggest-changes`:
 * inline marks `insertion` and `deletion` with one attr `id`, and zero-width spaces (U+200B) carrying
 * the mark where a suggestion starts or ends a block (a paragraph split, a join). An id is
 * `u{userId}.{nonce}.{n}`: its author is the prefix. Accepting an insertion keeps its text unmarked,
 * rejecting it drops the text; accepting a deletion drops the text, rejecting it keeps the text
 * unmarked. A block whose last text and the next block's first text carry the same dropped
 * suggestion are joined, as the library's commands do.
 */

export const SUGGESTION_MARKS = ['insertion', 'deletion', 'modification'] as const;
export type SuggestionMark = (typeof SUGGESTION_MARKS)[number];

const ZWSP = '\u200B';

/** One suggestion (all text under one id): who made it and what it inserts and deletes. */
export interface Suggestion {
  id: string;
  /** The user id from the id's `u{userId}` prefix (null: an id without one). */
  authorId: string | null;
  inserted: string;
  deleted: string;
}

const PALETTE = [
  '#e03131',
  '#c2255c',
  '#9c36b5',
  '#6741d9',
  '#3b5bdb',
  '#1971c2',
  '#0c8599',
  '#099268',
  '#2f9e44',
  '#e8590c',
];

/** A stable colour per user: the collaboration server's cursor colour and a suggestion's colour. */
export function colourFor(userId: string): string {
  let h = 0;
  for (const c of userId) h = (h * 31 + c.charCodeAt(0)) >>> 0;
  return PALETTE[h % PALETTE.length]!;
}

/** A new suggestion id for `userId`: `u{userId}.{nonce}.{n}`. */
export const suggestionId = (userId: string, nonce: string, n: number) => `u${userId}.${nonce}.${n}`;

/** The author (user id) of a suggestion id, or null. */
export function suggestionAuthor(id: string): string | null {
  const m = /^u([^.]+)\./.exec(id);
  return m ? m[1]! : null;
}

type Mark = NonNullable<ContentNode['marks']>[number];

const suggestionMarkOf = (node: ContentNode): { type: SuggestionMark; id: string } | null => {
  for (const m of node.marks ?? [])
    if ((SUGGESTION_MARKS as readonly string[]).includes(m.type))
      return { type: m.type as SuggestionMark, id: typeof m.attrs?.id === 'string' ? m.attrs.id : '' };
  return null;
};

/**
 * Results per top-level block, by the block's object (decision 0071): the server's `ReportContentCache`
 * hands out the same object for a block until it changes, so a check after typing in one paragraph
 * computes that paragraph's part only. Each is a pure function of the block; the whole-text functions
 * assemble them exactly as a walk over the whole text would.
 */
const blockSuggestions = new WeakMap<ContentNode, Suggestion[]>();
const blockBaseline = new WeakMap<ContentNode, ContentNode>();
const blockAccepted = new WeakMap<ContentNode, ContentNode>();
const blockNormalJson = new WeakMap<ContentNode, string>();
const blockModification = new WeakMap<ContentNode, boolean>();

function memo<T>(cache: WeakMap<ContentNode, T>, node: ContentNode, make: (node: ContentNode) => T): T {
  let value = cache.get(node);
  if (value === undefined) {
    value = make(node);
    cache.set(node, value);
  }
  return value;
}

/** Every suggestion of the text, in document order. */
export function suggestionsIn(content: ContentNode): Suggestion[] {
  if (content.type === 'text') return suggestionsWalked(content);
  // Per top-level block, merged in order: first appearance decides the order, texts concatenate.
  const found = new Map<string, Suggestion>();
  for (const block of content.content ?? [])
    for (const part of memo(blockSuggestions, block, suggestionsWalked)) {
      const s = found.get(part.id);
      if (!s) found.set(part.id, { ...part });
      else {
        s.inserted += part.inserted;
        s.deleted += part.deleted;
      }
    }
  return [...found.values()];
}

function suggestionsWalked(content: ContentNode): Suggestion[] {
  const found = new Map<string, Suggestion>();
  const walk = (node: ContentNode) => {
    if (node.type === 'text') {
      const mark = suggestionMarkOf(node);
      if (!mark) return;
      let s = found.get(mark.id);
      if (!s) {
        s = { id: mark.id, authorId: suggestionAuthor(mark.id), inserted: '', deleted: '' };
        found.set(mark.id, s);
      }
      const text = (node.text ?? '').replaceAll(ZWSP, '');
      if (mark.type === 'insertion') s.inserted += text;
      else if (mark.type === 'deletion') s.deleted += text;
      return;
    }
    for (const child of node.content ?? []) walk(child);
  };
  walk(content);
  return [...found.values()];
}

/** The number of unresolved suggestions. */
export const unresolvedSuggestions = (content: ContentNode) => suggestionsIn(content).length;

/** What happens to one suggestion: kept as it is, accepted or rejected. */
export type Resolution = 'keep' | 'accept' | 'reject';

const isTextblock = (node: ContentNode) =>
  node.type !== 'text' && (node.content ?? []).every((c) => c.type === 'text' || c.type === 'hardBreak');

/**
 * The text with suggestions resolved as `decide` says (per mark type and id): `keep` leaves one as it
 * is. Zero-width markers of a resolved suggestion go, and blocks a dropped suggestion spans are joined.
 */
export function resolveSuggestions(content: ContentNode, decide: (id: string) => Resolution): ContentNode {
  return resolved(content, decide, null);
}

/** `resolveSuggestions`; `topLevel` keeps the top-level blocks' results (only for a `decide` that never changes). */
function resolved(
  content: ContentNode,
  decide: (id: string) => Resolution,
  topLevel: WeakMap<ContentNode, ContentNode> | null,
): ContentNode {
  // Whether a marked text node is dropped (its text removed) when resolved.
  const outcome = (node: ContentNode): 'drop' | 'unmark' | null => {
    const mark = suggestionMarkOf(node);
    if (!mark || mark.type === 'modification') return null;
    const d = decide(mark.id);
    if (d === 'keep') return null;
    const drop = (mark.type === 'insertion') === (d === 'reject');
    return drop ? 'drop' : 'unmark';
  };
  const inline = (nodes: ContentNode[]): ContentNode[] => {
    const out: ContentNode[] = [];
    for (const node of nodes) {
      if (node.type !== 'text') {
        out.push(node);
        continue;
      }
      const o = outcome(node);
      if (o === 'drop') continue;
      if (o === 'unmark') {
        const text = (node.text ?? '').replaceAll(ZWSP, '');
        if (!text) continue;
        const marks = (node.marks ?? []).filter(
          (m) => !(SUGGESTION_MARKS as readonly string[]).includes(m.type),
        );
        out.push(marks.length ? { type: 'text', text, marks } : { type: 'text', text });
        continue;
      }
      out.push(node);
    }
    return out;
  };
  const block = (node: ContentNode): ContentNode => {
    if (node.type === 'text') return node;
    const children = node.content ?? [];
    if (isTextblock(node)) return withContent(node, inline(children));
    const out: ContentNode[] = [];
    let joinNext = false;
    for (const child of children) {
      const first = child.content?.[0];
      const last = child.content?.at(-1);
      const done = topLevel && node === content ? memo(topLevel, child, block) : block(child);
      const prev = out.at(-1);
      if (joinNext && prev && isTextblock(child) && first && outcome(first) === 'drop')
        out[out.length - 1] = withContent(prev, [...(prev.content ?? []), ...(done.content ?? [])]);
      else out.push(done);
      joinNext =
        isTextblock(child) &&
        last !== undefined &&
        outcome(last) === 'drop' &&
        sameSuggestion(last, child, children);
    }
    return withContent(node, out);
  };
  // A trailing dropped suggestion joins only with a next block that starts with the same suggestion.
  const sameSuggestion = (last: ContentNode, child: ContentNode, siblings: ContentNode[]) => {
    const next = siblings[siblings.indexOf(child) + 1]?.content?.[0];
    const a = suggestionMarkOf(last);
    const b = next ? suggestionMarkOf(next) : null;
    return a !== null && b !== null && a.type === b.type && a.id === b.id;
  };
  return block(content);
}

function withContent(node: ContentNode, content: ContentNode[]): ContentNode {
  const { content: _old, ...rest } = node;
  return content.length ? { ...rest, content } : rest;
}

/** The text with every suggestion rejected: what stands without the reviewers' proposals. */
export const baselineOf = (content: ContentNode) => resolved(content, () => 'reject', blockBaseline);

/** The text with every suggestion accepted. */
export const acceptedOf = (content: ContentNode) => resolved(content, () => 'accept', blockAccepted);

const sameMarks = (a: Mark[] | undefined, b: Mark[] | undefined) =>
  JSON.stringify(a ?? []) === JSON.stringify(b ?? []);

/**
 * The text in a comparable form: adjacent text nodes with the same marks merged, zero-width spaces
 * dropped, runs of spaces collapsed (the library's reject also removes one of two spaces it leaves
 * side by side), empty text nodes dropped.
 */
export function normalizedText(node: ContentNode): ContentNode {
  if (node.type === 'text') return node;
  const out: ContentNode[] = [];
  for (const child of node.content ?? []) {
    if (child.type !== 'text') {
      out.push(normalizedText(child));
      continue;
    }
    const prev = out.at(-1);
    if (prev?.type === 'text' && sameMarks(prev.marks, child.marks))
      out[out.length - 1] = { ...prev, text: (prev.text ?? '') + (child.text ?? '') };
    else out.push({ ...child });
  }
  const cleaned = out
    .map((c) =>
      c.type === 'text' ? { ...c, text: (c.text ?? '').replaceAll(ZWSP, '').replace(/ {2,}/g, ' ') } : c,
    )
    .filter((c) => c.type !== 'text' || c.text !== '');
  return withContent(node, cleaned);
}

/**
 * `JSON.stringify(normalizedText(a)) === JSON.stringify(normalizedText(b))`. A text whose top level
 * holds blocks only normalizes block by block, so its JSON is its own members' and its blocks' JSON in
 * order (each block's memoized).
 */
function same(a: ContentNode, b: ContentNode): boolean {
  const blocksOnly = (n: ContentNode) =>
    n.type !== 'text' && (n.content ?? []).every((c) => c.type !== 'text');
  if (!blocksOnly(a) || !blocksOnly(b))
    return JSON.stringify(normalizedText(a)) === JSON.stringify(normalizedText(b));
  const ca = a.content ?? [];
  const cb = b.content ?? [];
  if (ca.length !== cb.length) return false;
  const { content: _a, ...restA } = a;
  const { content: _b, ...restB } = b;
  if (JSON.stringify(restA) !== JSON.stringify(restB)) return false;
  const json = (n: ContentNode) => JSON.stringify(normalizedText(n));
  return ca.every(
    (x, i) => x === cb[i] || memo(blockNormalJson, x, json) === memo(blockNormalJson, cb[i]!, json),
  );
}

const textOf = (n: ContentNode): string =>
  (n.text ?? '').replaceAll(ZWSP, '') + (n.content ?? []).map(textOf).join('');

/** The template headings of the text, in order (top-level headings titled like a template section). */
export function templateHeadings(content: ContentNode): string[] {
  const titles = new Set(REPORT_SECTIONS.map((s) => s.title));
  return (content.content ?? [])
    .filter((b) => b.type === 'heading' && titles.has(textOf(b).trim()))
    .map((b) => textOf(b).trim());
}

/** The fact blocks (decision 0068) as one string: an editor may neither delete nor change them. */
const factBlocksOf = (content: ContentNode) =>
  canonicalJson((content.content ?? []).filter((b) => b.type === FACT_BLOCK).map((b) => b.attrs ?? {}));

/**
 * Whether an update keeps the template sections (and the fact blocks): the template headings, in order, with every
 * suggestion rejected and with every suggestion accepted, are those of before (nothing to keep when
 * before had none).
 */
export function keepsSections(before: ContentNode, after: ContentNode): boolean {
  if (factBlocksOf(before) !== factBlocksOf(after)) return false;
  const was = templateHeadings(baselineOf(before));
  if (was.length === 0) return true;
  const key = was.join('\n');
  return (
    templateHeadings(baselineOf(after)).join('\n') === key &&
    templateHeadings(acceptedOf(after)).join('\n') === key
  );
}

/**
 * Whether the text has template sections and keeps them with every suggestion accepted as with every
 * suggestion rejected. Every update `keepsSections` accepts leaves a text that holds them, when the
 * text before held them; `sectionsUntouchedBy` uses that to skip the full check (decision 0071).
 */
export function holdsTemplateSections(content: ContentNode): boolean {
  const baseline = templateHeadings(baselineOf(content));
  return baseline.length > 0 && templateHeadings(acceptedOf(content)).join('\n') === baseline.join('\n');
}

export type SuggestOnlyCheck =
  | { ok: true; resolved: { id: string; accepted: boolean }[] }
  | { ok: false; reason: 'direct_edit' | 'foreign_suggestion' | 'formatting' | 'sections' };

/** At most this many suggestions resolved in one update are told apart (2^n combinations). */
const MAX_RESOLVED = 8;

/** Two attribute objects alike as the full check compares them (their JSON). */
const sameJson = (a: unknown, b: unknown) => a === b || JSON.stringify(a) === JSON.stringify(b);

/** Two inline nodes alike: type, text, attributes and marks (in order), by their JSON. */
function sameInline(a: ContentNode, b: ContentNode): boolean {
  if (a === b) return true;
  if (a.type !== b.type || a.text !== b.text || a.content || b.content) return false;
  return sameJson(a.attrs, b.attrs) && sameMarks(a.marks, b.marks);
}

/** The id of a text node's one suggestion mark when it is an insertion (and no deletion or modification). */
function insertionIdOf(node: ContentNode): string | null {
  if (node.type !== 'text') return null;
  let id: string | null = null;
  for (const m of node.marks ?? []) {
    if (m.type === 'deletion' || m.type === 'modification') return null;
    if (m.type === 'insertion') id = typeof m.attrs?.id === 'string' ? m.attrs.id : '';
  }
  return id;
}

/** One character of a text node, or a whole non-text inline node (`ch` null). */
interface Unit {
  node: ContentNode;
  ch: string | null;
}

const unitsOf = (nodes: ContentNode[]): Unit[] => {
  const units: Unit[] = [];
  for (const node of nodes)
    if (node.type !== 'text') units.push({ node, ch: null });
    else for (const ch of node.text ?? '') units.push({ node, ch });
  return units;
};

const sameUnit = (a: Unit, b: Unit) =>
  a.ch === null || b.ch === null
    ? a.ch === b.ch && sameInline(a.node, b.node)
    : a.ch === b.ch && sameMarks(a.node.marks, b.node.marks);

/**
 * The differing middle of one block's inline nodes, `was` before and `now` after (the nodes the two
 * have alike at both ends already left out): true when, character by character with their marks, the
 * only difference is text under insertion suggestions (what appeared under the user's own id) and no
 * suggestion that was there is gone (it is still in `now`, or in the node beside it on either side).
 */
function onlyInsertionsBetween(
  was: ContentNode[],
  now: ContentNode[],
  left: ContentNode | undefined,
  right: ContentNode | undefined,
  userId: string,
): boolean {
  const b = unitsOf(was);
  const a = unitsOf(now);
  let lo = 0;
  while (lo < b.length && lo < a.length && sameUnit(b[lo]!, a[lo]!)) lo++;
  let hi = 0;
  while (hi < b.length - lo && hi < a.length - lo && sameUnit(b[b.length - 1 - hi]!, a[a.length - 1 - hi]!))
    hi++;
  for (let k = lo; k < a.length - hi; k++) {
    const u = a[k]!;
    if (u.ch === null) return false;
    const id = insertionIdOf(u.node);
    if (id === null || suggestionAuthor(id) !== userId) return false;
  }
  const present = new Set<string>();
  for (const node of [left, ...now, right]) {
    const id = node ? suggestionMarkOf(node)?.id : undefined;
    if (id !== undefined) present.add(id);
  }
  for (let k = lo; k < b.length - hi; k++) {
    const u = b[k]!;
    if (u.ch === null) return false;
    const id = insertionIdOf(u.node);
    if (id === null || !present.has(id)) return false;
  }
  return true;
}

/**
 * Whether the top-level block `i` is joined to the one before it when every suggestion is rejected
 * (`resolved`'s rule): the block before ends, and this one starts, with text of one suggestion that
 * rejecting drops. Only the blocks' first and last inline nodes matter.
 */
function joinsPrevious(blocks: ContentNode[], i: number): boolean {
  const prev = blocks[i - 1];
  const block = blocks[i]!;
  if (!prev || !isTextblock(prev) || !isTextblock(block)) return false;
  const last = prev.content?.at(-1);
  const first = block.content?.[0];
  if (!last || !first) return false;
  const a = suggestionMarkOf(last);
  const b = suggestionMarkOf(first);
  // Rejecting drops an insertion's text; `modification` is never dropped.
  return a !== null && b !== null && a.type === 'insertion' && b.type === 'insertion' && a.id === b.id;
}

/**
 * The suggest-only check's shortcut for the common keystroke (decision 0079): true when the update
 * only added or removed text that carries an insertion suggestion (every text it added under the
 * user's own id), in paragraphs that stay paragraphs, with no suggestion vanishing and no change to
 * how rejecting every suggestion joins blocks. The full check then answers `{ ok: true, resolved: []
 * }` (the baseline is the same: rejecting drops exactly the text that changed). It compares each
 * changed block's inline nodes from both ends (attributes and marks by their JSON, as the full check
 * compares them) and looks only at the part that differs, where the full check walks every changed
 * paragraph four times and copies it (suggestions, formatting, baseline, normalised JSON). False means "not known": the full check runs.
 * Only for a text whose template sections the update is known to keep (an insertion accepted into a
 * heading would retitle a section).
 */
export function onlyOwnInsertionsChanged(before: ContentNode, after: ContentNode, userId: string): boolean {
  const bs = before.content ?? [];
  const as = after.content ?? [];
  if (before.type !== after.type || bs.length !== as.length || before.text || after.text) return false;
  if (!sameJson(before.attrs, after.attrs) || before.marks || after.marks) return false;
  let changed = false;
  for (let i = 0; i < bs.length; i++) {
    const b = bs[i]!;
    const a = as[i]!;
    if (a === b) continue;
    changed = true;
    if (b.type !== a.type || !isTextblock(b) || !isTextblock(a) || b.marks || a.marks) return false;
    if (!sameJson(b.attrs, a.attrs)) return false;
    const nb = b.content ?? [];
    const na = a.content ?? [];
    let start = 0;
    while (start < nb.length && start < na.length && sameInline(nb[start]!, na[start]!)) start++;
    let end = 0;
    while (
      end < nb.length - start &&
      end < na.length - start &&
      sameInline(nb[nb.length - 1 - end]!, na[na.length - 1 - end]!)
    )
      end++;
    if (
      !onlyInsertionsBetween(
        nb.slice(start, nb.length - end),
        na.slice(start, na.length - end),
        na[start - 1],
        na[na.length - end],
        userId,
      )
    )
      return false;
  }
  if (!changed) return false;
  for (let i = 1; i < bs.length; i++)
    if ((bs[i] !== as[i] || bs[i - 1] !== as[i - 1]) && joinsPrevious(bs, i) !== joinsPrevious(as, i))
      return false;
  return true;
}

/**
 * The suggest-only invariant (brief §3.3): a suggest-only user's update may add suggestions under
 * their own id, edit inside suggestions, and resolve suggestions, but must not change the text
 * otherwise. Allowed when the baseline after equals the baseline before with the vanished suggestions
 * each accepted or rejected; `resolved` says which. Formatting suggestions (`modification`) are refused.
 */
export function checkSuggestOnly(
  before: ContentNode,
  after: ContentNode,
  userId: string,
  /** The caller knows `keepsSections(before, after)` holds (decision 0071: `sectionsUntouchedBy`). */
  known: { sectionsKept?: boolean } = {},
): SuggestOnlyCheck {
  if (!known.sectionsKept && !keepsSections(before, after)) return { ok: false, reason: 'sections' };
  if (known.sectionsKept && onlyOwnInsertionsChanged(before, after, userId))
    return { ok: true, resolved: [] };
  const was = new Map(suggestionsIn(before).map((s) => [s.id, s]));
  const now = suggestionsIn(after);
  const nowIds = new Set(now.map((s) => s.id));
  for (const s of now)
    if (!was.has(s.id) && s.authorId !== userId) return { ok: false, reason: 'foreign_suggestion' };
  if (hasModification(after) && !hasModification(before)) return { ok: false, reason: 'formatting' };
  const target = baselineOf(after);
  const vanished = [...was.keys()].filter((id) => !nowIds.has(id));
  if (vanished.length === 0)
    return same(baselineOf(before), target)
      ? { ok: true, resolved: [] }
      : { ok: false, reason: 'direct_edit' };
  const tried = vanished.slice(0, MAX_RESOLVED);
  for (let combo = 0; combo < 1 << tried.length; combo++) {
    const accepted = new Set(tried.filter((_, i) => (combo >> i) & 1));
    const resolved = resolveSuggestions(before, (id) =>
      accepted.has(id) ? 'accept' : vanished.includes(id) ? 'reject' : 'keep',
    );
    if (same(baselineOf(resolved), target))
      return { ok: true, resolved: vanished.map((id) => ({ id, accepted: accepted.has(id) })) };
  }
  return { ok: false, reason: 'direct_edit' };
}

/** Whether a formatting suggestion (`modification`) is anywhere in the text. */
function hasModification(content: ContentNode): boolean {
  if ((content.marks ?? []).some((m) => m.type === 'modification')) return true;
  return (content.content ?? []).some((block) =>
    memo(blockModification, block, (n) => hasMark(n, 'modification')),
  );
}

/** Plain loops: this runs over every text node of each changed block on every suggest-only check. */
function hasMark(node: ContentNode, type: string): boolean {
  if (node.marks) for (const m of node.marks) if (m.type === type) return true;
  if (node.content) for (const c of node.content) if (hasMark(c, type)) return true;
  return false;
}

/**
 * What changed in the suggestions between two versions of the text: new ones, and vanished ones told
 * apart as accepted or rejected (by comparing the baseline, as the suggest-only check does).
 */
export function suggestionChanges(
  before: ContentNode,
  after: ContentNode,
): { made: Suggestion[]; resolved: (Suggestion & { accepted: boolean })[] } {
  const was = new Map(suggestionsIn(before).map((s) => [s.id, s]));
  const now = suggestionsIn(after);
  const nowIds = new Set(now.map((s) => s.id));
  const made = now.filter((s) => !was.has(s.id));
  const vanished = [...was.values()].filter((s) => !nowIds.has(s.id));
  if (vanished.length === 0) return { made, resolved: [] };
  const target = baselineOf(after);
  const tried = vanished.slice(0, MAX_RESOLVED);
  for (let combo = 0; combo < 1 << tried.length; combo++) {
    const accepted = new Set(tried.filter((_, i) => (combo >> i) & 1).map((s) => s.id));
    const ids = new Set(vanished.map((s) => s.id));
    const resolved = resolveSuggestions(before, (id) =>
      accepted.has(id) ? 'accept' : ids.has(id) ? 'reject' : 'keep',
    );
    if (same(baselineOf(resolved), target))
      return { made, resolved: vanished.map((s) => ({ ...s, accepted: accepted.has(s.id) })) };
  }
  // Someone also edited the text directly: tell accepted from rejected by whether an insertion's text
  // (or a deletion's absence) shows in the text now.
  const text = textOf(after);
  return {
    made,
    resolved: vanished.map((s) => ({
      ...s,
      accepted: s.inserted ? text.includes(s.inserted) : !text.includes(s.deleted),
    })),
  };
}
