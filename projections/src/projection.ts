/**
 * A projection is a pure definition of a read model: its tables, the event types it handles and how
 * each event changes the rows. The server's runner feeds it events in commit order, inside the same
 * transaction that advances its checkpoint, so each event is applied exactly once.
 */

export interface ProjectionEvent<Type extends string = string, Data = unknown> {
  id: string;
  stream: string;
  revision: bigint;
  position: bigint;
  type: Type;
  data: Data;
  metadata: {
    actorId: string | null;
    impersonatorId?: string | null;
    correlationId?: string | null;
    causationId?: string | null;
    occurredAt: string;
    [extra: string]: unknown;
  };
  createdAt: Date;
}

export interface ProjectionTx {
  query<Row = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<{ rows: Row[] }>;
  /**
   * Where the store can: loads rows in `COPY`'s text format into `columns` of `table` (decision
   * 0093). `insertRows` uses it for many new rows; a projection need not call it itself.
   */
  copyIn?(table: string, columns: readonly string[], text: string): Promise<void>;
}

export interface Projection {
  /** Unique, stable name (also the checkpoint key). */
  readonly name: string;
  /** Bump to rebuild the read model from the first event. */
  readonly version: number;
  /** Tables this projection owns; dropped and recreated on rebuild. */
  readonly tables: readonly string[];
  /** DDL statements that create the tables (and indexes). */
  readonly schema: readonly string[];
  /** Event types the projection handles; all others are never passed to `apply`. */
  readonly handles: readonly string[];
  apply(event: ProjectionEvent, tx: ProjectionTx): Promise<void>;
  /**
   * Optional, for speed: applies several of this projection's events at once, in position order, with
   * exactly the effect of calling `apply` for each in turn (typically one set-based statement per run
   * of events instead of one statement per event). The runner uses it for every batch when present;
   * when it throws, the runner rolls the batch back and goes through `apply` event by event to find
   * the event at fault. Like `apply`, it may only touch the projection's own tables.
   */
  applyBatch?(events: readonly ProjectionEvent[], tx: ProjectionTx): Promise<void>;
  /**
   * False when `apply` never reads an event's personal fields (`PERSONAL_DATA_RULES`,
   * `PERSON_FIELD_RULES`) although it handles events that carry some: a rebuild of such projections
   * then reads the log without decrypting those fields (decision 0089). Left out: it may read them.
   */
  readonly readsPersonalData?: false;
}

/** The mark `queryIndex` puts on an index's DDL. */
export const QUERY_INDEX_MARK = '/* query index: built after a rebuild has caught up */';

/**
 * Marks a non-unique index that only the read queries use: no statement of the projection's `apply`
 * finds rows through it. When the projection is built from the first event, the runner creates such
 * an index once, after the catch-up, instead of updating it for every row (decision 0073). An index
 * an `apply` statement looks rows up by must stay unmarked: without it that statement scans the table.
 */
export function queryIndex(ddl: string): string {
  return `${QUERY_INDEX_MARK}\n${ddl}`;
}

/** The events a typed projection handles: a union of `{ type, data }`. */
export type EventShape = { type: string; data: unknown };

/**
 * A projection written against its own event union `E` (decision 0047): `apply` receives
 * `ProjectionEvent & E`, so a `switch (event.type)` narrows `event.data` without a cast.
 */
export interface TypedProjection<E extends EventShape> extends Omit<
  Projection,
  'handles' | 'apply' | 'applyBatch'
> {
  readonly handles: readonly E['type'][];
  apply(event: ProjectionEvent & E, tx: ProjectionTx): Promise<void>;
  applyBatch?(events: readonly (ProjectionEvent & E)[], tx: ProjectionTx): Promise<void>;
}

/**
 * `defineProjection(p)` checks a projection; `defineProjection<E>()(p)` checks one typed by its event
 * union. The runner only passes a projection the event types in its `handles`, which is what makes the
 * narrowing from `ProjectionEvent` to `ProjectionEvent & E` sound.
 */
export function defineProjection<P extends Projection>(projection: P): P;
export function defineProjection<E extends EventShape>(): (projection: TypedProjection<E>) => Projection;
export function defineProjection(
  projection?: Projection,
): Projection | (<E extends EventShape>(p: TypedProjection<E>) => Projection) {
  if (projection === undefined) return (typed) => checked(typed as unknown as Projection);
  return checked(projection);
}

