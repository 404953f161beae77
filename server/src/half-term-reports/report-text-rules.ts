import * as Y from 'yjs';
import {
  checkSuggestOnly,
  keepsSections,
  plainText,
  reportContentOf,
  suggestionAuthor,
  type ContentNode,
} from '@portal/projections';
import type { UpdateCheck } from '../platform/collaboration/document-kinds.js';
import { applyFormat, type InsertedRun } from '../platform/collaboration/text-insertions.js';

/**
 * The server's rule for one update to a report's text (decision 0060): nobody deletes, retitles or
 * moves a template section; a suggest-only connection keeps the text as it is but for suggestions
 * under its own id and resolving suggestions.
 */
export function validateReportUpdate(
  check: UpdateCheck,
  contents: { before: ContentNode; after: ContentNode } = {
    before: reportContentOf(check.before),
    after: reportContentOf(check.after),
  },
  /** The caller knows the update keeps the sections (decision 0071). */
  known: { sectionsKept?: boolean } = {},
): string | null {
  const { before, after } = contents;
  if (check.suggestOnly) {
    const verdict = checkSuggestOnly(before, after, check.actor.userId, known);
    return verdict.ok ? null : verdict.reason;
  }
  return known.sectionsKept || keepsSections(before, after) ? null : 'sections';
}

/** What changed between two texts, as plain text: the differing middle after a common prefix and suffix. */
export function textChange(before: ContentNode, after: ContentNode): { removed: string; inserted: string } {
  const a = plainText(before);
  const b = plainText(after);
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let end = 0;
  while (end < a.length - start && end < b.length - start && a[a.length - 1 - end] === b[b.length - 1 - end])
    end++;
  let removed = a.slice(start, a.length - end);
  let inserted = b.slice(start, b.length - end);
  // A pure insertion or removal is ambiguous by where it starts: shift it left to a word start
  // ("now." + " Typed more." reads " Typed more.", not "Typed more. ").
  while (start > 0 && (removed === '' || inserted === '')) {
    const moved = removed || inserted;
    if (/^\s/.test(moved) || moved.at(-1) !== a[start - 1]) break;
    const shifted = a[start - 1]! + moved.slice(0, -1);
    if (removed) removed = shifted;
    else inserted = shifted;
    start--;
  }
  return { removed, inserted };
}

/**
 * A suggest-only keystroke the suggest-only check would accept, told from what the update typed
 * (decision 0082) without converting the text: every character it inserted went into a top-level
 * paragraph as an insertion suggestion of the user's own (no deletion or formatting suggestion on
 * it), nothing that was there changed (`textInsertions`), and no text it put at a paragraph's start or
 * end meets an insertion suggestion across the paragraph's edge (rejecting every suggestion joins
 * such blocks; the full check looks at that). The caller knows the update keeps the template
 * sections. False means "not known": the full check runs.
 */
export function typedOwnSuggestion(
  runs: readonly InsertedRun[],
  userId: string,
  root: Y.XmlFragment,
): boolean {
  if (runs.length === 0) return false;
  for (const run of runs) {
    const block = run.text.parent;
    if (!(block instanceof Y.XmlElement) || block.nodeName !== 'paragraph' || block.parent !== root)
      return false;
    const { insertion } = run.attributes;
    if ('deletion' in run.attributes || 'modification' in run.attributes) return false;
    if (typeof insertion !== 'object' || insertion === null) return false;
    const id = (insertion as { id?: unknown }).id;
    if (typeof id !== 'string' || suggestionAuthor(id) !== userId) return false;
    if (run.first && !edgeFreeOfInsertion(block.prevSibling, 'last')) return false;
    if (run.last && !edgeFreeOfInsertion(block.nextSibling, 'first')) return false;
  }
  return true;
}

/**
 * Whether a block next to a paragraph cannot be joined to it by rejecting suggestions: it is no text
 * block (or absent or empty), or its inline content on the side facing the paragraph carries no
 * insertion suggestion. False also when that is not simple to tell (the full check then decides).
 */
function edgeFreeOfInsertion(block: Y.XmlElement | Y.XmlText | null, side: 'first' | 'last'): boolean {
  if (block === null) return true;
  if (!(block instanceof Y.XmlElement)) return false;
  const children = block.toArray();
  const textblock = children.every(
    (c) => c instanceof Y.XmlText || (c instanceof Y.XmlElement && c.nodeName === 'hardBreak'),
  );
  if (!textblock || children.length === 0) return true;
  const edge = side === 'first' ? children[0] : children[children.length - 1];
  if (!(edge instanceof Y.XmlText)) return false;
  const attributes = new Map<string, unknown>();
  let found: boolean | null = null;
  for (let n = edge._start; n !== null; n = n.right) {
    if (n.deleted) continue;
    const c = n.content;
    if (c instanceof Y.ContentFormat) {
      applyFormat(attributes, c);
      continue;
    }
    // The text's inline nodes are its non-empty character runs (`reportContentOf` leaves out embeds).
    if (!(c instanceof Y.ContentString) || c.str === '') continue;
    found = attributes.has('insertion');
    if (side === 'first') break;
  }
  return found === false;
}
