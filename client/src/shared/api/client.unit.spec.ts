import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { describeLoginFailure, UNREACHABLE_MESSAGE } from '../../features/auth/api';
import { ApiError, apiRequest, configureApiClient, resetWritePosition } from './client';

// Node has fetch, Headers and Response; only localStorage needs a stand-in.
const stored = new Map<string, string>();
globalThis.localStorage = {
  get length() {
    return stored.size;
  },
  key: (index: number) => [...stored.keys()][index] ?? null,
  getItem: (key: string) => stored.get(key) ?? null,
  setItem: (key: string, value: string) => void stored.set(key, value),
  removeItem: (key: string) => void stored.delete(key),
  clear: () => stored.clear(),
};

interface Call {
  url: string;
  init: RequestInit;
}
let calls: Call[] = [];

function answer(status: number, body?: unknown): void {
  globalThis.fetch = (input: string | URL | Request, init?: RequestInit) => {
    calls.push({ url: input instanceof Request ? input.url : input.toString(), init: init ?? {} });
    const text = body === undefined ? null : typeof body === 'string' ? body : JSON.stringify(body);
    const headers =
      typeof body === 'string' ? { 'content-type': 'text/html' } : { 'content-type': 'application/json' };
    return Promise.resolve(new Response(text, { status, headers }));
  };
}

const onUnauthorized = jest.fn();
const onUserNotFound = jest.fn();

beforeEach(() => {
  stored.clear();
  calls = [];
  onUnauthorized.mockClear();
  onUserNotFound.mockClear();
  configureApiClient({ onUnauthorized, onUserNotFound });
});

afterEach(() => configureApiClient({}));

describe('apiRequest', () => {
  it('uploads multipart bodies as they are (the browser sets the boundary)', async () => {
    answer(201, { imported: 1 });
    const form = new FormData();
    form.append('file', new Blob(['a,b\n'], { type: 'text/csv' }), 'users.csv');
    await apiRequest('/api/v1/users/import', { method: 'POST', multipart: form });
    expect(calls[0]!.init.body).toBe(form);
    expect(new Headers(calls[0]!.init.headers).has('Content-Type')).toBe(false);
  });

  it('returns file downloads as a Blob; a refused download is still an ApiError', async () => {
    answer(200, 'id,password\n1,secret\n');
    const blob = await apiRequest<Blob>('/api/v1/users/generate_passwords', {
      method: 'POST',
      json: { user_ids: ['1'] },
      responseType: 'blob',
    });
    expect(blob).toBeInstanceOf(Blob);
    expect(await blob.text()).toBe('id,password\n1,secret\n');
    answer(422, { detail: 'user_ids: at least one' });
    await expect(
      apiRequest('/api/v1/users/generate_passwords', { method: 'POST', responseType: 'blob' }),
    ).rejects.toMatchObject({ status: 422, detail: 'user_ids: at least one' });
  });

  it('sends the stored token as RequestVerificationToken, and none without a token', async () => {
    answer(200, { ok: true });
    await apiRequest('/api/v1/users/me');
    stored.set('token', 'abc');
    await apiRequest('/api/v1/users/me');
    expect(new Headers(calls[0]?.init.headers).has('RequestVerificationToken')).toBe(false);
    expect(new Headers(calls[1]?.init.headers).get('RequestVerificationToken')).toBe('abc');
  });

  it('sends the token the caller names instead of the stored one', async () => {
    answer(200, { ok: true });
    stored.set('token', 'stored');
    await apiRequest('/api/v1/users/me', { headers: { RequestVerificationToken: 'named' } });
    expect(new Headers(calls[0]?.init.headers).get('RequestVerificationToken')).toBe('named');
  });

  it('form-encodes form bodies and repeats array query keys', async () => {
    answer(200, {});
    await apiRequest('/api/v1/login/access-token', {
      method: 'POST',
      form: { username: 'a@b.c', password: 'p&q' },
    });
    await apiRequest('/api/v1/users/', { query: { page: 1, ids: [3, 4], query: undefined } });
    expect((calls[0]?.init.body as URLSearchParams).toString()).toBe('username=a%40b.c&password=p%26q');
    expect(new Headers(calls[0]?.init.headers).get('Content-Type')).toBe('application/x-www-form-urlencoded');
    expect(calls[1]?.url).toBe('/api/v1/users/?page=1&ids=3&ids=4');
  });

  it('sends multipart bodies as they are, leaving the boundary header to fetch', async () => {
    answer(201, { imported: 1, skipped: 0 });
    const data = new FormData();
    data.append('file', new Blob(['first_name\n']), 'users.csv');
    await apiRequest('/api/v1/users/import', { method: 'POST', multipart: data });
    expect(calls[0]?.init.body).toBe(data);
    expect(new Headers(calls[0]?.init.headers).has('Content-Type')).toBe(false);
  });

  it('ends the session on 401 and on 403 "Could not validate credentials" only', async () => {
    answer(401, { detail: 'Not authenticated' });
    await expect(apiRequest('/x')).rejects.toMatchObject({ status: 401, detail: 'Not authenticated' });
    answer(403, { detail: 'Could not validate credentials' });
    await expect(apiRequest('/x')).rejects.toBeInstanceOf(ApiError);
    answer(403, { detail: 'Not enough permissions' });
    await expect(apiRequest('/x')).rejects.toMatchObject({ status: 403 });
    expect(onUnauthorized).toHaveBeenCalledTimes(2);
  });

  it('goes to NotFound on 404 "User not found" only', async () => {
    answer(404, { detail: 'User not found' });
    await expect(apiRequest('/x')).rejects.toMatchObject({ status: 404 });
    answer(404, { detail: 'Programme not found' });
    await expect(apiRequest('/x')).rejects.toMatchObject({ status: 404 });
    expect(onUserNotFound).toHaveBeenCalledTimes(1);
  });

  it('leaves session errors to the caller when asked (the login form)', async () => {
    answer(401, { detail: 'Incorrect email or password' });
    await expect(apiRequest('/x', { handleSessionErrors: false })).rejects.toMatchObject({ status: 401 });
    expect(onUnauthorized).not.toHaveBeenCalled();
  });

  it('reports an unreachable server as status 0', async () => {
    globalThis.fetch = () => Promise.reject(new TypeError('fetch failed'));
    const error = await apiRequest('/x').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).isNetworkError).toBe(true);
  });
});

