import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import type { CurrentUser } from './current-user';
import { configureApiClient } from './api/client';
import {
  configureSessionRules,
  endServerSessions,
  PERMISSION_LIST_KEY,
  peekPermissions,
  readPermissions,
  useSession,
  USER_DETAILS_KEY,
} from './session';
import { setItem } from './storage';

class MemoryStorage implements Storage {
  private readonly entries = new Map<string, string>();
  get length(): number {
    return this.entries.size;
  }
  key(index: number): string | null {
    return [...this.entries.keys()][index] ?? null;
  }
  getItem(key: string): string | null {
    return this.entries.get(key) ?? null;
  }
  setItem(key: string, value: string): void {
    this.entries.set(key, String(value));
  }
  removeItem(key: string): void {
    this.entries.delete(key);
  }
  clear(): void {
    this.entries.clear();
  }
}

const user: CurrentUser = { id: 'u1', full_name: 'Ada Lovelace', permission_list: ['USER_IS_ADMIN', 'X'] };
let missing: jest.Mock<() => void>;

beforeEach(() => {
  globalThis.localStorage = new MemoryStorage();
  useSession.getState().signOut(); // clears the permission cache between tests
  missing = jest.fn<() => void>();
  configureSessionRules({ onMissingDetails: missing });
});

afterEach(() => {
  configureSessionRules({ onMissingDetails: () => {} });
});

describe('session rules (spec §4)', () => {
  it('keeps the token, user details and permission list in local storage after login', () => {
    useSession.getState().signIn('tok', user);
    expect(localStorage.getItem('token')).toBe('tok');
    expect(JSON.parse(localStorage.getItem(USER_DETAILS_KEY) ?? '{}')).toEqual({ value: user });
    expect(JSON.parse(localStorage.getItem(PERMISSION_LIST_KEY) ?? '{}')).toEqual({
      value: user.permission_list,
    });
    expect(useSession.getState()).toMatchObject({ token: 'tok', user });
  });

  it('caches the permission list in memory', () => {
    useSession.getState().signIn('tok', user);
    localStorage.removeItem(PERMISSION_LIST_KEY);
    expect(readPermissions()).toEqual(['USER_IS_ADMIN', 'X']);
    expect(missing).not.toHaveBeenCalled();
  });

  it('reads the permission list from storage when the cache is empty', () => {
    setItem(USER_DETAILS_KEY, user);
    setItem(PERMISSION_LIST_KEY, ['USER_IS_TEACHER']);
    expect(readPermissions()).toEqual(['USER_IS_TEACHER']);
    expect(peekPermissions()).toEqual(['USER_IS_TEACHER']);
  });

  it('logs out when user details or the permission list are missing', () => {
    setItem(PERMISSION_LIST_KEY, ['USER_IS_TEACHER']);
    expect(readPermissions()).toBeNull();
    expect(missing).toHaveBeenCalledTimes(1);

    localStorage.clear();
    setItem(USER_DETAILS_KEY, user);
    expect(readPermissions()).toBeNull();
    expect(missing).toHaveBeenCalledTimes(2);
  });

  it('peeking never logs out', () => {
    expect(peekPermissions()).toBeNull();
    expect(missing).not.toHaveBeenCalled();
  });

  it('logout clears the permission cache and storage except the two kept keys', () => {
    useSession.getState().signIn('tok', user);
    localStorage.setItem('browser_notifications_agreement', 'true');
    localStorage.setItem('half-term-reminder-modal-last-displayed-at', '"2026-11-01"');
    localStorage.setItem('cache_tutors', '{"value":[]}');
    useSession.getState().signOut();
    const keys: (string | null)[] = [];
    for (let index = 0; index < localStorage.length; index += 1) keys.push(localStorage.key(index));
    expect(keys.sort()).toEqual([
      'browser_notifications_agreement',
      'half-term-reminder-modal-last-displayed-at',
    ]);
    expect(useSession.getState()).toMatchObject({ token: null, user: null });
    expect(readPermissions()).toBeNull(); // the cache is gone too
    expect(missing).toHaveBeenCalledTimes(1);
  });
});

describe('ending sessions on the server (decision 0039)', () => {
  const realFetch = globalThis.fetch;
  let posted: { url: string; method?: string; token: string | null }[];
  const onUnauthorized = jest.fn<() => void>();

  beforeEach(() => {
    posted = [];
    onUnauthorized.mockClear();
    configureApiClient({ onUnauthorized });
  });
  afterEach(() => {
    globalThis.fetch = realFetch;
    configureApiClient({});
  });

  function server(reply: (token: string | null) => Response | Promise<Response>): void {
    globalThis.fetch = (input: string | URL | Request, init?: RequestInit) => {
      const token = new Headers(init?.headers).get('RequestVerificationToken');
      posted.push({
        url: input instanceof Request ? input.url : input.toString(),
        method: init?.method,
        token,
      });
      return Promise.resolve(reply(token));
    };
  }

  it('posts /api/v1/logout once per distinct token, each with its own token', async () => {
    useSession.getState().signIn('stored', user);
    server(() => new Response(null, { status: 204 }));
    await endServerSessions(['impersonated', null, 'admin', 'impersonated']);
    expect(posted).toEqual([
      { url: '/api/v1/logout', method: 'POST', token: 'impersonated' },
      { url: '/api/v1/logout', method: 'POST', token: 'admin' },
    ]);
  });

  it('never throws nor runs the session-error handler: a dead token, an unreachable or a hung server', async () => {
    server(() => Response.json({ detail: 'Session ended; sign in again' }, { status: 401 }));
    await expect(endServerSessions(['dead'])).resolves.toBeUndefined();
    globalThis.fetch = () => Promise.reject(new TypeError('Failed to fetch'));
    await expect(endServerSessions(['offline'])).resolves.toBeUndefined();
    globalThis.fetch = (_input: string | URL | Request, init?: RequestInit) =>
      new Promise<Response>((_resolve, reject) =>
        init?.signal?.addEventListener('abort', () => reject(init.signal?.reason as Error)),
      );
    await expect(endServerSessions(['slow'], 50)).resolves.toBeUndefined();
    expect(onUnauthorized).not.toHaveBeenCalled();
  });
});
