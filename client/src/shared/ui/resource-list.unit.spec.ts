import { describe, expect, it } from '@jest/globals';
import { emptyMessage, filtersKey, opensRow } from './resource-list';

describe('ResourceListPage rules', () => {
  it('says "no match" only while a search is typed', () => {
    const empty = { none: 'No networks yet', search: 'No networks match the search' };
    expect(emptyMessage(empty, '')).toBe('No networks yet');
    expect(emptyMessage(empty, '   ')).toBe('No networks yet');
    expect(emptyMessage(empty, 'north')).toBe('No networks match the search');
    expect(emptyMessage({ none: 'Nothing here' }, 'north')).toBe('Nothing here');
  });

  it('opens a focused row on Enter or Space, not on keys meant for a control inside it', () => {
    const row = {};
    expect(opensRow({ key: 'Enter', target: row, currentTarget: row })).toBe(true);
    expect(opensRow({ key: ' ', target: row, currentTarget: row })).toBe(true);
    expect(opensRow({ key: 'a', target: row, currentTarget: row })).toBe(false);
    expect(opensRow({ key: 'Enter', target: { button: true }, currentTarget: row })).toBe(false);
  });

  it('keys filters by value, so a new object with the same filters keeps the page', () => {
    expect(filtersKey({ status: ['open'], type_id: undefined })).toBe(filtersKey({ status: ['open'] }));
    expect(filtersKey({ a: 1, b: 2 })).toBe(filtersKey({ b: 2, a: 1 }));
    expect(filtersKey({ status: ['open'] })).not.toBe(filtersKey({ status: ['closed'] }));
    expect(filtersKey(undefined)).toBe('');
  });
});
