import { describe, expect, it } from '@jest/globals';
import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { refreshOnLive } from './refresh-on-live';

/** A list on the server: each fetch answers what it held when the request started, after `ms`. */
function slowServer(ms: number) {
  const rows = ['a', 'b'];
  let fetches = 0;
  const fetchList = () => {
    fetches++;
    const answer = [...rows];
    return new Promise<string[]>((resolve) => setTimeout(() => resolve(answer), ms));
  };
  return { rows, fetchList, fetches: () => fetches };
}

async function settled(client: QueryClient) {
  while (client.isFetching() > 0) await new Promise((r) => setTimeout(r, 5));
}

describe('refreshOnLive: a live message refetches what the cache holds under its root', () => {
  it('a list whose first fetch is in flight when the change is announced ends with the change', async () => {
    const client = new QueryClient();
    const server = slowServer(30);
    const observer = new QueryObserver(client, { queryKey: ['users', 'list', 3], queryFn: server.fetchList });
    const unsubscribe = observer.subscribe(() => {});
    // The page's first fetch is on its way; another user adds a row and the live message arrives.
    await new Promise((r) => setTimeout(r, 5));
    server.rows.push('c');
    await refreshOnLive(client, 'users');
    await settled(client);
    expect(client.getQueryData(['users', 'list', 3])).toEqual(['a', 'b', 'c']);
    expect(server.fetches()).toBe(2);
    unsubscribe();
  });

  it('a list with data refetches once, and other roots are left alone', async () => {
    const client = new QueryClient();
    const users = slowServer(1);
    const lessons = slowServer(1);
    const u = new QueryObserver(client, { queryKey: ['users', 'list', 1], queryFn: users.fetchList });
    const l = new QueryObserver(client, { queryKey: ['lessons', 'list', 1], queryFn: lessons.fetchList });
    const stop = [u.subscribe(() => {}), l.subscribe(() => {})];
    await settled(client);
    users.rows.push('c');
    await refreshOnLive(client, 'users');
    await settled(client);
    expect(client.getQueryData(['users', 'list', 1])).toEqual(['a', 'b', 'c']);
    expect(users.fetches()).toBe(2);
    expect(lessons.fetches()).toBe(1);
    stop.forEach((s) => s());
  });
});
