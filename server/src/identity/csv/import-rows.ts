import { parse } from 'csv-parse/sync';
import { z } from 'zod';
import { CUSTOMER_ROLES, USER_TYPES, type CustomerRole, type UserType } from '../policy/policy.js';
import { DomainError } from '../../platform/domain/domain-error.js';
import { hasControlCharacters } from '../../platform/http/validation.js';
import { loginOf, type NewUser } from '../user-creation.js';

/**
 * The user import file (docs/decisions/0019): CSV, UTF-8 (a BOM is accepted), comma separated, a header
 * row naming the columns in any order (case and surrounding spaces ignored), one user per row.
 */
export const IMPORT_COLUMNS = [
  'first_name',
  'last_name',
  'email',
  'type',
  'customer_id',
  'customer_type',
  'login',
  'timezone',
  'notes',
] as const;
export type ImportColumn = (typeof IMPORT_COLUMNS)[number];
export const REQUIRED_COLUMNS: readonly ImportColumn[] = ['first_name', 'last_name', 'email', 'type'];

export const MAX_IMPORT_BYTES = 5 * 1024 * 1024;
export const MAX_IMPORT_ROWS = 10_000;

/** `type` values: the user types, and the list filter's plural names as aliases. */
const TYPE_ALIASES: Record<string, UserType> = {
  ...Object.fromEntries(USER_TYPES.map((t) => [t, t])),
  students: 'student',
  teachers: 'teacher',
  partners: 'partner',
  admins: 'super_admin',
};

export interface RowError {
  /** Line in the file: the header is row 1, the first user row 2 (as a spreadsheet numbers them). */
  row: number;
  column: string;
  reason: string;
}

/** The file itself cannot be read (not CSV, no header, unknown or missing columns, too many rows). */
export class ImportFileError extends DomainError {
  override readonly name = 'ImportFileError';
  constructor(
    detail: string,
    readonly tooLarge = false,
  ) {
    super(tooLarge ? 'too_large' : 'invalid', detail);
  }
}

export interface ParsedRow {
  row: number;
  values: Partial<Record<ImportColumn, string>>;
}

export function parseImportFile(content: Buffer | string): ParsedRow[] {
  let records: Record<string, string>[];
  let headers: string[] = [];
  try {
    records = parse<Record<string, string>>(content, {
      bom: true,
      columns: (header: string[]) => (headers = header.map((h) => h.trim().toLowerCase())),
      skip_empty_lines: true,
      trim: true,
      to_line: MAX_IMPORT_ROWS + 2,
    });
  } catch (e) {
    throw new ImportFileError(
      `file: not a readable CSV file (${e instanceof Error ? e.message : String(e)})`,
    );
  }
  if (headers.length === 0) throw new ImportFileError('file: empty (a header row is required)');
  const unknown = headers.filter((h) => !(IMPORT_COLUMNS as readonly string[]).includes(h));
  if (unknown.length)
    throw new ImportFileError(
      `file: unknown column(s) ${unknown.join(', ')} (known: ${IMPORT_COLUMNS.join(', ')})`,
    );
  const missing = REQUIRED_COLUMNS.filter((c) => !headers.includes(c));
  if (missing.length) throw new ImportFileError(`file: missing column(s) ${missing.join(', ')}`);
  if (records.length > MAX_IMPORT_ROWS)
    throw new ImportFileError(
      `file: at most ${MAX_IMPORT_ROWS.toLocaleString('en-GB')} rows per import`,
      true,
    );
  if (records.length === 0) throw new ImportFileError('file: no user rows after the header');
  return records.map((values, i) => ({ row: i + 2, values }));
}

const isTimeZone = (tz: string) => {
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
};

const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (v === '' || v === undefined ? undefined : v), schema.optional());