function checked<P extends Projection>(projection: P): P {
  const owned = new Set(projection.tables);
  if (owned.size !== projection.tables.length) throw new Error(`${projection.name}: duplicate table names`);
  return projection;
}

/**
 * A `guardedUpdate` value computed by SQL from the row (merge, append, CASE); `bind` a JS value to use
 * it. Column names in the expression come from code, never from input.
 */
export class SqlSet {
  constructor(readonly render: (bind: (value: unknown) => string) => string) {}
}
export const sqlSet = (render: (bind: (value: unknown) => string) => string): SqlSet => new SqlSet(render);
/** A jsonb column's new value. */
export const jsonbSet = (value: unknown): SqlSet => sqlSet((bind) => `${bind(JSON.stringify(value))}::jsonb`);
/** A bigint column's new value (positions, revisions: strings or bigints in JS). */
export const bigintSet = (value: bigint | string): SqlSet =>
  sqlSet((bind) => `${bind(value.toString())}::bigint`);
/** Appends one element to a jsonb array column. */
export const jsonbAppend = (column: string, element: unknown): SqlSet =>
  sqlSet((bind) => `${column} || jsonb_build_array(${bind(JSON.stringify(element))}::jsonb)`);

/**
 * Puts `element` into the jsonb array `column` of objects with an `id`: in place of the element with
 * its id, else at the end; computed by SQL from the row, so the projection needs no read first.
 */
export const jsonbUpsertById = (column: string, element: { id: string }): SqlSet =>
  sqlSet((bind) => {
    const id = bind(element.id);
    const value = `${bind(JSON.stringify(element))}::jsonb`;
    return `CASE WHEN EXISTS (SELECT 1 FROM jsonb_array_elements(${column}) AS x(e) WHERE x.e->>'id' = ${id})
      THEN (SELECT jsonb_agg(CASE WHEN x.e->>'id' = ${id} THEN ${value} ELSE x.e END ORDER BY x.n)
              FROM jsonb_array_elements(${column}) WITH ORDINALITY AS x(e, n))
      ELSE ${column} || jsonb_build_array(${value}) END`;
  });

/** Removes the elements whose `id` is one of `ids` from the jsonb array `column`, keeping the order. */
export const jsonbRemoveByIds = (column: string, ids: readonly string[]): SqlSet =>
  sqlSet(
    (bind) => `COALESCE((SELECT jsonb_agg(x.e ORDER BY x.n) FROM jsonb_array_elements(${column})
        WITH ORDINALITY AS x(e, n) WHERE NOT (x.e->>'id' = ANY(${bind(ids)}::text[]))), '[]'::jsonb)`,
  );

/**
 * The idempotent update of a row stamped with its stream revision (decision 0047): sets `set` and
 * `version = revision` on row `id` only when the row's version is older, so a replayed or older event
 * changes nothing. Column names come from code, never from input; a value is bound as a parameter, or
 * written by a `SqlSet` (`jsonbSet`, `jsonbAppend`, `sqlSet`). Answers whether a row changed; when the
 * answer is not needed, `guardedSet` does the same without waiting for one (decision 0063).
 */
export async function guardedUpdate(
  tx: ProjectionTx,
  table: string,
  id: string,
  revision: bigint | string,
  set: Record<string, unknown>,
): Promise<boolean> {
  const { sql, params } = guardedStatement(table, id, revision, set);
  const { rows } = await tx.query(`${sql} RETURNING id`, params);
  return rows.length > 0;
}

/**
 * The condition, in SQL, under which `guardedSet`/`guardedUpdate` on row `id` (a placeholder such as
 * `$1`) of `table` changes it: the row exists with a version older than `revision` (a placeholder).
 * A write that should happen only when the guarded update does (child rows of the same event) carries
 * it in its WHERE and is written BEFORE the guarded update, so it needs no answer and the runner's
 * write-behind sends it with the next ones (decision 0070).
 */
export const guardPasses = (table: string, id: string, revision: string): string =>
  `EXISTS (SELECT 1 FROM ${table} WHERE id = ${id} AND version < ${revision}::bigint)`;

