import { useCallback, useContext, useMemo, useRef } from 'react';
import { UNSAFE_DataRouterContext, useLocation, useSearchParams } from 'react-router-dom';
import { DEFAULT_PER_PAGE, PER_PAGE_OPTIONS } from '../pagination';

/**
 * A list's state in the address (issue 18 item 8): the search (`q`), the page, the page size (`size`),
 * the sort (`sort`) and the list's own filters live in the URL's query, so they survive Back, reload
 * and a shared link. Values equal to their default are left out of the URL. Changing anything but the
 * page sends the list back to page 1 (spec §5), in the same URL update. Updates replace the history
 * entry: Back leaves the list instead of stepping through every keystroke.
 */
export type ListState<F extends Record<string, string>> = {
  q: string;
  page: number;
  size: number;
  sort: string;
} & F;

export interface ListDefaults<F extends Record<string, string>> {
  sort?: string;
  size?: number;
  /** The list's own filters and their defaults (all strings, as the URL holds them). */
  filters?: F;
}

const positive = (text: string | null, fallback: number, max = 1_000_000): number => {
  const n = Number(text);
  return Number.isInteger(n) && n >= 1 && n <= max ? n : fallback;
};

/** The state a URL query describes; anything missing or malformed falls back to its default. */
export function readListState<F extends Record<string, string>>(
  params: URLSearchParams,
  defaults: ListDefaults<F> = {},
): ListState<F> {
  const filters = { ...(defaults.filters ?? {}) } as Record<string, string>;
  for (const key of Object.keys(filters)) filters[key] = params.get(key) ?? filters[key]!;
  const size = positive(params.get('size'), defaults.size ?? DEFAULT_PER_PAGE);
  return {
    ...(filters as F),
    q: params.get('q') ?? '',
    page: positive(params.get('page'), 1),
    size: (PER_PAGE_OPTIONS as readonly number[]).includes(size) ? size : (defaults.size ?? DEFAULT_PER_PAGE),
    sort: params.get('sort') ?? defaults.sort ?? '',
  };
}

/** The URL query after a change: other keys of the query are kept; defaults are dropped. */
export function writeListState<F extends Record<string, string>>(
  params: URLSearchParams,
  patch: Partial<ListState<F>>,
  defaults: ListDefaults<F> = {},
): URLSearchParams {
  const current = readListState(params, defaults);
  const next = { ...current, ...patch } as ListState<F>;
  const changesMoreThanPage = Object.entries(patch).some(
    ([key, value]) => key !== 'page' && String(value) !== String(current[key as keyof ListState<F>]),
  );
  if (changesMoreThanPage && patch.page === undefined) next.page = 1;
  const out = new URLSearchParams(params);
  const fallback: Record<string, string> = {
    ...(defaults.filters ?? {}),
    q: '',
    page: '1',
    size: String(defaults.size ?? DEFAULT_PER_PAGE),
    sort: defaults.sort ?? '',
  };
  for (const [key, value] of Object.entries(next)) {
    const text = String(value);
    if (text === fallback[key]) out.delete(key);
    else out.set(key, text);
  }
  return out;
}

/** What `listStillShown` needs of a data router: its live location (not the one last rendered). */
export interface RouterLocation {
  state: { location: { pathname: string } };
}

/**
 * Whether the router is still at the list's own path. A data router's location moves as soon as a
 * navigation starts, and React Router renders the next page in a transition: until it commits, the
 * list is still mounted and its timers run. A write that comes due then (the debounced search) is
 * resolved against the router's new location and lands on the next page as `?q=…` (a CI run on a
 * loaded machine: a row opened just before the search was due). Such a write is dropped: the list was
 * left. Without a data router (a MemoryRouter) nothing moves under the list.
 */
export function listStillShown(router: RouterLocation | null | undefined, pathname: string): boolean {
  return !router || router.state.location.pathname === pathname;
}

/** `readListState` / `writeListState` over the current address. */
export function useListState<F extends Record<string, string> = Record<never, string>>(
  defaults: ListDefaults<F> = {},
): [ListState<F>, (patch: Partial<ListState<F>>) => void] {
  const [params, setParams] = useSearchParams();
  const router = useContext(UNSAFE_DataRouterContext)?.router;
  const { pathname } = useLocation();
  // The address as last written: two changes before the next render (a debounced search and a
  // filter click) both land, instead of the second starting from the render's stale query.
  const latest = useRef(params);
  latest.current = params;
  // The defaults by value: a new object literal each render must not make a new setter.
  const key = JSON.stringify(defaults);
  const state = useMemo(() => readListState(params, defaults), [params, key]);
  const set = useCallback(
    (patch: Partial<ListState<F>>) => {
      if (!listStillShown(router, pathname)) return;
      const next = writeListState(latest.current, patch, defaults);
      latest.current = next;
      setParams(next, { replace: true });
    },
    [setParams, key, router, pathname],
  );
  return [state, set];
}