const rowSchema = z
  .object({
    first_name: z.string().min(1, 'is required').max(100, 'is longer than 100 characters'),
    last_name: z.string().min(1, 'is required').max(100, 'is longer than 100 characters'),
    email: z.string().min(1, 'is required').max(320).pipe(z.email('is not a valid e-mail address')),
    type: z
      .string()
      .min(1, 'is required')
      .transform((t, ctx) => {
        const type = TYPE_ALIASES[t.toLowerCase()];
        if (!type) {
          ctx.addIssue({ code: 'custom', message: `must be one of ${USER_TYPES.join(', ')}` });
          return z.NEVER;
        }
        return type;
      }),
    customer_id: optional(z.uuid('must be a UUID').transform((id) => id.toLowerCase())),
    customer_type: optional(
      z.string().refine((t) => (CUSTOMER_ROLES as readonly string[]).includes(t), {
        message: `must be one of ${CUSTOMER_ROLES.join(', ')}`,
      }),
    ),
    login: optional(z.string().max(320, 'is longer than 320 characters')),
    timezone: optional(z.string().refine(isTimeZone, 'is not a known time zone (e.g. Europe/London)')),
    notes: optional(z.string().max(10_000, 'is longer than 10,000 characters')),
  })
  .superRefine((r, ctx) => {
    if ((r.type === 'student' || r.type === 'partner') && !r.customer_id)
      ctx.addIssue({ code: 'custom', path: ['customer_id'], message: `is required for ${r.type} users` });
    if (r.type === 'partner' && !r.customer_type)
      ctx.addIssue({ code: 'custom', path: ['customer_type'], message: 'is required for partner users' });
  });

export interface ValidatedImport {
  users: { row: number; user: NewUser }[];
  skipped: number;
  errors: RowError[];
}

/**
 * Checks every row: fields, then logins repeated in the file or already taken (skipped instead with
 * `skipDuplicates`), then whether the caller may create that user (`denial`, a reason or null).
 */
export function validateImport(
  rows: readonly ParsedRow[],
  options: {
    existingLogins: ReadonlySet<string>;
    skipDuplicates: boolean;
    denial: (user: NewUser) => string | null;
  },
): ValidatedImport {
  const errors: RowError[] = [];
  const users: { row: number; user: NewUser }[] = [];
  const seen = new Map<string, number>();
  let skipped = 0;
  for (const { row, values } of rows) {
    // As in every other input (docs/decisions/0038): no control characters; notes keep line breaks.
    const controls = Object.entries(values).filter(
      ([column, value]) => value !== undefined && hasControlCharacters(value, column === 'notes'),
    );
    if (controls.length > 0) {
      for (const [column] of controls)
        errors.push({ row, column, reason: 'must not contain control characters' });
      continue;
    }
    const parsed = rowSchema.safeParse(values);
    if (!parsed.success) {
      for (const issue of parsed.error.issues)
        errors.push({ row, column: String(issue.path[0] ?? 'row'), reason: issue.message });
      continue;
    }
    const r = parsed.data;
    const user: NewUser = {
      email: r.email,
      login: r.login,
      first_name: r.first_name,
      last_name: r.last_name,
      user_type: r.type,
      customer_id: r.customer_id,
      customer_type: r.type === 'partner' ? (r.customer_type as CustomerRole) : undefined,
      timezone: r.timezone,
      notes: r.notes,
    };
    const login = loginOf(user);
    const column = r.login ? 'login' : 'email';
    const earlier = seen.get(login);
    if (earlier !== undefined || options.existingLogins.has(login)) {
      if (options.skipDuplicates) {
        skipped++;
        continue;
      }
      errors.push({
        row,
        column,
        reason:
          earlier !== undefined
            ? `login ${login} repeats row ${earlier}`
            : `a user with login ${login} already exists`,
      });
      continue;
    }
    seen.set(login, row);
    const denied = options.denial(user);
    if (denied) {
      errors.push({ row, column: 'type', reason: denied });
      continue;
    }
    users.push({ row, user });
  }
  return { users, skipped, errors };
}
