import { describe, expect, it } from '@jest/globals';
import { containsPattern, filters, listPage, pageOf, sortOf, type Queryable } from './list-query.js';

describe('list query', () => {
  it('builds a WHERE clause with bound parameters, skipping absent filters', () => {
    const f = filters()
      .eq('id', 'x')
      .eq('customer_id', undefined)
      .any('status', ['open', 'closed'])
      .any('risk_level', [])
      .contains('name', '50%_off')
      .contains('email', '')
      .jsonHas('type_ids', 't1')
      .range('occurred_at', '2026-01-01', undefined, '::timestamptz')
      .raw((p) => `(owner = ${p('me')} OR public)`)
      .rawIf(false, 'never');
    expect(f.sql).toBe(
      'WHERE id = $1 AND status = ANY($2::text[]) AND name ILIKE $3 AND type_ids @> $4::jsonb' +
        ' AND occurred_at >= $5::timestamptz AND (owner = $6 OR public)',
    );
    expect(f.params).toEqual(['x', ['open', 'closed'], '%50\\%\\_off%', '["t1"]', '2026-01-01', 'me']);
    expect(filters().sql).toBe('');
  });

  it('sorts only by whitelisted keys, with a tie-break', () => {
    const keys = ['name', 'created_at'] as const;
    expect(sortOf('created_at', keys, 'name', { descending: true })).toBe('created_at DESC, id ASC');
    expect(sortOf('password; DROP TABLE x', keys, 'name')).toBe('name ASC, id ASC');
    expect(sortOf(undefined, keys, 'name', { expressions: { name: 'lower(name)' }, tieBreak: 'id' })).toBe(
      'lower(name) ASC, id',
    );
  });

  it('pages with the spec defaults and counts the matches', async () => {
    expect(pageOf({})).toEqual({ page: 1, size: 50 });
    expect(containsPattern('a\\b')).toBe('%a\\\\b%');
    const seen: [string, unknown[] | undefined][] = [];
    const db: Queryable = {
      query: <Row>(sql: string, params?: unknown[]) => {
        seen.push([sql.replace(/\s+/g, ' '), params]);
        const rows = sql.includes('count(*)') ? [{ total: '7' }] : [{ id: 'a' }, { id: 'b' }];
        return Promise.resolve({ rows: rows as Row[] });
      },
    };
    const page = await listPage<{ id: string }, string>(db, {
      from: 'rm_things',
      where: filters().eq('kind', 'k'),
      orderBy: 'id',
      page: 3,
      size: 2,
      map: (r) => r.id,
    });
    expect(page).toEqual({ items: ['a', 'b'], total: 7, page: 3, size: 2 });
    expect(seen).toEqual([
      ['SELECT count(*)::text AS total FROM rm_things WHERE kind = $1', ['k']],
      ['SELECT * FROM rm_things WHERE kind = $1 ORDER BY id LIMIT 2 OFFSET 4', ['k']],
    ]);
    await expect(listPage(db, { from: 't', orderBy: 'id', size: 1.5 })).rejects.toThrow(RangeError);
  });
});
