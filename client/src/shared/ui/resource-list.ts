/** Pure rules of `ResourceListPage` (kept apart so they can be unit-tested without a DOM). */

/** What an empty list says: one text when nothing exists, another when the search found nothing. */
export interface EmptyText<Node> {
  none: Node;
  search?: Node;
}

export function emptyMessage<Node>(empty: EmptyText<Node>, search: string): Node {
  return search.trim() && empty.search !== undefined ? empty.search : empty.none;
}

/**
 * Whether a key press opens the focused row: Enter or Space on the row itself. A key pressed on a
 * control inside the row (a link, a Claim button) belongs to that control.
 */
export function opensRow(event: { key: string; target: unknown; currentTarget: unknown }): boolean {
  return event.target === event.currentTarget && (event.key === 'Enter' || event.key === ' ');
}

/** A stable text for an object of filters, so a change of any filter sends the list back to page 1. */
export function filtersKey(filters: object | undefined): string {
  if (!filters) return '';
  return JSON.stringify(
    Object.entries(filters)
      .filter(([, value]) => value !== undefined)
      .sort(([a], [b]) => a.localeCompare(b)),
  );
}
