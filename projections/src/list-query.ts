/**
 * The paged list query every read model's list is built from (decision 0045): a WHERE builder whose
 * values always travel as parameters, a whitelisted ORDER BY, and `listPage`, which counts and reads
 * one page and answers `{ items, total, page, size }`. Nest-free, so the queries can live beside their
 * projection and take any `Queryable` (the server's SqlClient, a transaction, a test database).
 */

/** Anything that runs parameterised SQL: the server's `SqlClient`/`SqlExecutor`, a `ProjectionTx`. */
export interface Queryable {
  query<Row = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<{ rows: Row[] }>;
}

/** An ILIKE/LIKE pattern matching `text` anywhere, with LIKE's wildcards in it taken literally. */
export const containsPattern = (text: string): string => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Binds a value as the next parameter and returns its placeholder (`$3`). */
export type Bind = (value: unknown) => string;

/**
 * A WHERE clause under construction. Each filter method skips itself when its value is absent
 * (`undefined`, `null`, `''` or an empty array), so a list reads as one line per optional filter.
 */
export class Filters {
  readonly conditions: string[] = [];
  readonly params: unknown[] = [];

  /** Binds a value as the next parameter and returns its placeholder. */
  readonly bind: Bind = (value) => {
    this.params.push(value);
    return `$${this.params.length}`;
  };

  /** `column = value`. */
  eq(column: string, value: unknown, cast = ''): this {
    if (absent(value)) return this;
    return this.raw((p) => `${column} = ${p(value)}${cast}`);
  }

  /** `column = ANY(values)`; `type` is the element type of the array parameter. */
  any(column: string, values: readonly unknown[] | undefined, type = 'text'): this {
    if (absent(values)) return this;
    return this.raw((p) => `${column} = ANY(${p(values)}::${type}[])`);
  }

  /** `column ILIKE %text%`, the text taken literally (see `containsPattern`). */
  contains(column: string, text: string | undefined, operator: 'ILIKE' | 'LIKE' = 'ILIKE'): this {
    if (absent(text)) return this;
    return this.raw((p) => `${column} ${operator} ${p(containsPattern(text!))}`);
  }

  /** A jsonb array column that holds `value` (`column @> '["value"]'`). */
  jsonHas(column: string, value: unknown): this {
    if (absent(value)) return this;
    return this.raw((p) => `${column} @> ${p(JSON.stringify([value]))}::jsonb`);
  }

  /** `from <= column < to` (either bound optional); `cast` types the bound parameters. */
  range(column: string, from: unknown, to: unknown, cast = ''): this {
    if (!absent(from)) this.raw((p) => `${column} >= ${p(from)}${cast}`);
    if (!absent(to)) this.raw((p) => `${column} < ${p(to)}${cast}`);
    return this;
  }

  /** Any condition; `sql` receives `bind` for its parameters. Always added. */
  raw(sql: string | ((bind: Bind) => string)): this {
    this.conditions.push(typeof sql === 'string' ? sql : sql(this.bind));
    return this;
  }

  /** `raw`, only when `when` holds. */
  rawIf(when: boolean, sql: string | ((bind: Bind) => string)): this {
    return when ? this.raw(sql) : this;
  }

  /** `WHERE a AND b ...`, or '' when there is no condition. */
  get sql(): string {
    return this.conditions.length ? `WHERE ${this.conditions.join(' AND ')}` : '';
  }
}

export const filters = (): Filters => new Filters();

const absent = (value: unknown): boolean =>
  value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);

/**
 * An ORDER BY from a request: `requested` only when it is in `whitelist` (else `fallback`), in the
 * requested direction, then `tieBreak` (default `id ASC`) so pages never overlap or skip rows.
 * `expressions` maps a sort key to the SQL it sorts by when they differ (`name` → `lower(name)`).
 */
export function sortOf<K extends string>(
  requested: string | undefined,
  whitelist: readonly K[],
  fallback: K,
  options: { descending?: boolean; tieBreak?: string; expressions?: Partial<Record<K, string>> } = {},
): string {
  const key = (whitelist as readonly string[]).includes(requested ?? '') ? (requested as K) : fallback;
  const expression = options.expressions?.[key] ?? key;
  return `${expression} ${options.descending ? 'DESC' : 'ASC'}, ${options.tieBreak ?? 'id ASC'}`;
}

