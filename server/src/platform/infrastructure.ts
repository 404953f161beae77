import type { AppConfig } from './config/config.js';
import type { EventStore } from './event-store/event-store.js';
import { PostgresEventStore } from './event-store/postgres/postgres-event-store.js';
import type { SqlClient } from './sql/sql-client.js';
import { PgliteSqlClient } from './sql/pglite-client.js';
import { PgliteWorkerSqlClient } from './sql/pglite-worker-client.js';
import { PgSqlClient } from './sql/pg-client.js';
import { DirectoryLockedError } from './sql/directory-lock.js';
import { PersonalDataVault } from './personal-data/personal-data-vault.js';
import { portalProtectedStore } from './personal-data/protecting-event-store.js';

export interface Infrastructure {
  sql: SqlClient;
  /** The store every module uses: personal fields encrypted at rest (decision 0014). */
  eventStore: EventStore;
  vault: PersonalDataVault;
  close(): Promise<void>;
}

/** A store that cannot be used at start: the message names the variable to fix. */
export class StartupError extends Error {
  override readonly name = 'StartupError';
}

/** Opens the read-model database and the event store for the configured mode. */
export async function openInfrastructure(config: AppConfig): Promise<Infrastructure> {
  const sql = await openSql(config);
  let eventStore: EventStore;
  let vault: PersonalDataVault;
  try {
    const raw = config.eventStoreConnectionString
      ? await openEventStoreDb(config.eventStoreConnectionString)
      : await PostgresEventStore.create(sql);
    vault = await PersonalDataVault.open(sql).catch(async (e: unknown) => {
      await raw.close().catch(() => {});
      throw e;
    });
    eventStore = portalProtectedStore(raw, vault);
  } catch (e) {
    await sql.close().catch(() => {});
    throw e;
  }
  return {
    sql,
    eventStore,
    vault,
    close: async () => {
      // The database is closed even when the store's close fails, so no connection (or its LISTEN
      // reconnect timer) outlives the app.
      try {
        await eventStore.close();
      } finally {
        await sql.close();
      }
    },
  };
}

async function openSql(config: AppConfig): Promise<SqlClient> {
  if (!config.databaseUrl) {
    try {
      // In a worker thread by default, so its statements do not block this event loop (decision 0072).
      return config.pgliteWorker
        ? await PgliteWorkerSqlClient.open(config.dataDir)
        : await PgliteSqlClient.open(config.dataDir);
    } catch (e) {
      if (e instanceof DirectoryLockedError) throw new StartupError(e.message);
      throw new StartupError(
        `Could not open the embedded database in DATA_DIR=${config.dataDir}: ${(e as Error).message}. ` +
          'Set DATA_DIR to a writable directory.',
      );
    }
  }
  const client = new PgSqlClient(config.databaseUrl);
  try {
    await client.connectCheck();
    return client;
  } catch (e) {
    await client.close().catch(() => {});
    throw new StartupError(
      `Could not reach PostgreSQL at DATABASE_URL (${redactUrl(config.databaseUrl)}): ${(e as Error).message}. ` +
        'Check that the server runs and fix DATABASE_URL.',
    );
  }
}

async function openEventStoreDb(connectionString: string): Promise<EventStore> {
  const { EventStoreDbEventStore } = await import('./event-store/eventstoredb/eventstoredb-event-store.js');
  try {
    return await EventStoreDbEventStore.connect(connectionString);
  } catch (e) {
    throw new StartupError(
      `Could not reach EventStoreDB at EVENTSTORE_CONNECTION_STRING (${redactUrl(connectionString)}): ` +
        `${(e as Error).message}. Check that the server runs and fix EVENTSTORE_CONNECTION_STRING.`,
    );
  }
}

export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(unparseable URL)';
  }
}
