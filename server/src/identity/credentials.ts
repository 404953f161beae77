import { Inject, Injectable } from '@nestjs/common';
import { hash, verify, type Options } from '@node-rs/argon2';
import { SQL_CLIENT } from '../platform/tokens.js';
import type { SqlClient } from '../platform/sql/sql-client.js';

/** OWASP minimum for argon2id: m = 19 MiB, t = 2, p = 1. */
const ARGON2: Options = { algorithm: 2 /* Argon2id */, memoryCost: 19_456, timeCost: 2, parallelism: 1 };

export const CREDENTIALS_SCHEMA = [
  `CREATE TABLE IF NOT EXISTS auth_credentials (
     user_id       uuid PRIMARY KEY,
     password_hash text NOT NULL,
     updated_at    timestamptz NOT NULL DEFAULT clock_timestamp()
   )`,
];

/**
 * Password hashes are secrets, not facts: they are kept out of the event store (whose history is
 * replayed to auditors) in their own table. The event stream records that a password was set.
 * See docs/decisions/0004-secrets-are-not-events.md.
 */
@Injectable()
export class Credentials {
  constructor(@Inject(SQL_CLIENT) private readonly sql: SqlClient) {}

  async setPassword(userId: string, password: string): Promise<void> {
    const passwordHash = await hash(password, ARGON2);
    await this.sql.query(
      `INSERT INTO auth_credentials (user_id, password_hash) VALUES ($1, $2)
       ON CONFLICT (user_id) DO UPDATE SET password_hash = EXCLUDED.password_hash, updated_at = clock_timestamp()`,
      [userId, passwordHash],
    );
  }

  /** Removes the user's password (erasure, decision 0014): they can no longer sign in with one. */
  async remove(userId: string): Promise<void> {
    await this.sql.query('DELETE FROM auth_credentials WHERE user_id = $1', [userId]);
  }

  /** Verifies a password; always spends one argon2 verification so timing does not reveal unknown users. */
  async check(userId: string | null, password: string): Promise<boolean> {
    const { rows } = userId
      ? await this.sql.query<{ password_hash: string }>(
          'SELECT password_hash FROM auth_credentials WHERE user_id = $1',
          [userId],
        )
      : { rows: [] };
    const stored = rows[0]?.password_hash ?? (await dummyHash());
    const ok = await verify(stored, password).catch(() => false);
    return ok && rows.length > 0;
  }
}

let dummy: Promise<string> | null = null;
function dummyHash(): Promise<string> {
  dummy ??= hash('not-a-real-password-used-for-timing', ARGON2);
  return dummy;
}
