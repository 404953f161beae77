import type { SqlExecutor } from '../sql/sql-client.js';
import { inlineParams, snapshotParams, sqlLiteral } from '../sql/sql-literal.js';
import type { PreparedStatements } from './prepared-statements.js';

/** Statements (rows of merged INSERTs counted singly) held before they are sent as one script. */
export const WRITE_BEHIND_STATEMENTS = 1000;
const WRITE_BEHIND_CHARS = 1 << 21;
/** UPDATEs merged into one at most (each is a UNION ALL branch, which the server parses recursively). */
const MERGED_UPDATE_ROWS = 100;

interface Statement {
  /** The statement as the projection wrote it (placeholders, no values): what it may read or write. */
  readonly template: string;
  /** For a mergeable INSERT: its text without the row, and the table; else null. */
  readonly insert: { key: string; table: string; head: string; tail: string } | null;
  /** For a mergeable UPDATE: how to write several as one; `parts` then holds each one's values. */
  readonly update: MergeableUpdate | null;
  /** A mergeable statement's rows (an INSERT's inlined tuples, an UPDATE's values); else empty. */
  readonly parts: string[];
  /** For a merged upsert (ON CONFLICT ... DO UPDATE): the conflict keys of its rows, all different. */
  readonly keys: Set<string> | null;
  /**
   * The parameters of the statement (of its first row, when rows joined it), objects already turned
   * into their text (`snapshotParams`): alone, the statement is sent as an EXECUTE of its prepared
   * text or inlined when the script is written.
   */
  readonly params: readonly unknown[];
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
 * in their order. An upsert (`ON CONFLICT (cols) DO UPDATE ...`, its update without parameters or
 * sub-SELECTs) merges too, as long as the rows of one statement have different conflict keys (each
 * key column given by a bare placeholder): then no row of the statement touches another's row, and
 * each sees the table as its own statement would have (decision 0070). A row whose key is already in
 * the statement starts a new one after it.
 *
 * A projection thus gets set-at-a-time speed from plain per-event code.
 *
 * Decision 0074: a script sent because the buffer is full is not waited for; the projection writes
 * the next one meanwhile, and its error comes at the next send or flush (scripts still run one after
 * the other, in order). A statement sent alone whose text is prepared on the session goes as
 * `EXECUTE` of it (`PreparedStatements`).
 */
export class WriteBehindTx implements SqlExecutor {
  private pending: Statement[] = [];
  /** The script sent last while the projection goes on (see `send`), until it is waited for. */
  private running: Promise<void> | null = null;
  private rows = 0;
  private chars = 0;
  /** Statements deferred, merged into an earlier INSERT, sent directly; scripts sent; COPYs sent. */
  readonly stats = { deferred: 0, merged: 0, direct: 0, scripts: 0, executed: 0, copies: 0 };

  /**
   * `prepared`: the statements prepared on the session `tx` belongs to; a statement sent on its own
   * (no other joined it) whose text is prepared there goes as `EXECUTE` (decision 0074).
   */
  constructor(
    private readonly tx: SqlExecutor,
    private readonly prepared: PreparedStatements | null = null,
  ) {
    const copyIn = tx.copyIn?.bind(tx);
    if (copyIn) this.copyIn = (table, columns, text) => this.copyAfterScript(copyIn, table, columns, text);
  }

