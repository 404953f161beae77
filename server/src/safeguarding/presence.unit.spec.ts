import { describe, expect, it } from '@jest/globals';
import {
  MAX_VIEWING_PER_SOCKET,
  parseIncidentId,
  presenceByIncident,
  startViewing,
  stopViewing,
  viewersOf,
} from './presence.js';

const A = '11111111-1111-4111-8111-111111111111';
const B = '22222222-2222-4222-8222-222222222222';

describe('presence bookkeeping', () => {
  it.each([
    ['a UUID', A, A],
    ['an upper-case UUID (normalised)', A.toUpperCase(), A],
    ['not a UUID', 'incident-1', null],
    ['a number', 42, null],
    ['nothing', undefined, null],
  ])('parseIncidentId: %s', (_name, given, expected) => {
    expect(parseIncidentId(given)).toBe(expected);
  });

  it('startViewing adds an incident once, most recent last', () => {
    expect(startViewing(undefined, A)).toEqual([A]);
    expect(startViewing([A, B], A)).toEqual([B, A]);
  });

  it('startViewing keeps at most the newest MAX_VIEWING_PER_SOCKET incidents', () => {
    const many = Array.from({ length: MAX_VIEWING_PER_SOCKET }, (_, i) => `id-${i}`);
    const next = startViewing(many, A);
    expect(next).toHaveLength(MAX_VIEWING_PER_SOCKET);
    expect(next[0]).toBe('id-1');
    expect(next.at(-1)).toBe(A);
  });

  it('stopViewing removes only that incident', () => {
    expect(stopViewing([A, B], A)).toEqual([B]);
    expect(stopViewing(undefined, A)).toEqual([]);
  });

  it('viewersOf counts a user with two tabs once and ignores sockets viewing something else', () => {
    const sockets = [
      { userId: 'ann', viewing: [A] },
      { userId: 'bob', viewing: [B] },
      { userId: 'ann', viewing: [A, B] },
      { userId: 'cat', viewing: [A] },
      { userId: 'dan' },
    ];
    expect(viewersOf(sockets, A)).toEqual(['ann', 'cat']);
    expect(viewersOf(sockets, B)).toEqual(['bob', 'ann']);
    expect(viewersOf(sockets, 'nobody-views-this')).toEqual([]);
  });

  it('a socket that is gone (disconnected) no longer counts', () => {
    const sockets = [
      { userId: 'ann', viewing: [A] },
      { userId: 'bob', viewing: [A] },
    ];
    expect(viewersOf(sockets.slice(1), A)).toEqual(['bob']);
  });

  it('presenceByIncident lists each viewed incident with its distinct viewers', () => {
    const byIncident = presenceByIncident([
      { userId: 'ann', viewing: [A, B] },
      { userId: 'bob', viewing: [A] },
      { userId: 'ann', viewing: [A] },
      { userId: 'cat', viewing: [] },
    ]);
    expect([...byIncident]).toEqual([
      [A, ['ann', 'bob']],
      [B, ['ann']],
    ]);
  });
});
