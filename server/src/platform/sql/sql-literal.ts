import { types } from 'node:util';

/**
 * A parameter value as a SQL literal, converted as `pg` converts a parameter for the extended
 * protocol (null; bytes as bytea hex; a Date as its instant; an array as an array literal; JSON for
 * other objects; `String()` for the rest), then quoted with `pg.escapeLiteral`. The literal is untyped
 * ('...'), as a parameter sent with type 0 is, so the server resolves its type from the statement in
 * the same way.
 */
export function sqlLiteral(value: unknown): string {
  const text = prepared(value);
  return text === null ? 'NULL' : escapeLiteral(text);
}

/**
 * `pg.escapeLiteral` without building the result a character at a time (it runs for every value of
 * every statement a rebuild inlines): quotes doubled, and, when there is a backslash, backslashes
 * doubled and the literal written as E'...' after a space. The same text as `pg.escapeLiteral`.
 */
export function escapeLiteral(text: string): string {
  const quoted = text.includes("'") ? text.replace(/'/g, "''") : text;
  return text.includes('\\') ? ` E'${quoted.replace(/\\/g, '\\\\')}'` : `'${quoted}'`;
}

/**
 * `params` as they are now: each object (a JSON value, an array, a Date, bytes) replaced by the text
 * `sqlLiteral` would quote, so a caller changing the object afterwards cannot change a statement that
 * is inlined later; `sqlLiteral` of the result is the same as of `params`.
 */
export function snapshotParams(params: readonly unknown[] | undefined): readonly unknown[] {
  if (!params || params.length === 0) return [];
  const copy = params.slice();
  for (let i = 0; i < copy.length; i++) {
    const value = copy[i];
    if (typeof value === 'object' && value !== null) copy[i] = prepared(value);
  }
  return copy;
}

function prepared(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean')
    return String(value);
  if (typeof value !== 'object') throw new TypeError(`A ${typeof value} cannot be a SQL parameter`);
  if (ArrayBuffer.isView(value)) return `\\x${bytesHex(value)}`;
  // isDate, not instanceof: a row's Date may come from another realm (the PGlite worker's rows under jest).
  if (types.isDate(value)) return value.toISOString();
  if (Array.isArray(value)) return arrayLiteral(value);
  return JSON.stringify(value);
}

const bytesHex = (view: ArrayBufferView) =>
  Buffer.from(view.buffer, view.byteOffset, view.byteLength).toString('hex');

/** `pg`'s array literal: `{"a","b",NULL,{...}}` with backslash escapes inside elements. */
function arrayLiteral(items: readonly unknown[]): string {
  const parts = items.map((item) => {
    if (item === null || item === undefined) return 'NULL';
    if (Array.isArray(item)) return arrayLiteral(item);
    if (ArrayBuffer.isView(item)) return `"\\\\x${bytesHex(item)}"`;
    const text = prepared(item) ?? '';
    return `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
  });
  return `{${parts.join(',')}}`;
}

/**
 * `sql` with each placeholder `$n` replaced by the literal of `params[n-1]`, for statements sent
 * several at a time through the simple query protocol (which takes no parameters). Placeholders are
 * only recognised outside string literals, quoted identifiers, dollar-quoted bodies and comments.
 * Throws when a placeholder has no parameter.
 */
export function inlineParams(sql: string, params: readonly unknown[] = []): string {
  if (params.length === 0 && !sql.includes('$')) return sql;
  const parts = splitAtPlaceholders(sql);
  let out = parts[0] as string;
  for (let k = 1; k < parts.length; k += 2) {
    const index = parts[k] as number;
    if (index < 0 || index >= params.length) throw new Error(`No parameter for $${index + 1}`);
    out += sqlLiteral(params[index]) + (parts[k + 1] as string);
  }
  return out;
}

/**
 * The number of parameters the server gives `sql` when it is prepared: its highest placeholder
 * (`$3` alone means three, two of them unused). Placeholders in quotes or comments do not count.
 */
export function placeholderCount(sql: string): number {
  const parts = splitAtPlaceholders(sql);
  let highest = 0;
  for (let k = 1; k < parts.length; k += 2) highest = Math.max(highest, (parts[k] as number) + 1);
  return highest;
}

function splitAtPlaceholders(sql: string): (string | number)[] {
  let parts = templates.get(sql);
  if (parts === undefined) {
    parts = placeholderParts(sql);
    if (templates.size < 10_000) templates.set(sql, parts);
  }
  return parts;
}

/** Statement texts split at their placeholders (memoized: a projection sends the same texts again). */
const templates = new Map<string, (string | number)[]>();

/**
 * `sql` split at its placeholders: text, placeholder index (n - 1), text, ..., text. Placeholders are
 * only recognised outside string literals, quoted identifiers, dollar-quoted bodies and comments.
 */
function placeholderParts(sql: string): (string | number)[] {
  const parts: (string | number)[] = [];
  let from = 0;
  let i = 0;
  const n = sql.length;
  while (i < n) {
    const c = sql[i]!;
    if (c === "'" || c === '"') i = closingQuote(sql, i, c);
    else if (c === '-' && sql[i + 1] === '-') {
      const end = sql.indexOf('\n', i);
      i = end === -1 ? n : end;
    } else if (c === '/' && sql[i + 1] === '*') {
      const end = sql.indexOf('*/', i + 2);
      i = end === -1 ? n : end + 2;
    } else if (c === '$') {
      const digits = /^\$(\d+)/.exec(sql.slice(i, i + 12));
      if (digits && !isIdentifierChar(sql[i - 1])) {
        parts.push(sql.slice(from, i), Number(digits[1]) - 1);
        i += digits[0].length;
        from = i;
        continue;
      }
      const tag = /^\$([A-Za-z_][A-Za-z0-9_]*)?\$/.exec(sql.slice(i, i + 64));
      if (tag) {
        const end = sql.indexOf(tag[0], i + tag[0].length);
        i = end === -1 ? n : end + tag[0].length;
      } else i += 1;
    } else i += 1;
  }
  parts.push(sql.slice(from));
  return parts;
}

/** Index just past the quote that closes the one at `start` (a doubled quote is part of the text). */
function closingQuote(sql: string, start: number, quote: string): number {
  let i = start + 1;
  while (i < sql.length) {
    if (sql[i] === quote) {
      if (sql[i + 1] === quote) i += 2;
      else return i + 1;
    } else i += 1;
  }
  return sql.length;
}

const isIdentifierChar = (c: string | undefined) => c !== undefined && /[A-Za-z0-9_]/.test(c);

/** A table or column name as the projections write them (never user input). */
const PLAIN_NAME = /^[a-z_][a-z0-9_]*(\.[a-z_][a-z0-9_]*)?$/i;

/**
 * `COPY table (columns) FROM source` for `SqlExecutor.copyIn` (decision 0093). The names come from
 * projection code; anything but a plain SQL name is refused rather than quoted.
 */
export function copyStatement(table: string, columns: readonly string[], source: string): string {
  for (const name of [table, ...columns])
    if (!PLAIN_NAME.test(name)) throw new Error(`copyIn: not a plain SQL name: ${JSON.stringify(name)}`);
  return `COPY ${table} (${columns.join(', ')}) FROM ${source}`;
}
