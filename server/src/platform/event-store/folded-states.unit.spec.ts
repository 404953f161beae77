import { describe, expect, it } from '@jest/globals';
import type { RecordedEvent } from './event-store.js';
import { FoldedStates } from './folded-states.js';

const event = (revision: number): RecordedEvent => ({
  id: `e${revision}`,
  stream: 's',
  revision: BigInt(revision),
  position: BigInt(revision + 1),
  type: 'Added',
  data: { by: 1 },
  metadata: { actorId: null, occurredAt: '2026-11-28T00:00:00Z' },
  createdAt: new Date(0),
});

describe('FoldedStates', () => {
  it('forgets the least recently used stream of an aggregate beyond its bound, and only of that aggregate', () => {
    const states = new FoldedStates(2);
    const a = {};
    const b = {};
    states.keep(a, 's1', { state: 1, last: event(0) });
    states.keep(a, 's2', { state: 2, last: event(0) });
    states.keep(b, 's1', { state: 10, last: event(0) });
    expect(states.get(a, 's1')?.state).toBe(1);
    states.keep(a, 's3', { state: 3, last: event(0) });
    expect(states.get(a, 's2')).toBeUndefined();
    expect(states.get(a, 's1')?.state).toBe(1);
    expect(states.get(a, 's3')?.state).toBe(3);
    expect(states.get(b, 's1')?.state).toBe(10);
    states.forget(a, 's1');
    expect(states.get(a, 's1')).toBeUndefined();
  });

  it('hands out copies: changing a state it gave or kept changes nothing it keeps', () => {
    const states = new FoldedStates();
    const kind = {};
    const kept = { items: [1], map: new Map([['k', { n: 1 }]]), at: new Date(5) };
    states.keep(kind, 's', { state: kept, last: event(0) });
    kept.items.push(2);
    const first = states.get(kind, 's')!.state as typeof kept;
    expect(first).toEqual({ items: [1], map: new Map([['k', { n: 1 }]]), at: new Date(5) });
    first.items.push(3);
    first.map.get('k')!.n = 2;
    expect(states.get(kind, 's')!.state).toEqual({
      items: [1],
      map: new Map([['k', { n: 1 }]]),
      at: new Date(5),
    });
  });

  it('does not keep a state it cannot copy, and forgets the one it had', () => {
    const states = new FoldedStates();
    const kind = {};
    states.keep(kind, 's', { state: 1, last: event(0) });
    states.keep(kind, 's', { state: { f: () => 1 }, last: event(1) });
    expect(states.get(kind, 's')).toBeUndefined();
  });
});
