import { randomUUID } from 'node:crypto';
import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import nodemailer, { type Transporter } from 'nodemailer';
import { APP_CONFIG, LOGGER, SQL_CLIENT } from '../tokens.js';
import type { AppConfig } from '../config/config.js';
import type { SqlClient, SqlExecutor } from '../sql/sql-client.js';
import type { Log } from '../logging/logger.js';

export const MAIL_OUTBOX_SCHEMA = [
  `CREATE TABLE IF NOT EXISTS mail_outbox (
     id          uuid PRIMARY KEY,
     to_address  text NOT NULL,
     subject     text NOT NULL,
     body_text   text NOT NULL,
     created_at  timestamptz NOT NULL DEFAULT clock_timestamp(),
     sent_at     timestamptz,
     delivery    text NOT NULL DEFAULT 'pending',
     attempts    int NOT NULL DEFAULT 0,
     last_error  text
   )`,
  `CREATE INDEX IF NOT EXISTS mail_outbox_pending ON mail_outbox (created_at) WHERE sent_at IS NULL`,
  // Mails sent once per key (alerts, digests, reminders): state, not a projection, so a rebuild or a
  // second process never sends one twice (decision 0061).
  `CREATE TABLE IF NOT EXISTS mail_once (
     key        text PRIMARY KEY,
     mail_id    uuid,
     created_at timestamptz NOT NULL DEFAULT clock_timestamp()
   )`,
];

export interface OutboxMail {
  id: string;
  to_address: string;
  subject: string;
  body_text: string;
  created_at: Date;
  sent_at: Date | null;
  delivery: 'pending' | 'smtp' | 'logged' | 'failed';
  attempts: number;
  last_error: string | null;
}

const MAX_ATTEMPTS = 5;

/**
 * Every e-mail goes through the outbox table first (so nothing is lost if sending fails). A sender
 * delivers pending mail by SMTP when SMTP_URL is set; otherwise it logs the mail and marks it
 * `logged`. Administrators can read the outbox (GET /api/v1/mail-outbox).
 */
@Injectable()
export class MailOutbox implements OnModuleInit, OnModuleDestroy {
  private readonly transport: Transporter | null;
  private timer: NodeJS.Timeout | null = null;
  private draining: Promise<void> | null = null;

  constructor(
    @Inject(SQL_CLIENT) private readonly sql: SqlClient,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(LOGGER) private readonly log: Log,
  ) {
    this.transport = config.smtpUrl ? nodemailer.createTransport(config.smtpUrl) : null;
  }

  onModuleInit(): void {
    this.timer = setInterval(() => void this.drain(), 5000);
    this.timer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.draining;
    this.transport?.close();
  }

  async enqueue(to: string, subject: string, text: string): Promise<string> {
    const id = await this.enqueueIn(this.sql, to, subject, text);
    void this.drain();
    return id;
  }

  /**
   * Queues a mail inside the caller's transaction (`tx`), so it is queued exactly when the caller's
   * own record of sending it commits; the caller starts `drain()` after the commit.
   */
  async enqueueIn(tx: SqlExecutor, to: string, subject: string, text: string): Promise<string> {
    const id = randomUUID();
    await tx.query('INSERT INTO mail_outbox (id, to_address, subject, body_text) VALUES ($1, $2, $3, $4)', [
      id,
      to,
      subject,
      text,
    ]);
    return id;
  }

  /**
   * Queues a mail under `key` unless a mail (or a skip) was recorded under it already: the key and the
   * mail commit together. `to: null` records the key without sending. True when queued.
   */
  async enqueueOnce(key: string, to: string | null, subject: string, text: string): Promise<boolean> {
    const queued = await this.sql.transaction(async (tx) => {
      const claimed = await tx.query(
        'INSERT INTO mail_once (key) VALUES ($1) ON CONFLICT DO NOTHING RETURNING key',
        [key],
      );
      if (claimed.rows.length === 0 || to === null) return false;
      const mailId = await this.enqueueIn(tx, to, subject, text);
      await tx.query('UPDATE mail_once SET mail_id = $2 WHERE key = $1', [key, mailId]);
      return true;
    });
    if (queued) void this.drain();
    return queued;
  }

  /** Forgets every mail to either address, compared case-insensitively (erasure, decision 0014). */
  async forget(address: string, otherAddress: string): Promise<void> {
    await this.sql.query('DELETE FROM mail_outbox WHERE lower(to_address) IN (lower($1), lower($2))', [
      address,
      otherAddress,
    ]);
  }

  async list(limit = 100): Promise<OutboxMail[]> {
    const { rows } = await this.sql.query<OutboxMail>(
      'SELECT * FROM mail_outbox ORDER BY created_at DESC LIMIT $1::int',
      [limit],
    );
    return rows;
  }

  /** Sends (or logs) pending mail; one drain at a time per process. */
  drain(): Promise<void> {
    this.draining ??= this.drainOnce().finally(() => (this.draining = null));
    return this.draining;
  }

  private async drainOnce(): Promise<void> {
    const { rows } = await this.sql
      .query<OutboxMail>(
        `SELECT * FROM mail_outbox WHERE sent_at IS NULL AND delivery <> 'failed' ORDER BY created_at LIMIT 20`,
      )
      .catch(() => ({ rows: [] as OutboxMail[] }));
    for (const mail of rows) {
      // Claim it: with several processes, only one sends a given mail.
      const claimed = await this.sql.query(
        `UPDATE mail_outbox SET attempts = attempts + 1 WHERE id = $1 AND attempts = $2 AND sent_at IS NULL RETURNING id`,
        [mail.id, mail.attempts],
      );
      if (claimed.rows.length === 0) continue;
      try {
        if (this.transport) {
          await this.transport.sendMail({
            from: this.config.mailFrom,
            to: mail.to_address,
            subject: mail.subject,
            text: mail.body_text,
          });
        } else {
          this.log.info(
            { mailId: mail.id, to: mail.to_address, subject: mail.subject, body: mail.body_text },
            'mail (SMTP_URL not set: logged instead of sent)',
          );
        }
        await this.sql.query(
          `UPDATE mail_outbox SET sent_at = clock_timestamp(), delivery = $2 WHERE id = $1`,
          [mail.id, this.transport ? 'smtp' : 'logged'],
        );
      } catch (e) {
        const failed = mail.attempts + 1 >= MAX_ATTEMPTS;
        this.log.warn({ mailId: mail.id, err: e, attempt: mail.attempts + 1 }, 'mail could not be sent');
        await this.sql.query(`UPDATE mail_outbox SET last_error = $2, delivery = $3 WHERE id = $1`, [
          mail.id,
          e instanceof Error ? e.message : String(e),
          failed ? 'failed' : 'pending',
        ]);
      }
    }
  }
}
