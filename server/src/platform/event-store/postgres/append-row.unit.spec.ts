import { describe, expect, it } from '@jest/globals';
import { appendRowOf } from './postgres-event-store.js';

describe("appendRowOf: es_append's record in PostgreSQL's text form", () => {
  it('reads each status with its revision and position', () => {
    expect(appendRowOf('(ok,5,1234)')).toEqual({ status: 'ok', out_revision: '5', out_position: '1234' });
    expect(appendRowOf('(idempotent,0,17)')).toEqual({
      status: 'idempotent',
      out_revision: '0',
      out_position: '17',
    });
    // A conflict on a stream that does not exist: revision -1.
    expect(appendRowOf('(conflict,-1,0)')).toEqual({
      status: 'conflict',
      out_revision: '-1',
      out_position: '0',
    });
    expect(appendRowOf('(duplicate_id,3,0)').status).toBe('duplicate_id');
  });

  it('refuses a record of any other shape instead of guessing', () => {
    for (const text of ['(ok,,17)', 'ok,5,17', '(ok,5)', '("ok",5,17)', '(ok,5,17,1)', ''])
      expect(() => appendRowOf(text)).toThrow(/unexpected record/);
  });
});
