import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, SQL_CLIENT } from '../tokens.js';
import type { AppConfig } from '../config/config.js';
import type { SqlClient } from '../sql/sql-client.js';

export const SESSION_SCHEMA = [
  `CREATE TABLE IF NOT EXISTS auth_sessions (
     id              uuid PRIMARY KEY,
     token_hash      text NOT NULL UNIQUE,
     user_id         uuid NOT NULL,
     impersonator_id uuid,
     created_at      timestamptz NOT NULL DEFAULT clock_timestamp(),
     last_seen_at    timestamptz NOT NULL DEFAULT clock_timestamp(),
     expires_at      timestamptz NOT NULL,
     revoked_at      timestamptz
   )`,
  `CREATE INDEX IF NOT EXISTS auth_sessions_user ON auth_sessions (user_id) WHERE revoked_at IS NULL`,
  `CREATE INDEX IF NOT EXISTS auth_sessions_impersonator ON auth_sessions (impersonator_id)
     WHERE revoked_at IS NULL AND impersonator_id IS NOT NULL`,
];

/** How old `last_seen_at` may get before a request writes it again (idle timeouts are minutes). */
const TOUCH_AFTER = `interval '15 seconds'`;

export interface Session {
  id: string;
  userId: string;
  impersonatorId: string | null;
}

export type SessionCheck = { ok: true; session: Session } | { ok: false; reason: 'unknown' | 'ended' };

/**
 * Server-side sessions. A token is 256 random bits shown to the client once; only its SHA-256 is
 * stored, so a leaked database does not leak usable tokens. Sessions end when idle too long
 * (`SESSION_IDLE_MINUTES`), at their absolute lifetime (`SESSION_MAX_HOURS`), or when revoked: one at
 * logout, all of a user's at once after a block, deactivation or password change (decision 0039).
 */
@Injectable()
export class SessionService {
  constructor(
    @Inject(SQL_CLIENT) private readonly sql: SqlClient,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Absolute lifetime of a new session, in seconds (the `expires_in` of the token answers). */
  get lifetimeSeconds(): number {
    return this.config.session.maxHours * 3600;
  }

  async create(
    userId: string,
    impersonatorId: string | null = null,
  ): Promise<{ token: string; session: Session; expiresIn: number }> {
    const token = randomBytes(32).toString('base64url');
    const id = randomUUID();
    await this.sql.query(
      `INSERT INTO auth_sessions (id, token_hash, user_id, impersonator_id, expires_at)
       VALUES ($1, $2, $3, $4, clock_timestamp() + make_interval(hours => $5::int))`,
      [id, hashToken(token), userId, impersonatorId, this.config.session.maxHours],
    );
    return { token, session: { id, userId, impersonatorId }, expiresIn: this.lifetimeSeconds };
  }

  /**
   * Checks a token and keeps its session alive. `last_seen_at` is written at most every 15 seconds per
   * session (idle timeouts are minutes): most requests then only read, instead of committing a write.
   */
  async verify(token: string): Promise<SessionCheck> {
    if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return { ok: false, reason: 'unknown' };
    // A plain read; the rare write (once per 15 s) goes on its own, so most requests run one cheap
    // SELECT instead of a statement with a data-modifying CTE.
    const { rows } = await this.sql.query<{
      id: string;
      user_id: string;
      impersonator_id: string | null;
      alive: boolean;
      stale: boolean;
    }>(
      `SELECT id, user_id, impersonator_id,
              (revoked_at IS NULL AND expires_at > clock_timestamp()
               AND last_seen_at > clock_timestamp() - make_interval(mins => $2::int)) AS alive,
              last_seen_at < clock_timestamp() - ${TOUCH_AFTER} AS stale
         FROM auth_sessions WHERE token_hash = $1`,
      [hashToken(token), this.config.session.idleMinutes],
    );
    const row = rows[0];
    if (!row) return { ok: false, reason: 'unknown' };
    if (!row.alive) return { ok: false, reason: 'ended' };
    if (row.stale)
      await this.sql.query(
        `UPDATE auth_sessions SET last_seen_at = clock_timestamp()
          WHERE id = $1 AND last_seen_at < clock_timestamp() - ${TOUCH_AFTER}`,
        [row.id],
      );
    return { ok: true, session: { id: row.id, userId: row.user_id, impersonatorId: row.impersonator_id } };
  }

  /** Which of these sessions are still alive (not revoked, expired or idle). Does not touch them. */
  async alive(sessionIds: readonly string[]): Promise<Set<string>> {
    if (sessionIds.length === 0) return new Set();
    const { rows } = await this.sql.query<{ id: string }>(
      `SELECT id FROM auth_sessions
        WHERE id IN (SELECT jsonb_array_elements_text($1::jsonb)::uuid) AND revoked_at IS NULL AND expires_at > clock_timestamp()
          AND last_seen_at > clock_timestamp() - make_interval(mins => $2::int)`,
      [JSON.stringify(sessionIds), this.config.session.idleMinutes],
    );
    return new Set(rows.map((r) => r.id));
  }

  /** Ends the user's sessions, and the impersonation sessions they started (decision 0012). */
  async revokeAllForUser(userId: string): Promise<number> {
    const { rows } = await this.sql.query<{ id: string }>(
      `UPDATE auth_sessions SET revoked_at = clock_timestamp()
        WHERE (user_id = $1 OR impersonator_id = $1) AND revoked_at IS NULL RETURNING id`,
      [userId],
    );
    return rows.length;
  }

  async revoke(sessionId: string): Promise<void> {
    await this.sql.query(
      `UPDATE auth_sessions SET revoked_at = clock_timestamp() WHERE id = $1 AND revoked_at IS NULL`,
      [sessionId],
    );
  }
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
