import { createHash, randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { SQL_CLIENT } from '../platform/tokens.js';
import type { SqlClient } from '../platform/sql/sql-client.js';

export const TOKEN_LINK_SCHEMA = [
  `CREATE TABLE IF NOT EXISTS auth_token_links (
     token_hash text PRIMARY KEY,
     purpose    text NOT NULL,
     user_id    uuid NOT NULL,
     created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
     expires_at timestamptz NOT NULL,
     used_at    timestamptz
   )`,
];

/**
 * What a link is for. The link's subject (`user_id` column) is the user, except for 'partner-invite'
 * whose subject is the invitation (the user does not exist yet).
 */
export type TokenPurpose = 'password-reset' | 'activation' | 'partner-invite' | 'notification-email';

export const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/**
 * Token links (password recovery, activation, invitations): 256 random bits, shown once in the link,
 * stored only as SHA-256; single use (consuming marks it used atomically) and expiring.
 */
@Injectable()
export class TokenLinks {
  constructor(@Inject(SQL_CLIENT) private readonly sql: SqlClient) {}

  async issue(purpose: TokenPurpose, userId: string, minutes: number): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    await this.sql.query(
      `INSERT INTO auth_token_links (token_hash, purpose, user_id, expires_at)
       VALUES ($1, $2, $3, clock_timestamp() + make_interval(mins => $4::int))`,
      [hash(token), purpose, userId, minutes],
    );
    return token;
  }

  /** The user the link was issued to, once; null when unknown, used, expired or for another purpose. */
  async consume(purpose: TokenPurpose, token: string): Promise<string | null> {
    if (!TOKEN_PATTERN.test(token)) return null;
    const { rows } = await this.sql.query<{ user_id: string }>(
      `UPDATE auth_token_links SET used_at = clock_timestamp()
        WHERE token_hash = $1 AND purpose = $2 AND used_at IS NULL AND expires_at > clock_timestamp()
        RETURNING user_id`,
      [hash(token), purpose],
    );
    return rows[0]?.user_id ?? null;
  }

  /** Like `consume` but leaves the link usable: for pages that check a link before using it. */
  async peek(purpose: TokenPurpose, token: string): Promise<string | null> {
    if (!TOKEN_PATTERN.test(token)) return null;
    const { rows } = await this.sql.query<{ user_id: string }>(
      `SELECT user_id FROM auth_token_links
        WHERE token_hash = $1 AND purpose = $2 AND used_at IS NULL AND expires_at > clock_timestamp()`,
      [hash(token), purpose],
    );
    return rows[0]?.user_id ?? null;
  }

  /** Removes every link the user was ever sent, used or not (erasure, decision 0014). */
  async removeAll(userId: string): Promise<void> {
    await this.sql.query('DELETE FROM auth_token_links WHERE user_id = $1', [userId]);
  }

  /** Earlier unused links of the same purpose stop working when a new one is issued. */
  async revokeOpen(purpose: TokenPurpose, userId: string): Promise<void> {
    await this.sql.query(
      `UPDATE auth_token_links SET used_at = clock_timestamp()
        WHERE purpose = $1 AND user_id = $2 AND used_at IS NULL`,
      [purpose, userId],
    );
  }
}

const hash = (token: string) => createHash('sha256').update(token).digest('hex');
