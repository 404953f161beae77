import type { SqlExecutor } from '../sql/sql-client.js';
import { inlineParams } from '../sql/sql-literal.js';

/** Statements (rows of merged INSERTs counted singly) held before they are sent as one script. */
export const WRITE_BEHIND_STATEMENTS = 1000;
const WRITE_BEHIND_CHARS = 1 << 21;

interface Statement {
  /** The statement as the projection wrote it (placeholders, no values): what it may read or write. */
  readonly template: string;
  /** For a mergeable INSERT: its text without the row, and the table; else null. */
  readonly insert: { key: string; table: string; head: string; tail: string } | null;
  /** The statement's rows (an INSERT's inlined tuples) or its one inlined text. */
  readonly parts: string[];
}

/**
 * The transaction a projection writes through (decision 0063). A statement that cannot answer
 * anything (INSERT, UPDATE or DELETE without RETURNING) is not sent at once: its parameters are
 * inlined as literals and it waits with the next ones, and they all go to the database as one script
 * (one round trip, the simple query protocol) when a statement that answers something comes (a
 * SELECT, a RETURNING), when the buffer is full, or when the runner flushes at the end of an event or
 * batch. Such a statement's answer is `{ rows: [] }` whether it is sent now or later, so the
 * projection sees no difference; only its error arrives later, at the flush, which is why the runner
 * flushes before it commits or releases a savepoint.
 *
 * Waiting single-row `INSERT ... VALUES (...)` statements of the same text (no ON CONFLICT, or ON
 * CONFLICT DO NOTHING; no sub-SELECT in the row) become one multi-row INSERT, the set-based write a
 * rebuild needs. A row joins an earlier INSERT only when no statement between them names that table,
 * so nothing that could read or change the table is overtaken: the effect is that of the statements
 * in their order.
 *
 * A projection thus gets set-at-a-time speed from plain per-event code.
 */
export class WriteBehindTx implements SqlExecutor {
  private pending: Statement[] = [];
  private rows = 0;
  private chars = 0;
  /** Statements deferred, merged into an earlier INSERT, sent directly; scripts sent. */
  readonly stats = { deferred: 0, merged: 0, direct: 0, scripts: 0 };

  constructor(private readonly tx: SqlExecutor) {}

  async query<Row = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<{ rows: Row[] }> {
    if (!answersNothing(sql)) {
      await this.flush();
      this.stats.direct++;
      return this.tx.query<Row>(sql, params);
    }
    this.stats.deferred++;
    const insert = mergeableInsert(sql);
    if (insert) {
      const row = inlineParams(insert.row, params ?? []);
      const into = this.mergeTarget(insert.key, insert.table);
      if (into) {
        into.parts.push(row);
        this.stats.merged++;
      } else this.pending.push({ template: sql, insert, parts: [row] });
      this.chars += row.length;
    } else {
      const text = inlineParams(sql, params ?? []);
      this.pending.push({ template: sql, insert: null, parts: [text] });
      this.chars += text.length;
    }
    this.rows++;
    if (this.rows >= WRITE_BEHIND_STATEMENTS || this.chars >= WRITE_BEHIND_CHARS) await this.flush();
    return { rows: [] };
  }

  async script(sql: string): Promise<void> {
    await this.flush();
    await this.tx.script(sql);
  }

  /** Sends what waits, as one script; its first error is thrown here. */
  async flush(): Promise<void> {
    if (this.pending.length === 0) return;
    const script = this.pending
      .map((s) => (s.insert ? `${s.insert.head}${s.parts.join(',\n')}${s.insert.tail}` : s.parts[0]))
      .join(';\n');
    this.pending = [];
    this.rows = 0;
    this.chars = 0;
    this.stats.scripts++;
    await this.tx.script(script);
  }

  /** Drops what waits (its event failed and is rolled back). */
  discard(): void {
    this.pending = [];
    this.rows = 0;
    this.chars = 0;
  }