describe('login failure messages', () => {
  it("shows the server's detail for 4xx answers", () => {
    expect(describeLoginFailure(new ApiError(401, 'Incorrect email or password', {}, '')).message).toBe(
      'Incorrect email or password',
    );
    expect(describeLoginFailure(new ApiError(429, 'Too many attempts, wait 60 s', {}, '')).message).toBe(
      'Too many attempts, wait 60 s',
    );
    const validation = [{ loc: ['body', 'username'], msg: 'Field required', type: 'missing' }];
    expect(describeLoginFailure(new ApiError(422, validation, {}, '')).message).toBe('Field required');
  });

  it('explains network errors and 5xx as an unreachable portal', () => {
    expect(describeLoginFailure(new ApiError(0, undefined, undefined, '')).message).toBe(UNREACHABLE_MESSAGE);
    expect(describeLoginFailure(new ApiError(503, undefined, 'down', '')).message).toBe(UNREACHABLE_MESSAGE);
  });
});

describe('read-your-writes', () => {
  it('sends the highest position a write returned as X-Min-Position on later reads only', async () => {
    resetWritePosition();
    answer(200, { items: [] });
    await apiRequest('/api/v1/users/');
    expect(new Headers(calls[0]!.init.headers).get('X-Min-Position')).toBeNull();

    answer(200, { position: '42' });
    await apiRequest('/api/v1/users/1/block', { method: 'PUT' });
    answer(200, { position: '7' });
    await apiRequest('/api/v1/users/2/block', { method: 'PUT' });
    expect(new Headers(calls[1]!.init.headers).get('X-Min-Position')).toBeNull();

    answer(200, { items: [] });
    await apiRequest('/api/v1/users/');
    expect(new Headers(calls[3]!.init.headers).get('X-Min-Position')).toBe('42');

    resetWritePosition();
    await apiRequest('/api/v1/users/');
    expect(new Headers(calls[4]!.init.headers).get('X-Min-Position')).toBeNull();
  });
});
