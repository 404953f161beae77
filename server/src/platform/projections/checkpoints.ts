import type { SqlExecutor } from '../sql/sql-client.js';

export const CHECKPOINT_CHANNEL = 'proj_checkpoint';
export const REBUILD_CHANNEL = 'proj_rebuild';
export const LEADER_LOCK_KEY = 7_262_101;

export const CHECKPOINT_SCHEMA = `CREATE TABLE IF NOT EXISTS proj_checkpoints (
  name       text PRIMARY KEY,
  version    integer NOT NULL,
  position   bigint NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT clock_timestamp()
)`;

/**
 * Projections being built beside their live tables (decision 0065): the version being built and how
 * far it got. Its tables live in the schema `buildSchemaOf(name)` until they are swapped in.
 */
export const BUILD_SCHEMA = `CREATE TABLE IF NOT EXISTS proj_builds (
  name       text PRIMARY KEY,
  version    integer NOT NULL,
  position   bigint NOT NULL,
  started_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  updated_at timestamptz NOT NULL DEFAULT clock_timestamp()
)`;

/** The schema a projection's next version is built in. */
export const buildSchemaOf = (name: string): string =>
  `proj_next_${name.toLowerCase().replace(/[^a-z0-9_]/g, '_')}`;

export interface BuildRow {
  name: string;
  version: number;
  position: bigint;
}

export async function readBuilds(sql: SqlExecutor): Promise<BuildRow[]> {
  const { rows } = await sql.query<{ name: string; version: number; position: string }>(
    'SELECT name, version, position::text FROM proj_builds ORDER BY name',
  );
  return rows.map((r) => ({ name: r.name, version: Number(r.version), position: BigInt(r.position) }));
}

export const DEAD_LETTER_SCHEMA = `CREATE TABLE IF NOT EXISTS proj_dead_letters (
  projection text NOT NULL,
  position   bigint NOT NULL,
  event_type text NOT NULL,
  error      text NOT NULL,
  at         timestamptz NOT NULL DEFAULT clock_timestamp(),
  PRIMARY KEY (projection, position)
)`;

export interface CheckpointRow {
  name: string;
  version: number;
  position: bigint;
  updatedAt: Date;
}

export async function readCheckpoints(sql: SqlExecutor): Promise<CheckpointRow[]> {
  const { rows } = await sql.query<{
    name: string;
    version: number;
    position: string;
    updated_at: Date | string;
  }>('SELECT name, version, position::text, updated_at FROM proj_checkpoints ORDER BY name');
  return rows.map((r) => ({
    name: r.name,
    version: Number(r.version),
    position: BigInt(r.position),
    updatedAt: new Date(r.updated_at),
  }));
}
