import { describe, expect, it } from '@jest/globals';
import { ariaSortOf } from './aria-sort';

describe('aria-sort of a header cell', () => {
  it('follows the sort icon of a sortable column', () => {
    expect(ariaSortOf(['Sorted ascending'])).toBe('ascending');
    expect(ariaSortOf(['Toggle column', 'Sorted descending'])).toBe('descending');
    expect(ariaSortOf(['Not sorted'])).toBe('none');
  });

  it('is left out on a column that cannot be sorted', () => {
    expect(ariaSortOf([])).toBeNull();
    expect(ariaSortOf(['Toggle column'])).toBeNull();
  });
});
