/**
 * The small SQL surface the event store and the projection runner need. One implementation runs on
 * embedded PGlite, one on a PostgreSQL server through `pg`: the SQL above it is the same.
 */
export interface SqlExecutor {
  query<Row = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<{ rows: Row[] }>;
  /**
   * Runs several statements without parameters in one round trip (the simple query protocol), in
   * order, stopping at the first error. Inside a transaction, they belong to it.
   */
  script(sql: string): Promise<void>;
  /**
   * Loads `text`, rows in the text format of PostgreSQL's `COPY` (one line per row, columns split by
   * tabs, `\N` for null), into `columns` of `table` with `COPY ... FROM STDIN` (decision 0093): the
   * fastest way to send many rows: the server parses each value once, with no statement around them.
   * On PostgreSQL through the driver's COPY stream, on embedded PGlite through its `/dev/blob`;
   * absent where the store has no such path (PGlite in its worker thread, decision 0072).
   */
  copyIn?(table: string, columns: readonly string[], text: string): Promise<void>;
}

export interface SqlSession extends SqlExecutor {
  /** Runs `fn` inside BEGIN/COMMIT on this session (ROLLBACK when it throws). */
  transaction<T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T>;
  /** Resolves when the session's connection is lost (used to give up leadership). */
  readonly lost: Promise<Error>;
  release(): Promise<void>;
}

export interface SqlClient extends SqlExecutor {
  readonly kind: 'pglite' | 'postgres';
  /** Runs `fn` inside one transaction. */
  transaction<T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T>;
  /** Runs a script of several statements (DDL). */
  exec(sql: string): Promise<void>;
  /** LISTEN on a channel; returns a function that stops listening. */
  listen(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>>;
  /**
   * A dedicated session that keeps session-level state (advisory locks). On PGlite, where one process
   * owns the database, it is the shared connection.
   */
  session(): Promise<SqlSession>;
  close(): Promise<void>;
}