/** The list page of spec §7 (page from 1, size 50 by default). */
export interface Page<T> {
  items: T[];
  /** The rows matched; when `total_exact` is false, a lower bound (see `ListSpec.countUpTo`). */
  total: number;
  page: number;
  size: number;
  /**
   * Set by lists counted with `countUpTo`: false when counting stopped early, and the list then has at
   * least `total` rows (one more than were counted), which is enough to page on.
   */
  total_exact?: boolean;
}

export const DEFAULT_PAGE_SIZE = 50;

/** The page and size a list call asked for, with the spec's defaults. */
export const pageOf = (q: { page?: number; size?: number }): { page: number; size: number } => ({
  page: q.page ?? 1,
  size: q.size ?? DEFAULT_PAGE_SIZE,
});

/** A built WHERE clause (`Filters` is one): '' or `WHERE ...`, with its parameters. */
export interface WhereClause {
  readonly sql: string;
  readonly params: readonly unknown[];
}

export interface ListSpec<Row, Item> {
  /** Columns read for the page (default `*`). */
  select?: string;
  /** A table, or a join, or `(subquery) alias`. */
  from: string;
  where?: WhereClause;
  /** A complete ORDER BY (from `sortOf`, or a fixed order ending in a unique tie-break). */
  orderBy: string;
  page?: number;
  size?: number;
  /** One row to one item, or (`mapRows`) the whole page at once, e.g. to look names up together. */
  map?: (row: Row) => Item;
  mapRows?: (rows: Row[]) => Item[] | Promise<Item[]>;
  /**
   * Count at most this many rows, or up to the end of the page asked for when that is further
   * (decision 0069): an exact count of 80,000 rows is most of a big list's cost on the embedded
   * database, and past a few thousand nobody pages by the count. Leave out for an exact count.
   */
  countUpTo?: number;
  /**
   * Read the page's rows from the table `from` names first, then compute `select` over those rows
   * only. For a `select` with a subquery per row: PostgreSQL computes a row's select list before
   * `OFFSET` skips it, so page 20 would run each subquery for 1,000 rows instead of 50. The page's rows
   * keep the table's name, so `select` and `orderBy` read as they would on the table; `from` must be a
   * bare table name and `orderBy` only its columns.
   */
  pageFirst?: boolean;
}

/** Counts the rows `where` matches and reads one page of them, in `orderBy` order. */
export async function listPage<Row, Item = Row>(
  db: Queryable,
  spec: ListSpec<Row, Item>,
): Promise<Page<Item>> {
  const { page, size } = pageOf(spec);
  if (!Number.isSafeInteger(page) || !Number.isSafeInteger(size) || page < 1 || size < 1)
    throw new RangeError(`listPage: page and size must be positive integers (got ${page}, ${size})`);
  if (spec.pageFirst && !/^[a-z_][a-z0-9_]*$/i.test(spec.from))
    throw new RangeError(`listPage: pageFirst needs a bare table name (got ${spec.from})`);
  const where = spec.where?.sql ?? '';
  const params = [...(spec.where?.params ?? [])];
  const bound = spec.countUpTo === undefined ? undefined : Math.max(spec.countUpTo, page * size);
  const { rows: count } = await db.query<{ total: string }>(
    bound === undefined
      ? `SELECT count(*)::text AS total FROM ${spec.from} ${where}`
      : `SELECT count(*)::text AS total FROM (SELECT 1 FROM ${spec.from} ${where} LIMIT ${bound + 1}) counted`,
    params,
  );
  const counted = Number(count[0]?.total ?? 0);
  const window = `ORDER BY ${spec.orderBy} LIMIT ${size} OFFSET ${(page - 1) * size}`;
  const { rows } = await db.query<Row>(
    spec.pageFirst
      ? `SELECT ${spec.select ?? '*'} FROM (SELECT * FROM ${spec.from} ${where} ${window}) ${spec.from}
          ORDER BY ${spec.orderBy}`
      : `SELECT ${spec.select ?? '*'} FROM ${spec.from} ${where} ${window}`,
    params,
  );
  const items = spec.mapRows
    ? await spec.mapRows(rows)
    : spec.map
      ? rows.map(spec.map)
      : (rows as unknown as Item[]);
  if (bound === undefined) return { items, total: counted, page, size };
  return { items, total: counted, page, size, total_exact: counted <= bound };
}