  async query<Row = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<{ rows: Row[] }> {
    if (!answersNothing(sql)) {
      await this.flush();
      this.stats.direct++;
      return this.tx.query<Row>(sql, params);
    }
    this.stats.deferred++;
    this.prepared?.used(sql);
    const insert = mergeableInsert(sql);
    const parsedUpdate = insert ? null : mergeableUpdate(sql);
    // A key that could equal another written differently is sent on its own (see updateKey).
    const key = parsedUpdate ? updateKey(parsedUpdate.keyParams, params ?? []) : null;
    const update = key === null ? null : parsedUpdate;
    if (insert) {
      const row = inlineParams(insert.row, params ?? []);
      const key = insert.keyParams ? conflictKey(insert.keyParams, params ?? []) : null;
      const into = this.mergeTarget(insert.key, insert.table);
      if (into && (key === null || !into.keys!.has(key))) {
        into.parts.push(row);
        into.keys?.add(key!);
        this.stats.merged++;
      } else
        this.pending.push({
          template: sql,
          insert,
          update: null,
          parts: [row],
          keys: key === null ? null : new Set([key]),
          params: snapshotParams(params),
        });
      this.chars += row.length;
    } else if (update && key !== null) {
      const values = inlineParams(update.values, params ?? []);
      const into = this.mergeTarget(update.key, update.table);
      if (into && !into.keys!.has(key) && into.parts.length < MERGED_UPDATE_ROWS) {
        into.parts.push(values);
        into.keys!.add(key);
        this.stats.merged++;
        this.chars += values.length;
      } else {
        this.pending.push({
          template: sql,
          insert: null,
          update,
          parts: [values],
          keys: new Set([key]),
          params: snapshotParams(params),
        });
        this.chars += sql.length + values.length;
      }
    } else {
      this.pending.push({
        template: sql,
        insert: null,
        update: null,
        parts: [],
        keys: null,
        params: snapshotParams(params),
      });
      this.chars += sql.length + paramChars(params);
    }
    this.rows++;
    if (this.rows >= WRITE_BEHIND_STATEMENTS || this.chars >= WRITE_BEHIND_CHARS) await this.send();
    return { rows: [] };
  }

  async script(sql: string): Promise<void> {
    await this.flush();
    await this.tx.script(sql);
  }

  /**
   * Where the connection can `COPY` (decision 0093): sends what waits, then the rows, and goes on
   * without waiting for either, as a full buffer does (decision 0074). The connection runs them in
   * order; the first error is thrown by the next send or flush.
   */
  readonly copyIn?: (table: string, columns: readonly string[], text: string) => Promise<void>;

  private async copyAfterScript(
    copyIn: NonNullable<SqlExecutor['copyIn']>,
    table: string,
    columns: readonly string[],
    text: string,
  ): Promise<void> {
    await this.send();
    const script = this.running;
    const copying = copyIn(table, columns, text);
    copying.catch(() => {}); // thrown below, after the script's error if the script failed first
    this.stats.copies++;
    const running = (async () => {
      await script;
      await copying;
    })();
    running.catch(() => {});
    this.running = running;
  }

  /** Sends what waits, as one script, and waits for everything sent; the first error is thrown here. */
  async flush(): Promise<void> {
    await this.send();
    await this.settle();
  }

  /**
   * Sends what waits without waiting for the server to run it (decision 0074): the projection goes on
   * writing the next statements while the database runs these. The script sent before must have
   * succeeded first (its error is thrown here), so scripts run one at a time, in order.
   */
  private async send(): Promise<void> {
    await this.settle();
    if (this.pending.length === 0) return;
    if (this.prepared?.hasDue) await this.prepared.prepareDue(this.tx);
    const script = this.pending.map((s) => this.text(s)).join(';\n');
    this.pending = [];
    this.rows = 0;
    this.chars = 0;
    this.stats.scripts++;
    const running = this.tx.script(script).catch((e: unknown) => {
      this.prepared?.failed(e);
      throw e;
    });
    running.catch(() => {}); // its error is thrown by the next settle, not left unhandled meanwhile
    this.running = running;
  }

  /** Waits for the script sent last, if any; throws its error. */
  private async settle(): Promise<void> {
    const running = this.running;
    this.running = null;
    await running;
  }

  /** What is sent for a waiting statement: its rows merged, an EXECUTE of its prepared text, or itself. */
  private text(s: Statement): string {
    if (s.parts.length > 1)
      return s.insert
        ? `${s.insert.head}${s.parts.join(',\n')}${s.insert.tail}`
        : mergedUpdate(s.update!, s.parts);
    const executed = this.prepared?.execute(s.template, s.params);
    if (executed) {
      this.stats.executed++;
      return executed;
    }
    return s.insert ? `${s.insert.head}${s.parts[0]}${s.insert.tail}` : inlineParams(s.template, s.params);
  }

