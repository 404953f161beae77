import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { SqlClient, SqlExecutor, SqlSession } from './sql-client.js';
import { copyStatement } from './sql-literal.js';
import { acquireDirectoryLock, type DirectoryLock } from './directory-lock.js';

/**
 * SqlClient on embedded PGlite (PostgreSQL in WASM, in this process). PGlite does not lock its data
 * directory, so we take an exclusive lock file first: a second process on the same directory refuses
 * to start instead of silently losing writes.
 */
export class PgliteSqlClient implements SqlClient {
  readonly kind = 'pglite' as const;

  private constructor(
    private readonly db: PGlite,
    private readonly lock: DirectoryLock | null,
  ) {}

  /** `dataDir` undefined → in-memory database (tests). */
  static async open(dataDir?: string): Promise<PgliteSqlClient> {
    const lock = dataDir ? await acquireDirectoryLock(dataDir) : null;
    try {
      // pg_trgm: trigram indexes for the user search (the users projection creates the extension).
      const db = await PGlite.create(dataDir ?? 'memory://', { extensions: { pg_trgm } });
      return new PgliteSqlClient(db, lock);
    } catch (e) {
      await lock?.release();
      throw e;
    }
  }

  async query<Row>(sql: string, params?: unknown[]): Promise<{ rows: Row[] }> {
    const r = await this.db.query<Row>(sql, params);
    return { rows: r.rows };
  }

  async exec(sql: string): Promise<void> {
    await this.db.exec(sql);
  }

  script(sql: string): Promise<void> {
    return this.exec(sql);
  }

  transaction<T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T> {
    return this.db.transaction(async (tx) =>
      fn({
        query: async <Row>(sql: string, params?: unknown[]) => {
          const r = await tx.query<Row>(sql, params);
          return { rows: r.rows };
        },
        script: async (sql: string) => {
          await tx.exec(sql);
        },
        copyIn: async (table: string, columns: readonly string[], text: string) => {
          await tx.query(copyStatement(table, columns, `'/dev/blob'`), [], {
            blob: new Blob([text]),
          });
        },
      }),
    );
  }

  async listen(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>> {
    return this.db.listen(channel, onNotify);
  }

  /** One process owns an embedded database, so its single connection is every session. */
  session(): Promise<SqlSession> {
    return Promise.resolve({
      lost: new Promise<Error>(() => {}),
      query: (sql, params) => this.query(sql, params),
      script: (sql) => this.exec(sql),
      transaction: (fn) => this.transaction(fn),
      release: () => Promise.resolve(),
    });
  }

  async close(): Promise<void> {
    if (!this.db.closed) await this.db.close();
    await this.lock?.release();
  }
}
