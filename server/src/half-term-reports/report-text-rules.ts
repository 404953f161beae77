import {
  checkSuggestOnly,
  keepsSections,
  plainText,
  reportContentOf,
  type ContentNode,
} from '@portal/projections';
import type { UpdateCheck } from '../platform/collaboration/document-kinds.js';

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
