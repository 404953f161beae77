import { describe, expect, it } from '@jest/globals';
import { clampPage, pageCount, pageWindow } from './pagination';

describe('pagination (spec §5, §9)', () => {
  it('links five pages around the current one, kept inside the range', () => {
    expect(pageWindow(1, 20)).toEqual([1, 2, 3, 4, 5]);
    expect(pageWindow(7, 20)).toEqual([5, 6, 7, 8, 9]);
    expect(pageWindow(20, 20)).toEqual([16, 17, 18, 19, 20]);
    expect(pageWindow(2, 3)).toEqual([1, 2, 3]);
    expect(pageWindow(1, 1)).toEqual([1]);
  });

  it('counts at least one page', () => {
    expect(pageCount(0, 10)).toBe(1);
    expect(pageCount(10, 10)).toBe(1);
    expect(pageCount(11, 10)).toBe(2);
  });

  it('goes back to page 1 when the total shrinks below the current page', () => {
    expect(clampPage(3, 25, 10)).toBe(3);
    expect(clampPage(3, 20, 10)).toBe(1);
    expect(clampPage(1, 0, 10)).toBe(1);
  });
});
