import { createHash, randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { SQL_CLIENT } from '../platform/tokens.js';
import type { SqlClient } from '../platform/sql/sql-client.js';

/**
 * The secret half of partner feedback links (docs/decisions/0030-partner-feedback-links.md): a token
 * (256 random bits, shown once in the mailed link) maps, by its SHA-256 only, to its link and incident.
 * The table is the single-use authority (consuming is one atomic UPDATE); what happened to a link is in
 * its events. `receipt` tokens open the confirmation page of one submitted feedback for a short while.
 */
export const FEEDBACK_TOKEN_SCHEMA = [
  `CREATE TABLE IF NOT EXISTS sg_feedback_tokens (
     token_hash  text PRIMARY KEY,
     kind        text NOT NULL,
     link_id     uuid NOT NULL,
     incident_id uuid NOT NULL,
     feedback_id uuid,
     created_at  timestamptz NOT NULL DEFAULT clock_timestamp(),
     expires_at  timestamptz NOT NULL,
     used_at     timestamptz
   )`,
  `CREATE INDEX IF NOT EXISTS sg_feedback_tokens_link ON sg_feedback_tokens (link_id)`,
];

export type FeedbackTokenKind = 'link' | 'receipt';

export interface FeedbackTokenRow {
  link_id: string;
  incident_id: string;
  feedback_id: string | null;
  expires_at: Date;
  used_at: Date | null;
}

const TOKEN = /^[A-Za-z0-9_-]{43}$/;
const hash = (token: string) => createHash('sha256').update(token).digest('hex');

@Injectable()
export class FeedbackTokens {
  constructor(@Inject(SQL_CLIENT) private readonly sql: SqlClient) {}

  async issue(
    kind: FeedbackTokenKind,
    ids: { linkId: string; incidentId: string; feedbackId?: string },
    expiresAt: Date,
  ): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    await this.sql.query(
      `INSERT INTO sg_feedback_tokens (token_hash, kind, link_id, incident_id, feedback_id, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6)`,
      [hash(token), kind, ids.linkId, ids.incidentId, ids.feedbackId ?? null, expiresAt.toISOString()],
    );
    return token;
  }

  /** The token's row whatever its state (the link's events say why it no longer works); null if unknown. */
  async find(kind: FeedbackTokenKind, token: string): Promise<FeedbackTokenRow | null> {
    if (!TOKEN.test(token)) return null;
    const { rows } = await this.sql.query<FeedbackTokenRow>(
      `SELECT link_id::text AS link_id, incident_id::text AS incident_id, feedback_id::text AS feedback_id,
              expires_at, used_at
         FROM sg_feedback_tokens WHERE token_hash = $1 AND kind = $2`,
      [hash(token), kind],
    );
    return rows[0] ?? null;
  }

  /** Marks the token used, once, while unexpired; false when another request won or it expired. */
  async consume(token: string): Promise<boolean> {
    const { rows } = await this.sql.query<{ link_id: string }>(
      `UPDATE sg_feedback_tokens SET used_at = clock_timestamp()
        WHERE token_hash = $1 AND kind = 'link' AND used_at IS NULL AND expires_at > clock_timestamp()
        RETURNING link_id`,
      [hash(token)],
    );
    return rows.length === 1;
  }

  /** Undoes `consume` when recording the feedback was refused (for example the incident was closed). */
  async release(token: string): Promise<void> {
    await this.sql.query(`UPDATE sg_feedback_tokens SET used_at = NULL WHERE token_hash = $1`, [hash(token)]);
  }

  /** A revoked link stops working at once, also for a submission already past the event check. */
  async expireLink(linkId: string): Promise<void> {
    await this.sql.query(
      `UPDATE sg_feedback_tokens SET expires_at = LEAST(expires_at, clock_timestamp())
        WHERE link_id = $1 AND kind = 'link'`,
      [linkId],
    );
  }
}