/**
 * The condition, in SQL, under which `INSERT INTO table ... ON CONFLICT (id) DO NOTHING` of row `id`
 * (a placeholder) inserts it: no such row yet. Written before that insert, in the WHERE of the writes
 * that should follow only a real insert (decision 0070).
 */
export const rowAbsent = (table: string, id: string): string =>
  `NOT EXISTS (SELECT 1 FROM ${table} WHERE id = ${id})`;

/**
 * `guardedUpdate` without its answer: a plain write, which the runner's write-behind transaction sends
 * with the next ones in one round trip instead of waiting for it (decision 0063).
 */
export async function guardedSet(
  tx: ProjectionTx,
  table: string,
  id: string,
  revision: bigint | string,
  set: Record<string, unknown>,
): Promise<void> {
  const { sql, params } = guardedStatement(table, id, revision, set);
  await tx.query(sql, params);
}

function guardedStatement(
  table: string,
  id: string,
  revision: bigint | string,
  set: Record<string, unknown>,
): { sql: string; params: unknown[] } {
  const params: unknown[] = [id];
  const bind = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  const assignments = Object.entries(set).map(
    ([column, value]) => `${column} = ${value instanceof SqlSet ? value.render(bind) : bind(value)}`,
  );
  params.push(revision.toString());
  const v = `$${params.length}::bigint`;
  return {
    sql: `UPDATE ${table} SET ${[...assignments, `version = ${v}`].join(', ')}
      WHERE id = $1 AND version < ${v}`,
    params,
  };
}

/**
 * Batches with fewer events than this are applied event by event by the folding `applyBatch`es
 * (decision 0086): the live loop's batches (one command's events) then cost what they did, without
 * the fold's read.
 */
export const FOLD_FROM = 16;

/** A batch's fold (decisions 0086, 0088, 0089): applies in memory the events about the rows it holds. */
export interface BatchFold<E> {
  /** Applies `e` in memory when it is about a row this fold holds; false leaves it to `apply`. */
  takes(e: E): boolean;
  /** Writes the folded rows. */
  write(tx: ProjectionTx): Promise<void>;
}

/**
 * The folding `applyBatch`: a batch under `FOLD_FROM` events goes event by event through `apply`;
 * a larger one starts a fold, leaves to `apply` the events it does not take, then writes the fold.
 */
export async function applyFolding<E>(
  events: readonly E[],
  tx: ProjectionTx,
  apply: (e: E, tx: ProjectionTx) => Promise<void>,
  start: (events: readonly E[], tx: ProjectionTx) => Promise<BatchFold<E>>,
): Promise<void> {
  if (events.length < FOLD_FROM) {
    for (const e of events) await apply(e, tx);
    return;
  }
  const fold = await start(events, tx);
  for (const e of events) if (!fold.takes(e)) await apply(e, tx);
  await fold.write(tx);
}

/**
 * Of `ids` (any case), those with no row in `table` yet, in lower case: one query, none when `ids` is
 * empty. The rows a folding `applyBatch` may build in memory (decisions 0086, 0088) are those whose
 * key is absent when the batch begins.
 */
export async function absentIds(
  tx: ProjectionTx,
  table: string,
  ids: Iterable<string>,
  column = 'id',
): Promise<Set<string>> {
  const absent = new Set<string>();
  for (const id of ids) absent.add(id.toLowerCase());
  if (absent.size === 0) return absent;
  const { rows } = await tx.query<{ id: string }>(
    `SELECT ${column}::text AS id FROM ${table} WHERE ${column} = ANY($1::uuid[])`,
    [[...absent]],
  );
  for (const r of rows) absent.delete(r.id);
  return absent;
}

/** A table's columns for `insertRows`: each column's SQL type (`uuid`, `text`, `jsonb`, `bigint`, ...). */
export type ColumnTypes<Row> = { readonly [Column in keyof Row & string]: string };

export interface InsertRowsOptions<Column extends string> {
  /**
   * What follows the INSERT: `ON CONFLICT DO NOTHING` unless told otherwise. '' for nothing, when the
   * projection knows the rows are new (a fold's rows whose keys `absentIds` found free, each key
   * once): a conflict then fails the batch, and many rows go with `COPY` where the store can (decision
   * 0093).
   */
  conflict?: string;
  /**
   * Columns whose value is the same on every row with the same `key` (a register line's lesson
   * columns): sent once per key and joined back, so the server parses them once per key instead of
   * once per row. Equal keys must be written alike (ids in lower case), since they are grouped in JS.
   * A `COPY` (decision 0093) sends every row whole, so each row must hold these columns too.
   */
  shared?: { key: Column; columns: readonly Column[] };
}

