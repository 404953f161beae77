import {
  keepPreviousData,
  useMutation,
  useQuery,
  useQueryClient,
  type QueryClient,
  type UseMutationOptions,
} from '@tanstack/react-query';
import { notifySuccess } from '../notify';
import { apiRequest, type Query } from './client';
import type { Page, Written } from './types';

/** A list request: page, size, the search text (sent as `query` and `name`, spec §7) and any filters. */
export type ListParams<Filters extends Query = Query> = {
  page: number;
  size: number;
  search?: string;
} & Filters;

export interface ResourceConfig {
  /**
   * The query-cache root of every key. A live message for the area invalidates `[root]`, so it must
   * be the root `shared/live/useLive.ts` maps the area's stream category to.
   */
  root: string;
  /** The collection's URL, e.g. `/api/v1/networks` (a trailing slash is kept for the list call). */
  path: string;
}

export interface CommandOptions<TResult, TVars> {
  /** A success notification, e.g. "Customer saved". */
  success?: string | ((result: TResult, vars: TVars) => string);
  /** Runs after the root's queries were invalidated (refresh /users/me, invalidate another root…). */
  also?: (result: TResult, vars: TVars, queryClient: QueryClient) => unknown;
  /** The screen shows the error itself (a form's field errors, a dialog's alert): no notification. */
  silentErrors?: boolean;
}

export interface QueryOptions {
  enabled?: boolean;
  /** Default true: the screen shows the error (an alert with Retry), so no notification. */
  silentErrors?: boolean;
}

/** The mutation options a resource command uses; separate from the hook so it can be unit-tested. */
export function commandOptions<TVars, TResult>(
  queryClient: QueryClient,
  root: string,
  fn: (vars: TVars) => Promise<TResult>,
  options: CommandOptions<TResult, TVars> = {},
): UseMutationOptions<TResult, Error, TVars> {
  return {
    mutationFn: fn,
    // The query client's MutationCache shows the error as a notification unless this is set.
    meta: { silentErrors: options.silentErrors ?? false },
    onSuccess: async (result, vars) => {
      const { success, also } = options;
      if (success) notifySuccess(typeof success === 'function' ? success(result, vars) : success);
      // The API client sends the command's position as X-Min-Position on these reads.
      await queryClient.invalidateQueries({ queryKey: [root] });
      if (also) await also(result, vars, queryClient);
    },
  };
}

/** The query string of a list call: page, size, the search as `query` and `name`, and the filters. */
export function listQuery(params: ListParams): Query {
  const { search, ...rest } = params;
  const text = search?.trim() || undefined;
  return { ...rest, query: text, name: text };
}

/**
 * One REST resource of the API, its query keys and hooks: `GET path` (a page), `GET path/{id}`,
 * `POST path`, `PUT path/{id}`, `DELETE path/{id}`, and commands that refresh every query of the area.
 */
export function createResource<View, Input = never>(config: ResourceConfig) {
  const { root, path } = config;
  const base = path.replace(/\/$/, '');
  const url = (id: string, rest = '') => `${base}/${encodeURIComponent(id)}${rest}`;

  const keys = {
    all: [root] as const,
    /** The search is trimmed, so "ab " and "ab" share a cache entry. */
    list: (params: ListParams) => [root, 'list', { ...params, search: params.search?.trim() ?? '' }] as const,
    detail: (id: string) => [root, 'detail', id] as const,
    /** Any other query of the area (stays under the root, so live messages refresh it). */
    other: (...parts: readonly unknown[]) => [root, ...parts] as const,
  };

  const list = (params: ListParams, signal?: AbortSignal) =>
    apiRequest<Page<View>>(path, { signal, query: listQuery(params) });
  const one = (id: string, signal?: AbortSignal) => apiRequest<View>(url(id), { signal });

  return {
    root,
    keys,
    /** `{base}/{id}{rest}`, for the area's other endpoints. */
    url,
    list,
    one,
    create: (body: Input) => apiRequest<Written>(path, { method: 'POST', json: body }),
    update: (id: string, body: Partial<Input>) => apiRequest<Written>(url(id), { method: 'PUT', json: body }),
    remove: (id: string) => apiRequest<Written>(url(id), { method: 'DELETE' }),

    /** A page of the list; the previous page stays on screen while the next one loads. */
    useList: <Filters extends Query>(params: ListParams<Filters>, options: QueryOptions = {}) =>
      useQuery({
        queryKey: keys.list(params),
        queryFn: ({ signal }) => list(params, signal),
        placeholderData: keepPreviousData,
        enabled: options.enabled,
        meta: { silentErrors: options.silentErrors ?? true },
      }),

    /** One record; `null` waits (e.g. the create page, which has no id yet). */
    useOne: (id: string | null, options: QueryOptions = {}) =>
      useQuery({
        queryKey: keys.detail(id ?? ''),
        enabled: id !== null && options.enabled !== false,
        queryFn: ({ signal }) => one(id!, signal),
        meta: { silentErrors: options.silentErrors ?? true },
      }),

    /** A write: on success, notify (optionally), refetch every query under the root, then `also`. */
    useCommand: <TVars, TResult>(
      fn: (vars: TVars) => Promise<TResult>,
      options?: CommandOptions<TResult, TVars>,
    ) => useAreaCommand(root, fn, options),
  };
}

export type Resource<View, Input = never> = ReturnType<typeof createResource<View, Input>>;

/** A command hook for an area without a REST collection (e.g. a workflow under another resource). */
export function useAreaCommand<TVars, TResult>(
  root: string,
  fn: (vars: TVars) => Promise<TResult>,
  options?: CommandOptions<TResult, TVars>,
) {
  return useMutation(commandOptions(useQueryClient(), root, fn, options));
}
