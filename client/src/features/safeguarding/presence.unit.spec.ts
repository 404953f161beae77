import { describe, expect, it } from '@jest/globals';
import { applyPresence, presenceFromList } from './presence';

const ada = { userId: 'u-ada', name: 'Ada Lovelace' };
const ben = { userId: 'u-ben', name: 'Ben Carter' };

describe('presence store', () => {
  it('a presence message replaces that incident’s viewers and leaves the others', () => {
    const before = { i1: [ada], i2: [ben] };
    expect(applyPresence(before, { incidentId: 'i1', viewers: [ada, ben] })).toEqual({
      i1: [ada, ben],
      i2: [ben],
    });
  });

  it('nobody viewing removes the incident', () => {
    expect(applyPresence({ i1: [ada], i2: [ben] }, { incidentId: 'i1', viewers: [] })).toEqual({ i2: [ben] });
  });

  it('the list answer becomes the whole store', () => {
    expect(
      presenceFromList([
        { incidentId: 'i1', viewers: [ada] },
        { incidentId: 'i2', viewers: [] },
      ]),
    ).toEqual({ i1: [ada] });
  });
});
