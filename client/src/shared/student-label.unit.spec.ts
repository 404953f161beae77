import { describe, expect, it } from '@jest/globals';
import { studentLabel } from './student-label';

describe('studentLabel', () => {
  it('puts the school and year group beside the name, leaving out what is unknown', () => {
    expect(studentLabel({ name: 'Ada Lovelace', school: 'Oakfield', year_group: 'Year 9' })).toBe(
      'Ada Lovelace (Oakfield, Year 9)',
    );
    expect(studentLabel({ name: 'Ada Lovelace', school: 'Oakfield', year_group: null })).toBe(
      'Ada Lovelace (Oakfield)',
    );
    expect(studentLabel({ name: 'Ada Lovelace' })).toBe('Ada Lovelace');
  });
});
