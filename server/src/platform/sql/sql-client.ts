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