  /** Drops what waits (its event failed and is rolled back), once a script still running has ended. */
  async discard(): Promise<void> {
    this.pending = [];
    this.rows = 0;
    this.chars = 0;
    await this.settle().catch(() => {});
  }

  /** The waiting INSERT of the same text that a new row may join, if nothing after it names the table. */
  private mergeTarget(key: string, table: string): Statement | null {
    const word = tableWord(table);
    for (let i = this.pending.length - 1; i >= 0; i--) {
      const s = this.pending[i]!;
      if ((s.insert ?? s.update)?.key === key) return s;
      if (word.test(s.template)) return null;
    }
    return null;
  }
}

/** About how long `params` are inlined (for the buffer's size; a string's own length, others short). */
function paramChars(params: readonly unknown[] | undefined): number {
  let n = 0;
  if (params) for (const p of params) n += typeof p === 'string' ? p.length + 2 : 24;
  return n;
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
  let answer = answers.get(sql);
  if (answer === undefined) {
    answer = writesOnly(sql);
    if (answers.size < 10_000) answers.set(sql, answer);
  }
  return answer;
}

/** `answersNothing` by statement text (a projection sends the same texts again and again). */
const answers = new Map<string, boolean>();

function writesOnly(sql: string): boolean {
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

const INSERT_HEAD = /^\s*INSERT\s+INTO\s+([A-Za-z_][A-Za-z0-9_]*)\s*\(([^()]*)\)\s*VALUES\s*\(/i;
const DO_NOTHING = /^\s*(ON\s+CONFLICT\s*(\([^()]*\))?\s*DO\s+NOTHING\s*)?$/i;
const DO_UPDATE = /^\s*ON\s+CONFLICT\s*\(([^()]*)\)\s*DO\s+UPDATE\s+SET\b/i;
/** A row value that is one placeholder (with a cast, or not): `$3`, `$3::bigint`. */
const BARE_PARAM = /^\$(\d+)(\s*::\s*[A-Za-z_][A-Za-z0-9_ ]*(\[\])?)?$/;

/**
 * The conflict key of an upsert's row, from its key parameters: the literals as the server gets them,
 * lower-cased (ids are uuids; for a text key this can only call two different keys the same, which
 * merely stops a merge).
 */
function conflictKey(keyParams: readonly number[], params: readonly unknown[]): string {
  return keyParams.map((n) => sqlLiteral(params[n - 1]).toLowerCase()).join('\u0000');
}

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

function parseInsert(sql: string): {
  key: string;
  table: string;
  head: string;
  row: string;
  tail: string;
  /** For an upsert: the placeholders ($n) of its conflict key columns; null for other INSERTs. */
  keyParams: number[] | null;
} | null {
  const head = INSERT_HEAD.exec(sql);
  if (!head) return null;
  const open = head[0].length - 1;
  const close = matchingParen(sql, open);
  if (close === -1) return null;
  const row = sql.slice(open, close + 1);
  const tail = sql.slice(close + 1);
  if (/\bSELECT\b/i.test(row)) return null;
  const prefix = sql.slice(0, open);
  if (prefix.includes('$')) return null;
  let keyParams: number[] | null = null;
  if (!DO_NOTHING.test(tail)) {
    keyParams = upsertKeyParams(head[2]!, row, tail);
    if (!keyParams) return null;
  }
  return { key: `${prefix}\u0000${tail}`, table: head[1]!, head: prefix, row, tail, keyParams };
}

/**
 * For `INSERT INTO t (columns) VALUES row ON CONFLICT (keys) DO UPDATE ...`: the placeholder numbers of
 * the key columns' values, when each is a bare placeholder and the update has no placeholder and no
 * sub-SELECT (so one update text serves every row); else null (not merged).
 */
function upsertKeyParams(columnList: string, row: string, tail: string): number[] | null {
  const upsert = DO_UPDATE.exec(tail);
  if (!upsert || tail.includes('$') || /\bSELECT\b/i.test(tail)) return null;
  const columns = columnList.split(',').map((c) => c.trim().toLowerCase());
  const values = topLevelItems(row.slice(1, -1));
  if (values === null || values.length !== columns.length) return null;
  const keys: number[] = [];
  for (const key of upsert[1]!.split(',').map((c) => c.trim().toLowerCase())) {
    const value = values[columns.indexOf(key)];
    const param = value === undefined ? null : BARE_PARAM.exec(value);
    if (!param) return null;
    keys.push(Number(param[1]));
  }
  return keys.length > 0 ? keys : null;
}

/** The comma-separated items of `list` outside parentheses and quotes, trimmed; null if unbalanced. */
function topLevelItems(list: string): string[] | null {
  const items: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < list.length; i++) {
    const c = list[i];
    if (c === "'" || c === '"') {
      const end = list.indexOf(c, i + 1);
      if (end === -1) return null;
      i = end;
    } else if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === ',' && depth === 0) {
      items.push(list.slice(start, i).trim());
      start = i + 1;
    }
  }
  if (depth !== 0) return null;
  items.push(list.slice(start).trim());
  return items;
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

/**
 * The key of a mergeable UPDATE's row, or null when a key value is not in a form where different
 * texts mean different values (a uuid, compared lower-cased; an integer; a date; NULL). Two UPDATEs
 * whose keys are equal values written differently would match one row twice in the merged statement,
 * and only one would count, so those are never merged. (An upsert needs no such care: the server
 * refuses to touch a row twice, and the runner then applies the batch event by event.)
 */
function updateKey(keyParams: readonly number[], params: readonly unknown[]): string | null {
  const parts: string[] = [];
  for (const n of keyParams) {
    const literal = sqlLiteral(params[n - 1]).toLowerCase();
    if (!CANONICAL_KEY.test(literal)) return null;
    parts.push(literal);
  }
  return parts.join('\u0000');
}

const CANONICAL_KEY =
  /^(null|'[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}'|'-?(0|[1-9][0-9]{0,17})'|'[0-9]{4}-[0-9]{2}-[0-9]{2}')$/;

/**
 * A single-table `UPDATE t SET ... WHERE ...` that several of the same text can be sent as one
 * (decision 0070): no FROM, no sub-SELECT, a WHERE of AND-ed conditions of which at least one is
 * `column = $n` (the key), and every placeholder typed by the statement itself, either as the value a
 * column is set to or compared with (`column = $n`) or by a cast (`$n::type`).
 *
 * Several become `UPDATE t SET ... FROM (SELECT <typed nulls> FROM t WHERE false UNION ALL SELECT
 * <values> UNION ALL ...) AS wb_v WHERE ...`, each placeholder replaced by its column of `wb_v`. The
 * first branch gives each column its type (an untyped literal of a later branch is read as that type,
 * as it is when it is a parameter of the single statement). They are merged only while their keys
 * differ (and only keys written canonically: `updateKey`), so each row of `t` matches at most one
 * row of values and is updated once, from the state the separate statements would have seen: the
 * same effect.
 */
interface MergeableUpdate {
  key: string;
  table: string;
  /** `SELECT $a, $b, ...`: the values of one statement, in the order of `wb_v`'s columns. */
  values: string;
  /** `SELECT <type source> AS wb_pN, ...`: the typed first branch. */
  typed: string;
  /** SET and WHERE with each `$n` replaced by `wb_v.wb_pN`. */
  set: string;
  where: string;
  keyParams: number[];
}

function mergedUpdate(u: MergeableUpdate, parts: readonly string[]): string {
  return `UPDATE ${u.table} SET ${u.set} FROM (${u.typed} FROM ${u.table} WHERE false${parts
    .map((p) => `\nUNION ALL ${p}`)
    .join('')}) AS wb_v WHERE ${u.where}`;
}

const UPDATE_HEAD = /^\s*UPDATE\s+([A-Za-z_][A-Za-z0-9_]*)\s+SET\s+/i;
const ASSIGNMENT = /^([A-Za-z_][A-Za-z0-9_]*)\s*=\s*([\s\S]+)$/;
const CAST_PARAM = /\$(\d+)::([A-Za-z_][A-Za-z0-9_]*(\[\])?)/g;

const parsedUpdates = new Map<string, MergeableUpdate | null>();

function mergeableUpdate(sql: string): MergeableUpdate | null {
  let parsed = parsedUpdates.get(sql);
  if (parsed === undefined) {
    parsed = parseUpdate(sql);
    if (parsedUpdates.size < 10_000) parsedUpdates.set(sql, parsed);
  }
  return parsed;
}

function parseUpdate(sql: string): MergeableUpdate | null {
  const head = UPDATE_HEAD.exec(sql);
  if (!head || /\bSELECT\b/i.test(sql) || sql.includes(';')) return null;
  const table = head[1]!;
  const body = sql.slice(head[0].length);
  const words = topLevelWords(body);
  if (words === null || words.some((w) => /^(FROM|OR|RETURNING|USING)$/i.test(w.word))) return null;
  const wheres = words.filter((w) => /^WHERE$/i.test(w.word));
  if (wheres.length !== 1) return null;
  const setText = body.slice(0, wheres[0]!.at);
  const whereText = body.slice(wheres[0]!.at + 5);
  const assignments = topLevelItems(setText);
  if (assignments === null) return null;
  // AND-ed conditions: split at the top-level ANDs of the WHERE.
  const ands = words.filter((w) => /^AND$/i.test(w.word) && w.at > wheres[0]!.at).map((w) => w.at);
  const conditions: string[] = [];
  let from = wheres[0]!.at + 5;
  for (const at of ands) {
    conditions.push(body.slice(from, at).trim());
    from = at + 3;
  }
  conditions.push(body.slice(from).trim());
  // What types each placeholder: a column it is set to or compared with, or its cast.
  const sources = new Map<number, string>();
  const keyParams: number[] = [];
  for (const [items, isWhere] of [
    [assignments, false],
    [conditions, true],
  ] as const) {
    for (const item of items) {
      const a = ASSIGNMENT.exec(item);
      if (!a) continue;
      const param = BARE_PARAM.exec(a[2]!.trim());
      if (!param) continue;
      const n = Number(param[1]);
      if (!param[2]) sources.set(n, a[1]!);
      if (isWhere) keyParams.push(n);
    }
  }
  for (const m of sql.matchAll(CAST_PARAM))
    if (!sources.has(Number(m[1]))) sources.set(Number(m[1]), `NULL::${m[2]}`);
  const used = placeholders(sql);
  if (used === null || used.length === 0 || keyParams.length === 0) return null;
  if (used.some((n) => !sources.has(n))) return null;
  const rename = (text: string) => text.replace(/\$(\d+)/g, (_m, n: string) => `wb_v.wb_p${n}`);
  return {
    key: `UPDATE\u0000${sql}`,
    table,
    values: `SELECT ${used.map((n) => `$${n}`).join(', ')}`,
    typed: `SELECT ${used.map((n) => `${sources.get(n)} AS wb_p${n}`).join(', ')}`,
    set: rename(setText),
    where: rename(whereText),
    keyParams,
  };
}

/** The words of `sql` outside parentheses and quotes, with their offsets; null if it has a `$` in quotes. */
function topLevelWords(sql: string): { word: string; at: number }[] | null {
  const words: { word: string; at: number }[] = [];
  let depth = 0;
  for (let i = 0; i < sql.length; i++) {
    const c = sql[i]!;
    if (c === "'" || c === '"') {
      const end = sql.indexOf(c, i + 1);
      if (end === -1 || sql.slice(i, end).includes('$')) return null;
      i = end;
    } else if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (depth === 0 && /[A-Za-z_]/.test(c) && (i === 0 || !/[A-Za-z0-9_$.]/.test(sql[i - 1]!))) {
      let j = i;
      while (j < sql.length && /[A-Za-z0-9_]/.test(sql[j]!)) j++;
      words.push({ word: sql.slice(i, j), at: i });
      i = j - 1;
    }
  }
  return words;
}

/** The placeholder numbers of `sql`, ascending and distinct (quoted text holds none: see topLevelWords). */
function placeholders(sql: string): number[] | null {
  const found = new Set<number>();
  for (const m of sql.matchAll(/\$(\d+)/g)) found.add(Number(m[1]));
  return [...found].sort((a, b) => a - b);
}
