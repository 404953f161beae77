import { describe, expect, it } from '@jest/globals';
import { halfOfTerm } from './family.queries.js';

describe('halfOfTerm: the half of a term a day falls in', () => {
  const autumn = { name: 'Autumn', from: '2026-09-02', to: '2026-12-18' };
  const withBreak = { ...autumn, breaks: ['2026-10-28', '2026-10-26', '2026-10-30'] };

  it('splits the term at its half-term break', () => {
    expect(halfOfTerm(withBreak, '2026-09-15')).toEqual({
      name: 'Autumn 1',
      from: '2026-09-02',
      to: '2026-10-25',
      source: 'term',
    });
    expect(halfOfTerm(withBreak, '2026-11-02')).toEqual({
      name: 'Autumn 2',
      from: '2026-10-31',
      to: '2026-12-18',
      source: 'term',
    });
  });

  it('gives a day inside the break the first half', () => {
    expect(halfOfTerm(withBreak, '2026-10-28').name).toBe('Autumn 1');
  });

  it('keeps a term without a break whole', () => {
    expect(halfOfTerm({ ...autumn, breaks: [] }, '2026-11-02')).toEqual({ ...autumn, source: 'term' });
  });
});