/**
 * Inserts `rows` into `table` as one statement whatever their number (decision 0086): each column goes
 * as one array literal, `unnest`ed into rows, which the server reads faster than as many `VALUES`
 * tuples. For an `applyBatch` that folds a batch's events into final rows in memory and writes each
 * row once. A jsonb value is given as its JSON text (`JSON.stringify`), a timestamp as a Date or ISO
 * text, a bigint as text.
 */
export async function insertRows<Column extends string>(
  tx: ProjectionTx,
  table: string,
  columns: Readonly<Record<Column, string>>,
  rows: readonly Readonly<Record<Column, unknown>>[],
  options: InsertRowsOptions<Column> = {},
): Promise<void> {
  if (rows.length === 0) return;
  const { conflict = 'ON CONFLICT DO NOTHING', shared } = options;
  const names = Object.keys(columns) as Column[];
  if (conflict === '' && tx.copyIn && rows.length >= COPY_FROM_ROWS) {
    // New rows, many of them, where the store can COPY (decision 0093).
    await tx.copyIn(table, names, copyText(names, rows));
    return;
  }
  const params: unknown[] = [];
  const arrays = (cols: readonly Column[], from: readonly Readonly<Record<Column, unknown>>[]) =>
    cols
      .map((c) => {
        params.push(from.map((r) => r[c] ?? null));
        return `$${params.length}::${columns[c]}[]`;
      })
      .join(', ');
  if (!shared) {
    await tx.query(
      `INSERT INTO ${table} (${names.join(', ')}) SELECT * FROM unnest(${arrays(names, rows)}) ${conflict}`,
      params,
    );
    return;
  }
  const once = new Set<Column>(shared.columns);
  const own = names.filter((c) => !once.has(c));
  const perKey = new Map<unknown, Readonly<Record<Column, unknown>>>();
  for (const r of rows) if (!perKey.has(r[shared.key])) perKey.set(r[shared.key], r);
  const sharedCols = [shared.key, ...shared.columns];
  await tx.query(
    `INSERT INTO ${table} (${names.join(', ')})
     SELECT ${names.map((c) => (once.has(c) ? `s.${c}` : `r.${c}`)).join(', ')}
       FROM unnest(${arrays(own, rows)}) AS r(${own.join(', ')})
       JOIN unnest(${arrays(sharedCols, [...perKey.values()])}) AS s(${sharedCols.join(', ')}) ON s.${shared.key} = r.${shared.key}
     ${conflict}`,
    params,
  );
}

/**
 * `insertRows`' options for rows the projection knows are new: a fold's rows whose keys `absentIds`
 * found free, each key written once. No conflict clause: a conflict fails the batch (the runner then
 * applies it event by event), and many rows go with `COPY` where the store can (decisions 0093, 0094).
 */
export const NEW_ROWS = { conflict: '' } as const;

/**
 * From how many new rows (`conflict: ''`) `insertRows` sends them with `COPY` where the store can
 * (decision 0093): below it, the one statement travels in the write-behind's script with the rest.
 */
export const COPY_FROM_ROWS = 100;

/**
 * Rows in `COPY`'s text format: a line per row, values split by tabs, `\N` for null (or undefined);
 * a backslash, tab, newline or carriage return in a value escaped. A Date goes as its ISO text, a
 * boolean as `t`/`f`, an object (a jsonb value not yet turned into text) as its JSON.
 */
export function copyText<Column extends string>(
  names: readonly Column[],
  rows: readonly Readonly<Record<Column, unknown>>[],
): string {
  const lines: string[] = new Array<string>(rows.length);
  const values: string[] = new Array<string>(names.length);
  for (let r = 0; r < rows.length; r++) {
    const row = rows[r]!;
    for (let c = 0; c < names.length; c++) values[c] = copyValue(row[names[c]!]);
    lines[r] = values.join('\t');
  }
  return lines.join('\n') + '\n';
}

const COPY_SPECIAL = /[\\\t\n\r]/;
const COPY_ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };

