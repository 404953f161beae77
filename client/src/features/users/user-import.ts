import type { ImportProgress } from '@portal/projections/live-contract';
import { ApiError } from '../../shared/api/client';
import type { ListType } from './api';

/**
 * The CSV user import as the server reads it (server/src/identity/csv/import-rows.ts, ADR 0019):
 * a header row naming the columns in any order, one user per row, at most 5 MB and 10,000 rows.
 */

export const MAX_IMPORT_BYTES = 5 * 1024 * 1024;
export const MAX_IMPORT_ROWS = 10_000;

export interface ImportColumn {
  name: string;
  required: boolean;
  description: string;
  /** A value for the template's example row. */
  example: string;
}

const COMMON_HEAD: ImportColumn[] = [
  { name: 'first_name', required: true, description: 'At most 100 characters', example: 'Alex' },
  { name: 'last_name', required: true, description: 'At most 100 characters', example: 'Example' },
  {
    name: 'email',
    required: true,
    description: 'A valid e-mail address; also the login unless login is given',
    example: 'alex.example@example.com',
  },
];

const COMMON_TAIL: ImportColumn[] = [
  { name: 'login', required: false, description: 'Defaults to the e-mail address', example: '' },
  { name: 'timezone', required: false, description: 'e.g. Europe/London', example: 'Europe/London' },
  { name: 'notes', required: false, description: 'At most 10,000 characters', example: '' },
];

const TYPE_VALUE: Record<ListType, string> = {
  students: 'student',
  teachers: 'teacher',
  partners: 'partner',
  admins: 'super_admin',
};

/** The columns a file for this list type uses, in template order. */
export function importColumnsFor(type: ListType): ImportColumn[] {
  const typeColumn: ImportColumn = {
    name: 'type',
    required: true,
    description: `${TYPE_VALUE[type]} (or ${type}) for every row of this import`,
    example: TYPE_VALUE[type],
  };
  const customer: ImportColumn[] =
    type === 'students' || type === 'partners'
      ? [
          {
            name: 'customer_id',
            required: true,
            description: 'The customer’s id (a UUID, shown on the customer’s page)',
            example: '00000000-0000-0000-0000-000000000000',
          },
        ]
      : [];
  const role: ImportColumn[] =
    type === 'partners'
      ? [
          {
            name: 'customer_type',
            required: true,
            description: 'super-admin, admin, link-contact or parent',
            example: 'link-contact',
          },
        ]
      : [];
  return [...COMMON_HEAD, typeColumn, ...customer, ...role, ...COMMON_TAIL];
}

/** One CSV field, quoted when it holds a comma, quote or line break. */
export function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** A template file: the header row and one example row to overwrite. */
export function templateCsv(type: ListType): string {
  const columns = importColumnsFor(type);
  return [columns.map((c) => c.name), columns.map((c) => c.example)]
    .map((row) => row.map(csvField).join(','))
    .join('\r\n')
    .concat('\r\n');
}

/** Why a chosen file cannot be uploaded, or null when it may be. */
export function fileProblem(file: { name: string; size: number; type: string }): string | null {
  const csvType = file.type === '' || /csv|comma-separated|excel|text\/plain/i.test(file.type);
  if (!/\.csv$/i.test(file.name) || !csvType)
    return `“${file.name}” is not a CSV file. Save the spreadsheet as CSV (comma separated, UTF-8) and choose that file.`;
  if (file.size === 0) return `“${file.name}” is empty.`;
  if (file.size > MAX_IMPORT_BYTES)
    return `“${file.name}” is ${(file.size / 1024 / 1024).toFixed(1)} MB; an import takes at most 5 MB (and 10,000 rows). Split the file.`;
  return null;
}

/** Whole percent of rows handled, 0–100. */
export function progressPercent(progress: Pick<ImportProgress, 'done' | 'total'> | null): number {
  if (!progress || progress.total <= 0) return 0;
  return Math.min(100, Math.max(0, Math.round((progress.done / progress.total) * 100)));
}

export interface RowError {
  row: number;
  column: string;
  reason: string;
}

/** The per-row errors of a refused import (422 `errors: [{row, column, reason}]`), or null. */
export function rowErrorsOf(error: unknown): RowError[] | null {
  if (!(error instanceof ApiError) || error.status !== 422) return null;
  const body = error.body as { errors?: unknown } | undefined;
  if (!body || !Array.isArray(body.errors)) return null;
  const rows = body.errors.filter(
    (e): e is RowError =>
      typeof e === 'object' &&
      e !== null &&
      typeof (e as RowError).row === 'number' &&
      typeof (e as RowError).column === 'string' &&
      typeof (e as RowError).reason === 'string',
  );
  return rows.length > 0 ? rows : null;
}

/** A random UUID v4 for `import_id` (crypto.randomUUID needs a secure context; this does not). */
export function newImportId(): string {
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const hex = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
