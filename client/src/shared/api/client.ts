import { getToken } from '../storage';

/**
 * The one HTTP client every feature uses (spec §7, §8).
 * - Sends `RequestVerificationToken: <token>` whenever a token is stored (unless the caller names one).
 * - 401, and 403 with detail "Could not validate credentials": the session handler runs (clear the
 *   session, go to Login). 404 with detail "User not found": the not-found handler runs.
 * - Every failure reaches the caller as an {@link ApiError} (`status` 0 when the server was unreachable).
 */

export type QueryValue = string | number | boolean | null | undefined;
export type Query = Record<string, QueryValue | readonly QueryValue[]>;

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Query parameters; arrays are sent as repeated keys, null/undefined are skipped. */
  query?: Query;
  /** JSON body. */
  json?: unknown;
  /** `application/x-www-form-urlencoded` body. */
  form?: Record<string, string>;
  /** `multipart/form-data` body (file uploads); the browser sets the boundary. */
  multipart?: FormData;
  /** `blob`: the answer is returned as a Blob (file downloads) instead of parsed JSON or text. */
  responseType?: 'blob';
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /**
   * Run the global 401/403/404 handlers (default true). The login call turns this off: a wrong
   * password is an answer for the form, not an expired session.
   */
  handleSessionErrors?: boolean;
}

export class ApiError extends Error {
  constructor(
    /** HTTP status; 0 when no answer arrived (offline, DNS, refused connection, CORS). */
    readonly status: number,
    /** The server's `detail`, when the body had one (a string or FastAPI-style validation list). */
    readonly detail: unknown,
    readonly body: unknown,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  get isNetworkError(): boolean {
    return this.status === 0;
  }

  get isServerError(): boolean {
    return this.status >= 500;
  }

  /** The `detail` as readable text, if the server sent one. */
  get detailText(): string | undefined {
    return detailToText(this.detail);
  }
}

export function detailToText(detail: unknown): string | undefined {
  if (typeof detail === 'string') return detail.trim() === '' ? undefined : detail;
  if (Array.isArray(detail)) {
    const messages = detail
      .map((item: unknown) =>
        typeof item === 'string'
          ? item
          : typeof item === 'object' && item !== null && 'msg' in item && typeof item.msg === 'string'
            ? item.msg
            : undefined,
      )
      .filter((message): message is string => message !== undefined && message !== '');
    return messages.length > 0 ? messages.join('. ') : undefined;
  }
  return undefined;
}

export interface ApiClientHandlers {
  /** Session no longer valid: clear it and go to Login. */
  onUnauthorized?: () => void;
  /** The current user no longer exists: go to NotFound. */
  onUserNotFound?: () => void;
}

let handlers: ApiClientHandlers = {};

export function configureApiClient(next: ApiClientHandlers): void {
  handlers = next;
}

export const TOKEN_HEADER = 'RequestVerificationToken';
export const MIN_POSITION_HEADER = 'X-Min-Position';

/**
 * Read-your-writes: the highest event `position` a command answer carried in this tab. Reads send it as
 * `X-Min-Position`, so the server answers only once its read models include our own writes.
 */
let lastWritePosition: bigint | null = null;

export function rememberWritePosition(payload: unknown): void {
  if (typeof payload !== 'object' || payload === null || !('position' in payload)) return;
  const { position } = payload;
  if (typeof position !== 'string' || !/^\d{1,19}$/.test(position)) return;
  const value = BigInt(position);
  if (lastWritePosition === null || value > lastWritePosition) lastWritePosition = value;
}

export function currentWritePosition(): string | null {
  return lastWritePosition === null ? null : lastWritePosition.toString();
}

/** Forget the position (sign-out: a new session starts without one). */
export function resetWritePosition(): void {
  lastWritePosition = null;
}

function buildUrl(path: string, query: Query | undefined): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    const values: readonly QueryValue[] = Array.isArray(value) ? value : [value as QueryValue];
    for (const item of values) {
      if (item !== null && item !== undefined) params.append(key, String(item));
    }
  }
  const search = params.toString();
  if (search === '') return path;
  return `${path}${path.includes('?') ? '&' : '?'}${search}`;
}

async function readBody(response: Response): Promise<unknown> {
  if (response.status === 204 || response.status === 205) return undefined;
  const text = await response.text();
  if (text === '') return undefined;
  const type = response.headers.get('content-type') ?? '';
  if (type.includes('json')) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  return text;
}

function detailOf(body: unknown): unknown {
  return typeof body === 'object' && body !== null && 'detail' in body ? body.detail : undefined;
}

export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const { method = 'GET', query, json, form, multipart, signal, handleSessionErrors = true } = options;
  const headers = new Headers(options.headers);
  headers.set('Accept', options.responseType === 'blob' ? '*/*' : 'application/json');
  // A token the caller names (right after login, the administrator's own while impersonating) wins.
  const token = getToken();
  if (token !== null && !headers.has(TOKEN_HEADER)) headers.set(TOKEN_HEADER, token);
  const minPosition = currentWritePosition();
  if (method === 'GET' && minPosition !== null) headers.set(MIN_POSITION_HEADER, minPosition);

  let body: BodyInit | undefined;
  if (multipart !== undefined) {
    body = multipart;
  } else if (form !== undefined) {
    body = new URLSearchParams(form);
    headers.set('Content-Type', 'application/x-www-form-urlencoded');
  } else if (json !== undefined) {
    body = JSON.stringify(json);
    headers.set('Content-Type', 'application/json');
  }

  let response: Response;
  try {
    response = await fetch(buildUrl(path, query), {
      method,
      headers,
      body,
      signal,
      credentials: 'same-origin',
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(0, undefined, undefined, `Network error calling ${method} ${path}`);
  }

  if (response.ok && options.responseType === 'blob') return (await response.blob()) as T;
  const payload = await readBody(response).catch(() => undefined);
  if (response.ok) {
    if (method !== 'GET') rememberWritePosition(payload);
    return payload as T;
  }

  const detail = detailOf(payload);
  if (handleSessionErrors) {
    if (response.status === 401 || (response.status === 403 && detail === 'Could not validate credentials')) {
      handlers.onUnauthorized?.();
    } else if (response.status === 404 && detail === 'User not found') {
      handlers.onUserNotFound?.();
    }
  }
  throw new ApiError(
    response.status,
    detail,
    payload,
    `${method} ${path} failed with ${response.status}${detailToText(detail) ? `: ${detailToText(detail)}` : ''}`,
  );
}
