import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import {
  CACHE_LIFETIME_SECONDS,
  cached,
  clearCache,
  clearOnLogout,
  getCached,
  getItem,
  getToken,
  purgeExpired,
  removeItem,
  setCached,
  setItem,
  setToken,
} from './storage';

/** Minimal in-memory Web Storage, enough for the storage module (jest runs this file in node). */
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

const T0 = new Date('2026-11-02T09:00:00Z').getTime();

beforeEach(() => {
  globalThis.localStorage = new MemoryStorage();
  jest.useFakeTimers({ now: T0 });
});

afterEach(() => {
  jest.useRealTimers();
  jest.restoreAllMocks();
});

describe('entries', () => {
  it('round-trips JSON values without expiry', () => {
    setItem('prefs', { per_page: 50, tags: ['a'] });
    jest.setSystemTime(T0 + 365 * 24 * 3600 * 1000);
    expect(getItem('prefs')).toEqual({ per_page: 50, tags: ['a'] });
  });

  it('expires entries after the given number of seconds and removes them', () => {
    setItem('flag', true, 10);
    jest.setSystemTime(T0 + 9_999);
    expect(getItem('flag')).toBe(true);
    jest.setSystemTime(T0 + 10_000);
    expect(getItem('flag')).toBeNull();
    expect(localStorage.getItem('flag')).toBeNull();
  });

  it('purges expired entries but leaves the token and fresh entries', () => {
    setToken('abc');
    setItem('short', 1, 1);
    setItem('long', 2, 100);
    jest.setSystemTime(T0 + 2_000);
    purgeExpired();
    expect(localStorage.getItem('short')).toBeNull();
    expect(getItem('long')).toBe(2);
    expect(getToken()).toBe('abc');
  });

  it('logs and ignores unreadable values instead of throwing', () => {
    const logged = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    localStorage.setItem('broken', '{not json');
    expect(getItem('broken')).toBeNull();
    expect(logged).toHaveBeenCalled();
  });

  it('logs write failures (e.g. quota exceeded) instead of throwing', () => {
    const logged = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    jest.spyOn(localStorage, 'setItem').mockImplementation(() => {
      throw new Error('QuotaExceededError');
    });
    expect(() => setItem('big', 'x')).not.toThrow();
    expect(logged).toHaveBeenCalled();
  });

  it('removes entries', () => {
    setItem('gone', 1);
    removeItem('gone');
    expect(getItem('gone')).toBeNull();
  });
});

describe('token', () => {
  it('keeps the token as a plain string under "token"', () => {
    expect(getToken()).toBeNull();
    setToken('eyJ.token');
    expect(localStorage.getItem('token')).toBe('eyJ.token');
    expect(getToken()).toBe('eyJ.token');
  });
});

describe('cache_ entries', () => {
  it('live for five minutes under the cache_ prefix', () => {
    setCached('tutors', [1, 2]);
    expect(localStorage.getItem('cache_tutors')).not.toBeNull();
    jest.setSystemTime(T0 + CACHE_LIFETIME_SECONDS * 1000 - 1);
    expect(getCached('tutors')).toEqual([1, 2]);
    jest.setSystemTime(T0 + CACHE_LIFETIME_SECONDS * 1000);
    expect(getCached('tutors')).toBeNull();
  });

  it('fetches once while fresh and again after expiry', async () => {
    let calls = 0;
    const fetcher = () => Promise.resolve(++calls);
    expect(await cached('me', fetcher)).toBe(1);
    expect(await cached('me', fetcher)).toBe(1);
    jest.setSystemTime(T0 + 5 * 60 * 1000);
    expect(await cached('me', fetcher)).toBe(2);
  });

  it('drops the cached entry and rethrows when the fetch fails', async () => {
    const failing = () => {
      setCached('me', 'half-written'); // whatever the failed fetch left behind is dropped
      return Promise.reject(new Error('boom'));
    };
    await expect(cached('me', failing)).rejects.toThrow('boom');
    expect(localStorage.getItem('cache_me')).toBeNull();
    expect(await cached('me', () => Promise.resolve('ok'))).toBe('ok');
  });

  it('clears only cache_ entries', () => {
    setCached('a', 1);
    setItem('b', 2);
    clearCache();
    expect(getCached('a')).toBeNull();
    expect(getItem('b')).toBe(2);
  });
});

describe('logout', () => {
  it('clears everything except the two kept keys', () => {
    setToken('t');
    setCached('tutors', []);
    setItem('user', { id: 1 });
    localStorage.setItem('browser_notifications_agreement', 'true');
    localStorage.setItem('half-term-reminder-modal-last-displayed-at', '2026-11-01');
    clearOnLogout();
    expect(localStorage.length).toBe(2);
    expect(localStorage.getItem('browser_notifications_agreement')).toBe('true');
    expect(localStorage.getItem('half-term-reminder-modal-last-displayed-at')).toBe('2026-11-01');
    expect(getToken()).toBeNull();
  });
});
