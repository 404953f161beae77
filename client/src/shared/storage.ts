/**
 * Browser storage rules (spec §4, §8, §9):
 * - entries may carry an expiry in seconds; an expired entry reads as absent and is removed;
 * - entries under the `cache_` prefix live for 5 minutes;
 * - a failed cache fetch drops the cached entry and rethrows;
 * - logout clears local storage except the keys in {@link KEYS_KEPT_ON_LOGOUT};
 * - storage errors (quota, disabled storage, corrupt values) are logged, never thrown.
 *
 * The session token is kept as a plain string under `token`; every other entry is stored as a JSON
 * envelope `{ "value": ..., "expiresAt": <epoch ms> }`.
 */

export const TOKEN_KEY = 'token';
export const CACHE_PREFIX = 'cache_';
export const CACHE_LIFETIME_SECONDS = 5 * 60;
export const KEYS_KEPT_ON_LOGOUT: readonly string[] = [
  'browser_notifications_agreement',
  'half-term-reminder-modal-last-displayed-at',
];

interface Envelope<T> {
  value: T;
  expiresAt?: number;
}

function backend(): Storage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch (error) {
    logStorageError('access', error);
    return null;
  }
}

function logStorageError(operation: string, error: unknown, key?: string): void {
  console.error(`[storage] ${operation}${key === undefined ? '' : ` "${key}"`} failed`, error);
}

function isEnvelope(candidate: unknown): candidate is Envelope<unknown> {
  return (
    typeof candidate === 'object' &&
    candidate !== null &&
    'value' in candidate &&
    (!('expiresAt' in candidate) || typeof candidate.expiresAt === 'number')
  );
}

/** Stores `value` under `key`; with `expiresInSeconds` the entry reads as absent once that time has passed. */
export function setItem<T>(key: string, value: T, expiresInSeconds?: number): void {
  const store = backend();
  if (!store) return;
  const envelope: Envelope<T> = { value };
  if (expiresInSeconds !== undefined) envelope.expiresAt = Date.now() + expiresInSeconds * 1000;
  try {
    store.setItem(key, JSON.stringify(envelope));
  } catch (error) {
    logStorageError('write', error, key);
  }
}

/** Reads the value stored under `key`, or `null` when it is missing, expired or unreadable. */
export function getItem<T>(key: string): T | null {
  const store = backend();
  if (!store) return null;
  let raw: string | null;
  try {
    raw = store.getItem(key);
  } catch (error) {
    logStorageError('read', error, key);
    return null;
  }
  if (raw === null) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (error) {
    logStorageError('parse', error, key);
    return null;
  }
  if (!isEnvelope(parsed)) {
    logStorageError('parse', new Error('not a storage entry'), key);
    return null;
  }
  if (parsed.expiresAt !== undefined && parsed.expiresAt <= Date.now()) {
    removeItem(key);
    return null;
  }
  return parsed.value as T;
}

export function removeItem(key: string): void {
  const store = backend();
  if (!store) return;
  try {
    store.removeItem(key);
  } catch (error) {
    logStorageError('remove', error, key);
  }
}

function keys(): string[] {
  const store = backend();
  if (!store) return [];
  try {
    const found: string[] = [];
    for (let index = 0; index < store.length; index += 1) {
      const key = store.key(index);
      if (key !== null) found.push(key);
    }
    return found;
  } catch (error) {
    logStorageError('list', error);
    return [];
  }
}

/** Removes every enveloped entry whose expiry has passed (the token and foreign keys are left alone). */
export function purgeExpired(): void {
  for (const key of keys()) {
    if (key === TOKEN_KEY || KEYS_KEPT_ON_LOGOUT.includes(key)) continue;
    getItem(key); // reading an expired entry removes it
  }
}

// Session token: a plain string, so `localStorage.getItem('token')` is the token itself.

export function getToken(): string | null {
  const store = backend();
  if (!store) return null;
  try {
    const token = store.getItem(TOKEN_KEY);
    return token === null || token === '' ? null : token;
  } catch (error) {
    logStorageError('read', error, TOKEN_KEY);
    return null;
  }
}

export function setToken(token: string): void {
  const store = backend();
  if (!store) return;
  try {
    store.setItem(TOKEN_KEY, token);
  } catch (error) {
    logStorageError('write', error, TOKEN_KEY);
  }
}

// Local cache: `cache_` entries with a 5-minute lifetime.

export function setCached<T>(key: string, value: T): void {
  setItem(CACHE_PREFIX + key, value, CACHE_LIFETIME_SECONDS);
}

export function getCached<T>(key: string): T | null {
  return getItem<T>(CACHE_PREFIX + key);
}

export function removeCached(key: string): void {
  removeItem(CACHE_PREFIX + key);
}

/** Removes every `cache_` entry (e.g. after blocking a tutor, the cached tutor lists). */
export function clearCache(): void {
  for (const key of keys()) {
    if (key.startsWith(CACHE_PREFIX)) removeItem(key);
  }
}

/**
 * Returns the cached value for `key` when it is still fresh, otherwise fetches, caches and returns it.
 * A failed fetch drops the cached entry and rethrows.
 */
export async function cached<T>(key: string, fetcher: () => Promise<T>): Promise<T> {
  const hit = getCached<T>(key);
  if (hit !== null) return hit;
  try {
    const value = await fetcher();
    setCached(key, value);
    return value;
  } catch (error) {
    removeCached(key);
    throw error;
  }
}

/** Logout: clears local storage except the keys the spec keeps across sessions. */
export function clearOnLogout(): void {
  for (const key of keys()) {
    if (!KEYS_KEPT_ON_LOGOUT.includes(key)) removeItem(key);
  }
}