function copyValue(value: unknown): string {
  if (value === null || value === undefined) return '\\N';
  let text: string;
  if (typeof value === 'string') text = value;
  else if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  else if (typeof value === 'boolean') return value ? 't' : 'f';
  else if (value instanceof Date) return value.toISOString();
  else text = JSON.stringify(value);
  return COPY_SPECIAL.test(text) ? text.replace(/[\\\t\n\r]/g, (ch) => COPY_ESCAPES[ch]!) : text;
}

/** A row a `TouchedRows` fold holds: its key, and its version as a bigint for the guard. */
export interface FoldedRow {
  id: string;
  version: bigint;
}

/** Column types read back as text so they are written back unchanged (and compared as text). */
const READ_AS_TEXT = new Set(['uuid', 'timestamptz', 'jsonb', 'bigint', 'date']);

/**
 * Every row of one table a batch touches, folded in memory (decision 0090): the kit for a folding
 * `applyBatch` whose events change rows made by earlier batches too, not only rows the batch creates
 * (`absentIds`). `load` reads the existing rows of the batch's keys with one query (uuid, timestamp,
 * date, jsonb and bigint columns as text, so they go back unchanged; `version` as a bigint); the
 * projection then `create`s rows and `update`s them with `guardedSet`'s rule; `write` sends the rows
 * it changed: those created with one plain insert, those that existed with one upsert of their whole
 * rows. The table's key is `id`, and ids are held in lower case.
 */
export class TouchedRows<Row extends FoldedRow> {
  private readonly changed = new Set<string>();
  private readonly existed: ReadonlySet<string>;

  private constructor(
    private readonly table: string,
    private readonly columns: ColumnTypes<Row>,
    private readonly rows: Map<string, Row>,
  ) {
    this.existed = new Set(rows.keys());
  }

  static async load<Row extends FoldedRow>(
    tx: ProjectionTx,
    table: string,
    columns: ColumnTypes<Row>,
    ids: Iterable<string>,
  ): Promise<TouchedRows<Row>> {
    const keys = new Set<string>();
    for (const id of ids) keys.add(id.toLowerCase());
    const rows = new Map<string, Row>();
    if (keys.size > 0) {
      const select = Object.entries(columns)
        .map(([column, type]) => (READ_AS_TEXT.has(type) ? `${column}::text AS ${column}` : column))
        .join(', ');
      const found = await tx.query<Row & { version: string }>(
        `SELECT ${select} FROM ${table} WHERE id = ANY($1::uuid[])`,
        [[...keys]],
      );
      for (const r of found.rows) rows.set(r.id, { ...r, version: BigInt(r.version) });
    }
    return new TouchedRows(table, columns, rows);
  }

  /** The row of `id` (any case), if it exists now. */
  get(id: string): Row | undefined {
    return this.rows.get(id.toLowerCase());
  }

  /** Adds a row that does not exist (check with `get` first); its `id` is put in lower case. */
  create(row: Row): void {
    const id = row.id.toLowerCase();
    this.rows.set(id, { ...row, id });
    this.changed.add(id);
  }

  /**
   * `guardedSet` in memory: sets `set` and the version on the row of `id` when it exists and is older
   * than `revision`. Returns whether it did.
   */
  update(id: string, revision: bigint, set: Partial<Omit<Row, 'id' | 'version'>>): boolean {
    const row = this.get(id);
    if (!row || row.version >= revision) return false;
    Object.assign(row, set, { version: revision });
    this.changed.add(row.id);
    return true;
  }

  /** Writes the changed rows: one insert of those created, one upsert of those that existed. */
  async write(tx: ProjectionTx): Promise<void> {
    const created: Record<string, unknown>[] = [];
    const updated: Record<string, unknown>[] = [];
    for (const id of this.changed) {
      const row = this.rows.get(id)!;
      (this.existed.has(id) ? updated : created).push({
        ...(row as Record<string, unknown>),
        version: row.version.toString(),
      });
    }
    const columns = this.columns as Readonly<Record<string, string>>;
    await insertRows(tx, this.table, columns, created, NEW_ROWS);
    const set = Object.keys(columns).filter((c) => c !== 'id');
    await insertRows(tx, this.table, columns, updated, {
      conflict: `ON CONFLICT (id) DO UPDATE SET ${set.map((c) => `${c} = EXCLUDED.${c}`).join(', ')}`,
    });
  }
}
