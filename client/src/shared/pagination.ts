/** Spec §9: the pagination control shows 5 page links and 10 items per page by default. */
export const PAGE_LINKS = 5;
export const DEFAULT_PER_PAGE = 10;
export const PER_PAGE_OPTIONS = [10, 20, 50, 100] as const;

export function pageCount(total: number, perPage: number): number {
  return Math.max(1, Math.ceil(total / perPage));
}

/** The page numbers to link: a window of up to `links` pages around `page`, kept inside 1..pages. */
export function pageWindow(page: number, pages: number, links = PAGE_LINKS): number[] {
  const count = Math.min(links, pages);
  let first = page - Math.floor(count / 2);
  first = Math.max(1, Math.min(first, pages - count + 1));
  return Array.from({ length: count }, (_, i) => first + i);
}

/**
 * Spec §5: back to page 1 when the total shrinks below the current page. Returns the page to show
 * (unchanged while it still exists).
 */
export function clampPage(page: number, total: number, perPage: number): number {
  return page > pageCount(total, perPage) ? 1 : page;
}
