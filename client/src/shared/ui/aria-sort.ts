import { useEffect, useRef } from 'react';

/**
 * `aria-sort` for a header cell, from the labels of the icons in it: mantine-datatable draws a
 * "Sorted ascending" / "Sorted descending" / "Not sorted" icon in sortable columns (null: not sortable).
 */
export function ariaSortOf(iconLabels: string[]): 'ascending' | 'descending' | 'none' | null {
  if (iconLabels.includes('Sorted descending')) return 'descending';
  if (iconLabels.includes('Sorted ascending')) return 'ascending';
  return iconLabels.includes('Not sorted') ? 'none' : null;
}

/**
 * Gives a sortable table's header cells `aria-sort` (issue 18 item 7), which mantine-datatable leaves out:
 * a screen reader then says which column the list is sorted by. Put the ref on an element around the
 * table; the cells follow every change of the sort.
 */
export function useAriaSort<E extends HTMLElement>() {
  const ref = useRef<E>(null);
  useEffect(() => {
    const root = ref.current;
    if (!root) return;
    const mark = () => {
      for (const header of root.querySelectorAll('th')) {
        const labels = [...header.querySelectorAll('[aria-label]')].map((e) => e.getAttribute('aria-label')!);
        const sort = ariaSortOf(labels);
        if (sort === null) {
          header.removeAttribute('aria-sort');
          continue;
        }
        // mantine-datatable makes a sortable cell role="button", where aria-sort is not allowed: it stays
        // a column header (still focusable, Enter sorts), and aria-sort says how it is sorted.
        if (header.getAttribute('role') !== 'columnheader') header.setAttribute('role', 'columnheader');
        if (header.getAttribute('aria-sort') !== sort) header.setAttribute('aria-sort', sort);
      }
    };
    mark();
    const observer = new MutationObserver(mark);
    observer.observe(root, { subtree: true, childList: true, attributeFilter: ['aria-label'] });
    return () => observer.disconnect();
  }, []);
  return ref;
}
