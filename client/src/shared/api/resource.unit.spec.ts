import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { notifications } from '@mantine/notifications';
import { MutationObserver, QueryClient } from '@tanstack/react-query';
import { commandOptions, createResource, listQuery } from './resource';

// Node has fetch; the API client reads the token from localStorage.
globalThis.localStorage = {
  length: 0,
  key: () => null,
  getItem: () => null,
  setItem: () => undefined,
  removeItem: () => undefined,
  clear: () => undefined,
};

interface Thing {
  id: string;
  name: string;
}

const things = createResource<Thing, { name: string }>({ root: 'things', path: '/api/v1/things/' });

describe('createResource keys', () => {
  it('puts every key under the root, the one live messages invalidate', () => {
    expect(things.keys.all).toEqual(['things']);
    expect(things.keys.detail('7')).toEqual(['things', 'detail', '7']);
    expect(things.keys.other('assignable')).toEqual(['things', 'assignable']);
    expect(things.keys.list({ page: 2, size: 10, search: ' ab ' })).toEqual([
      'things',
      'list',
      { page: 2, size: 10, search: 'ab' },
    ]);
  });

  it('keys filters too, so another filter is another cache entry', () => {
    expect(things.keys.list({ page: 1, size: 10, status: 'open' })).not.toEqual(
      things.keys.list({ page: 1, size: 10, status: 'closed' }),
    );
  });
});

describe('list calls', () => {
  let urls: string[] = [];
  const realFetch = globalThis.fetch;
  beforeEach(() => {
    urls = [];
    globalThis.fetch = (input: string | URL | Request, init?: RequestInit) => {
      urls.push(`${init?.method ?? 'GET'} ${input instanceof Request ? input.url : input.toString()}`);
      const body = JSON.stringify({ items: [], total: 0, page: 1, size: 10, id: 'x', position: '1' });
      return Promise.resolve(new Response(body, { headers: { 'content-type': 'application/json' } }));
    };
  });
  afterEach(() => {
    globalThis.fetch = realFetch;
  });

  it('sends the search as query and name (spec §7) and leaves an empty one out', () => {
    expect(listQuery({ page: 1, size: 20, search: ' Maple ', status: 'open' })).toEqual({
      page: 1,
      size: 20,
      status: 'open',
      query: 'Maple',
      name: 'Maple',
    });
    expect(listQuery({ page: 1, size: 20, search: '  ' })).toEqual({
      page: 1,
      size: 20,
      query: undefined,
      name: undefined,
    });
  });

  it('reads and writes the REST paths of the collection', async () => {
    await things.list({ page: 3, size: 10, search: 'x' });
    await things.one('a/b');
    await things.create({ name: 'n' });
    await things.update('1', { name: 'm' });
    await things.remove('1');
    expect(urls).toEqual([
      'GET /api/v1/things/?page=3&size=10&query=x&name=x',
      'GET /api/v1/things/a%2Fb',
      'POST /api/v1/things/',
      'PUT /api/v1/things/1',
      'DELETE /api/v1/things/1',
    ]);
  });
});

describe('commands', () => {
  let client: QueryClient;
  beforeEach(() => {
    client = new QueryClient();
    client.setQueryData(['things', 'list', { page: 1 }], { items: [] });
    client.setQueryData(['things', 'detail', '1'], { id: '1' });
    client.setQueryData(['users', 'me'], { id: 'me' });
  });
  afterEach(() => client.clear());

  const invalidated = (key: unknown[]) => client.getQueryState(key)?.isInvalidated;

  it('refetches every query under the root after a success, and only those', async () => {
    const observer = new MutationObserver(
      client,
      commandOptions(client, 'things', (name: string) => Promise.resolve({ id: '2', name })),
    );
    await observer.mutate('new');
    expect(invalidated(['things', 'list', { page: 1 }])).toBe(true);
    expect(invalidated(['things', 'detail', '1'])).toBe(true);
    expect(invalidated(['users', 'me'])).toBe(false);
  });

  it('invalidates nothing when the command fails, and leaves the error to the caller', async () => {
    const observer = new MutationObserver(
      client,
      commandOptions(client, 'things', () => Promise.reject(new Error('refused'))),
    );
    await expect(observer.mutate(undefined)).rejects.toThrow('refused');
    expect(invalidated(['things', 'detail', '1'])).toBe(false);
  });

  it('notifies the success and runs `also` with the answer, after the invalidation', async () => {
    const shown = jest.spyOn(notifications, 'show').mockReturnValue('id');
    const seen: unknown[] = [];
    const observer = new MutationObserver(
      client,
      commandOptions(client, 'things', (name: string) => Promise.resolve({ id: '9', name }), {
        success: (thing) => `Saved ${thing.name}`,
        also: (thing, vars, qc) => {
          seen.push(thing.id, vars, qc.getQueryState(['things', 'detail', '1'])?.isInvalidated);
          return qc.invalidateQueries({ queryKey: ['users'] });
        },
      }),
    );
    await observer.mutate('Ash');
    expect(shown).toHaveBeenCalledWith(expect.objectContaining({ message: 'Saved Ash' }));
    expect(seen).toEqual(['9', 'Ash', true]);
    expect(invalidated(['users', 'me'])).toBe(true);
    shown.mockRestore();
  });

  it('lets the query client notify errors unless the screen shows them', () => {
    const run = () => Promise.resolve(null);
    expect(commandOptions(client, 'things', run).meta).toEqual({ silentErrors: false });
    expect(commandOptions(client, 'things', run, { silentErrors: true }).meta).toEqual({
      silentErrors: true,
    });
  });
});
