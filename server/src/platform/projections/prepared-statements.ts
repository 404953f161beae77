import type { SqlExecutor } from '../sql/sql-client.js';
import { placeholderCount, sqlLiteral } from '../sql/sql-literal.js';

/** Uses of a text on one session before it is prepared (a text used once or twice is not worth it). */
const PREPARE_AFTER = 3;
/** Texts prepared on one session at most (each holds a parse tree and plans on the server). */
const MAX_PREPARED = 300;

/** Names unique in the process: PGlite's sessions share one connection, and so its prepared statements. */
let nextName = 0;

/** What the server answers for EXECUTE of a name it does not know (`invalid_sql_statement_name`). */
const UNKNOWN_STATEMENT = '26000';

/**
 * The statement texts the write-behind has prepared on one database session (decision 0074). A text
 * the runner's projections send again and again is prepared once (`PREPARE wb_n AS <text>`, the
 * parameter types inferred by the server exactly as for a parameterized query), and then sent in a
 * script as `EXECUTE wb_n('literal', ...)`: the server parses a few words and reuses the analysed
 * statement and, where it is as cheap, the plan, instead of parsing, analysing and planning the whole
 * text for every event. That is 2-3x less work per statement on PostgreSQL and on PGlite.
 *
 * Prepared statements belong to the connection, outside transactions: a rollback does not undo a
 * PREPARE, so what is recorded here stays true while the session lives. The server re-analyses a
 * prepared statement when a table it names is dropped and created again, or when `search_path`
 * differs (a projection built in its own schema), so a text prepared once serves every schema.
 * A text whose parameter types the server cannot infer is remembered as such and sent inlined.
 */
export class PreparedStatements {
  private readonly uses = new Map<string, number>();
  /** The name a text is prepared under, or null when it cannot be prepared. */
  private readonly names = new Map<string, string | null>();
  private due: string[] = [];
  /** Statements prepared, and texts the server refused to prepare. */
  readonly stats = { prepared: 0, refused: 0 };

  /** Counts a use of `text`; at the third it is due to be prepared (`prepareDue`). */
  used(text: string): void {
    if (this.names.has(text)) return;
    const n = (this.uses.get(text) ?? 0) + 1;
    if (n === PREPARE_AFTER) {
      this.uses.delete(text);
      if (this.names.size + this.due.length < MAX_PREPARED) this.due.push(text);
      this.names.set(text, null);
    } else this.uses.set(text, n);
  }

  get hasDue(): boolean {
    return this.due.length > 0;
  }

  /**
   * Prepares the texts that are due, each behind a savepoint of the open transaction `tx`, so one the
   * server refuses ("could not determine data type of parameter") leaves the transaction usable.
   */
  async prepareDue(tx: SqlExecutor): Promise<void> {
    const due = this.due;
    this.due = [];
    for (const text of due) {
      const name = `wb_${++nextName}`;
      try {
        await tx.script(`SAVEPOINT wb_prepare;\nPREPARE ${name} AS ${text}\n;\nRELEASE SAVEPOINT wb_prepare`);
        this.names.set(text, name);
        this.stats.prepared++;
      } catch {
        await tx.script('ROLLBACK TO SAVEPOINT wb_prepare;\nRELEASE SAVEPOINT wb_prepare');
        this.stats.refused++;
      }
    }
  }

  /** `text` with `params` as an EXECUTE of its prepared statement, or null when it is not prepared. */
  execute(text: string, params: readonly unknown[]): string | null {
    const name = this.names.get(text);
    if (!name) return null;
    const count = placeholderCount(text);
    if (count === 0) return `EXECUTE ${name}`;
    if (params.length < count) return null;
    let args = sqlLiteral(params[0]);
    for (let i = 1; i < count; i++) args += `, ${sqlLiteral(params[i])}`;
    return `EXECUTE ${name}(${args})`;
  }

  /**
   * After an error: when it says a prepared statement is unknown (the connection was replaced, or
   * something deallocated it), forget every name, so the retry sends the texts inlined and prepares
   * them anew.
   */
  failed(error: unknown): void {
    if ((error as { code?: unknown } | null)?.code !== UNKNOWN_STATEMENT) return;
    this.names.clear();
    this.uses.clear();
    this.due = [];
  }

  /** Frees the prepared statements on the session before it goes back to a pool; best effort. */
  async deallocate(session: SqlExecutor): Promise<void> {
    const names = [...this.names.values()].filter((n): n is string => n !== null);
    this.names.clear();
    this.uses.clear();
    this.due = [];
    if (names.length === 0) return;
    await session.script(names.map((n) => `DEALLOCATE ${n}`).join(';\n')).catch(() => {});
  }
}
