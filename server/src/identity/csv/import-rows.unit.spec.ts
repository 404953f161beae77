import { describe, expect, it } from '@jest/globals';
import { ImportFileError, MAX_IMPORT_ROWS, parseImportFile, validateImport } from './import-rows.js';
import { csvCell } from './tabular.js';

const CUSTOMER = '11111111-1111-4111-8111-111111111111';
const noDenial = () => null;

describe('csvCell (CSV injection, OWASP)', () => {
  it.each([
    ['=1+1', "'=1+1"],
    ['+44 7700', "'+44 7700"],
    ['-2', "'-2"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['\tx', "'\tx"],
    ['Ann', 'Ann'],
    ['a=b', 'a=b'],
  ])('%j → %j', (value, expected) => expect(csvCell(value)).toBe(expected));

  it('leaves numbers, booleans and empty values alone', () => {
    expect(csvCell(-3)).toBe('-3');
    expect(csvCell(true)).toBe('true');
    expect(csvCell(null)).toBe('');
    expect(csvCell(new Date('2026-01-02T03:04:05Z'))).toBe('2026-01-02T03:04:05.000Z');
  });
});

describe('parseImportFile', () => {
  it('reads a header in any order and case, with a BOM, numbering rows as a spreadsheet does', () => {
    const rows = parseImportFile('\uFEFFEmail, TYPE ,first_name,last_name\r\na@example.com,teacher,A,B\r\n');
    expect(rows).toEqual([
      { row: 2, values: { email: 'a@example.com', type: 'teacher', first_name: 'A', last_name: 'B' } },
    ]);
  });

  it.each([
    ['', /empty/],
    ['first_name,last_name,email\nA,B,a@example.com', /missing column\(s\) type/],
    ['first_name,last_name,email,type,age\n', /unknown column\(s\) age/],
    ['first_name,last_name,email,type\n', /no user rows/],
    ['first_name,last_name,email,type\n"unterminated', /not a readable CSV/],
  ])('refuses %j', (content, detail) => {
    expect(() => parseImportFile(content)).toThrow(detail);
  });

  it('refuses more than the row limit as too large', () => {
    const csv =
      'first_name,last_name,email,type\n' + 'A,B,a@example.com,teacher\n'.repeat(MAX_IMPORT_ROWS + 1);
    try {
      parseImportFile(csv);
      throw new Error('accepted');
    } catch (e) {
      expect(e).toBeInstanceOf(ImportFileError);
      expect((e as ImportFileError).tooLarge).toBe(true);
    }
  });
});

describe('validateImport', () => {
  const rows = parseImportFile(
    [
      'first_name,last_name,email,type,customer_id,customer_type,timezone',
      `Ann,Apple,ann@example.com,students,${CUSTOMER},,`,
      `Pat,Partner,pat@example.com,partner,${CUSTOMER},,Mars/Base`,
      'Tom,Teacher,ANN@example.com,teacher,,,',
    ].join('\n'),
  );

  it('lists every problem with row, column and reason', () => {
    const result = validateImport(rows, {
      existingLogins: new Set(),
      skipDuplicates: false,
      denial: noDenial,
    });
    expect(result.errors).toEqual([
      { row: 3, column: 'timezone', reason: 'is not a known time zone (e.g. Europe/London)' },
      { row: 3, column: 'customer_type', reason: 'is required for partner users' },
      { row: 4, column: 'email', reason: 'login ann@example.com repeats row 2' },
    ]);
    expect(result.users.map((u) => u.user)).toEqual([
      expect.objectContaining({ email: 'ann@example.com', user_type: 'student', customer_id: CUSTOMER }),
    ]);
  });

  it('refuses control characters in any cell (notes keep their line breaks)', () => {
    const parsed = parseImportFile(
      [
        'first_name,last_name,email,type,notes',
        'Nul\u0000,Apple,nul@example.com,teacher,',
        'Tab,Apple,tab@example.com,teacher,"line one\n\tline two"',
        'Esc,Apple,esc@example.com,teacher,\u001b[31m',
      ].join('\n'),
    );
    const result = validateImport(parsed, {
      existingLogins: new Set(),
      skipDuplicates: false,
      denial: noDenial,
    });
    expect(result.errors).toEqual([
      { row: 2, column: 'first_name', reason: 'must not contain control characters' },
      { row: 4, column: 'notes', reason: 'must not contain control characters' },
    ]);
    expect(result.users.map((u) => u.user.notes)).toEqual(['line one\n\tline two']);
  });

  it('skips repeated and existing logins with skipDuplicates, and applies the caller’s permission', () => {
    const result = validateImport([rows[0]!, rows[2]!], {
      existingLogins: new Set(['ann@example.com']),
      skipDuplicates: true,
      denial: noDenial,
    });
    expect(result).toEqual({ users: [], skipped: 2, errors: [] });
    const denied = validateImport([rows[0]!], {
      existingLogins: new Set(),
      skipDuplicates: false,
      denial: (u) => (u.user_type === 'student' ? 'not allowed' : null),
    });
    expect(denied.errors).toEqual([{ row: 2, column: 'type', reason: 'not allowed' }]);
  });
});
