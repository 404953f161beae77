import { describe, expect, it } from '@jest/globals';
import { ApiError } from '../../shared/api/client';
import {
  MAX_IMPORT_BYTES,
  csvField,
  fileProblem,
  importColumnsFor,
  newImportId,
  progressPercent,
  rowErrorsOf,
  templateCsv,
} from './user-import';

describe('import template', () => {
  it('students need a customer; partners a customer and role; teachers and admins neither', () => {
    const names = (t: Parameters<typeof importColumnsFor>[0]) => importColumnsFor(t).map((c) => c.name);
    expect(names('students')).toEqual([
      'first_name',
      'last_name',
      'email',
      'type',
      'customer_id',
      'login',
      'timezone',
      'notes',
    ]);
    expect(names('partners')).toContain('customer_type');
    expect(names('teachers')).not.toContain('customer_id');
    expect(names('admins')).not.toContain('customer_type');
    const required = importColumnsFor('partners').filter((c) => c.required);
    expect(required.map((c) => c.name)).toEqual([
      'first_name',
      'last_name',
      'email',
      'type',
      'customer_id',
      'customer_type',
    ]);
  });

  it('is a header row and an example row with the type the server expects', () => {
    const lines = templateCsv('admins').trimEnd().split('\r\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toBe('first_name,last_name,email,type,login,timezone,notes');
    expect(lines[1]!.split(',')[3]).toBe('super_admin');
    expect(templateCsv('students').split('\r\n')[1]).toContain(',student,');
  });

  it('quotes fields holding commas, quotes or line breaks', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
  });
});

describe('choosing a file', () => {
  it('accepts a CSV up to 5 MB', () => {
    expect(fileProblem({ name: 'users.csv', size: 1200, type: 'text/csv' })).toBeNull();
    expect(fileProblem({ name: 'USERS.CSV', size: MAX_IMPORT_BYTES, type: '' })).toBeNull();
    // Windows reports CSV files as an Excel type.
    expect(fileProblem({ name: 'users.csv', size: 10, type: 'application/vnd.ms-excel' })).toBeNull();
  });

  it('refuses other files, empty files and files over 5 MB, saying why', () => {
    expect(fileProblem({ name: 'users.xlsx', size: 10, type: 'application/vnd.openxml' })).toMatch(
      /not a CSV file/,
    );
    expect(fileProblem({ name: 'photo.csv', size: 10, type: 'image/png' })).toMatch(/not a CSV file/);
    expect(fileProblem({ name: 'users.csv', size: 0, type: 'text/csv' })).toMatch(/empty/);
    expect(fileProblem({ name: 'big.csv', size: MAX_IMPORT_BYTES + 1, type: 'text/csv' })).toMatch(
      /5\.0 MB; an import takes at most 5 MB/,
    );
  });
});

describe('progress', () => {
  it('is the whole percent of rows handled, 0 before any message', () => {
    expect(progressPercent(null)).toBe(0);
    expect(progressPercent({ done: 0, total: 60 })).toBe(0);
    expect(progressPercent({ done: 25, total: 60 })).toBe(42);
    expect(progressPercent({ done: 60, total: 60 })).toBe(100);
    expect(progressPercent({ done: 0, total: 0 })).toBe(0);
    expect(progressPercent({ done: 70, total: 60 })).toBe(100);
  });
});

describe('row errors', () => {
  const refused = (body: unknown, status = 422) => new ApiError(status, 'x', body, 'failed');

  it('reads the 422 rows (row, column, reason)', () => {
    const errors = [{ row: 3, column: 'email', reason: 'is not a valid e-mail address' }];
    expect(rowErrorsOf(refused({ detail: '1 error(s)', errors }))).toEqual(errors);
  });

  it('is null for other answers: file-level 422, validation errors, other statuses', () => {
    expect(rowErrorsOf(refused({ detail: 'file: missing column(s) email' }))).toBeNull();
    expect(rowErrorsOf(refused({ errors: [{ field: 'import_id', message: 'must be a UUID' }] }))).toBeNull();
    expect(rowErrorsOf(refused({ errors: [{ row: 2, column: 'x', reason: 'y' }] }, 413))).toBeNull();
    expect(rowErrorsOf(new Error('offline'))).toBeNull();
  });
});

describe('import id', () => {
  it('is a version 4 UUID, different each time', () => {
    const id = newImportId();
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(newImportId()).not.toBe(id);
  });
});