  /** The waiting INSERT of the same text that a new row may join, if nothing after it names the table. */
  private mergeTarget(key: string, table: string): Statement | null {
    const word = tableWord(table);
    for (let i = this.pending.length - 1; i >= 0; i--) {
      const s = this.pending[i]!;
      if (s.insert?.key === key) return s;
      if (word.test(s.template)) return null;
    }
    return null;
  }
}

const tableWords = new Map<string, RegExp>();
const tableWord = (table: string): RegExp => {
  let word = tableWords.get(table);
  if (!word) tableWords.set(table, (word = new RegExp(`\\b${table}\\b`, 'i')));
  return word;
};

const WRITE = /^\s*(INSERT|UPDATE|DELETE)\b/i;
const WITH = /^\s*WITH\b/i;
/** The first statement keyword of a WITH's main statement (the CTE bodies are already cut out). */
const MAIN = /\b(SELECT|INSERT|UPDATE|DELETE|VALUES|TABLE)\b/i;
const ANSWERS = /\bRETURNING\b/i;

/**
 * A single INSERT/UPDATE/DELETE whose outermost statement returns nothing (no RETURNING outside
 * parentheses; a data-modifying WITH may return rows to its main statement, which must itself be an
 * INSERT/UPDATE/DELETE): it can only succeed, answering no rows, or fail.
 */
function answersNothing(sql: string): boolean {
  if (sql.includes(';')) return false;
  const outer = outermost(sql);
  if (ANSWERS.test(outer)) return false;
  if (WRITE.test(outer)) return true;
  if (!WITH.test(outer)) return false;
  const main = MAIN.exec(outer.replace(WITH, ''));
  return main !== null && /^(INSERT|UPDATE|DELETE)$/i.test(main[1]!);
}

/** `sql` without what is inside parentheses or quotes: the outermost statement's own words. */
function outermost(sql: string): string {
  let out = '';
  let depth = 0;
  for (let i = 0; i < sql.length; i++) {
    const c = sql[i]!;
    if (c === "'" || c === '"') {
      const end = sql.indexOf(c, i + 1);
      i = end === -1 ? sql.length : end;
      continue;
    }
    if (c === '(') depth++;
    else if (c === ')') depth = Math.max(0, depth - 1);
    else if (depth === 0) out += c;
  }
  return out;
}

const INSERT_HEAD = /^\s*INSERT\s+INTO\s+([A-Za-z_][A-Za-z0-9_]*)\s*\([^()]*\)\s*VALUES\s*\(/i;
const DO_NOTHING = /^\s*(ON\s+CONFLICT\s*(\([^()]*\))?\s*DO\s+NOTHING\s*)?$/i;

const parsedInserts = new Map<string, ReturnType<typeof parseInsert>>();

/** A single-row `INSERT INTO t (...) VALUES (...) [ON CONFLICT ... DO NOTHING]`, split (memoized by text). */
function mergeableInsert(sql: string) {
  let parsed = parsedInserts.get(sql);
  if (parsed === undefined) {
    parsed = parseInsert(sql);
    if (parsedInserts.size < 10_000) parsedInserts.set(sql, parsed);
  }
  return parsed;
}

function parseInsert(
  sql: string,
): { key: string; table: string; head: string; row: string; tail: string } | null {
  const head = INSERT_HEAD.exec(sql);
  if (!head) return null;
  const open = head[0].length - 1;
  const close = matchingParen(sql, open);
  if (close === -1) return null;
  const row = sql.slice(open, close + 1);
  const tail = sql.slice(close + 1);
  if (!DO_NOTHING.test(tail) || /\bSELECT\b/i.test(row)) return null;
  const prefix = sql.slice(0, open);
  if (prefix.includes('$')) return null;
  return { key: `${prefix}\u0000${tail}`, table: head[1]!, head: prefix, row, tail };
}

/** Index of the parenthesis closing the one at `open`, skipping quoted text; -1 if none. */
function matchingParen(sql: string, open: number): number {
  let depth = 0;
  for (let i = open; i < sql.length; i++) {
    const c = sql[i];
    if (c === "'" || c === '"') {
      const end = sql.indexOf(c, i + 1);
      if (end === -1) return -1;
      i = end;
    } else if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return i;
  }
  return -1;
}
