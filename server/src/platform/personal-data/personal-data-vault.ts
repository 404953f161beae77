import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { SqlClient } from '../sql/sql-client.js';

/**
 * Per-subject data keys for crypto-shredding (decision 0014). Keys are state, not events (decision
 * 0004): they live in `pii_keys` next to the read models. Destroying a subject's key makes every
 * encrypted field of their events unreadable, wherever the events were copied.
 */
export const PERSONAL_DATA_SCHEMA = [
  `CREATE TABLE IF NOT EXISTS pii_keys (
     subject_id text PRIMARY KEY,
     -- base64 of a 256-bit AES key; NULL once erased (the row stays as a tombstone)
     data_key   text,
     created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
     erased_at  timestamptz
   )`,
];

/** Prefix of an encrypted field value: `pii:v1:` + base64(iv 12 bytes | tag 16 bytes | ciphertext). */
export const ENVELOPE_PREFIX = 'pii:v1:';

export const isEnvelope = (value: unknown): value is string =>
  typeof value === 'string' && value.startsWith(ENVELOPE_PREFIX);

/**
 * The stored value of a personal field that shares its event part's envelope (decision 0098): the
 * envelope stands in the part's first encrypted field and opens to every such field's value by path.
 */
export const BUNDLED = 'pii:bundled';

/** A key the vault knows; null = erased; undefined = this subject never had a key. */
export type SubjectKey = Buffer | null | undefined;

export function encryptValue(key: Buffer, subject: string, value: unknown): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(subject, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()]);
  return ENVELOPE_PREFIX + Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString('base64');
}

/** Decrypts an envelope; throws when the key does not match or the value was tampered with. */
export function decryptValue(key: Buffer, subject: string, envelope: string): unknown {
  const raw = Buffer.from(envelope.slice(ENVELOPE_PREFIX.length), 'base64');
  const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
  decipher.setAAD(Buffer.from(subject, 'utf8'));
  decipher.setAuthTag(raw.subarray(12, 28));
  const plain = Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  return JSON.parse(plain) as unknown;
}

interface CacheEntry {
  key: Buffer | null | undefined;
  at: number;
}

export interface VaultOptions {
  /** How long a live key (or a missing one) is trusted without asking the database again. */
  cacheTtlMs?: number;
  now?: () => number;
}

/**
 * Keys with a small in-memory cache. Erasure is final, so "erased" is cached forever; a live key is
 * re-read after `cacheTtlMs` (default 30 s), which bounds how long another process that has not seen
 * the erase event yet could still decrypt. A process that reads the erase event drops its entry
 * first (see ProtectingEventStore), so any read of the subject's own stream is exact.
 */
export class PersonalDataVault {
  private readonly cache = new Map<string, CacheEntry>();
  private readonly ttl: number;
  private readonly now: () => number;

  constructor(
    private readonly sql: SqlClient,
    options: VaultOptions = {},
  ) {
    this.ttl = options.cacheTtlMs ?? 30_000;
    this.now = options.now ?? Date.now;
  }

  static async open(sql: SqlClient, options?: VaultOptions): Promise<PersonalDataVault> {
    for (const ddl of PERSONAL_DATA_SCHEMA) await sql.query(ddl);
    return new PersonalDataVault(sql, options);
  }

  private cached(subject: string): CacheEntry | undefined {
    const entry = this.cache.get(subject);
    if (!entry) return undefined;
    if (entry.key === null || this.now() - entry.at < this.ttl) return entry;
    this.cache.delete(subject);
    return undefined;
  }

  /** Keys of these subjects (one query for all the uncached ones). */
  async keysFor(subjects: Iterable<string>): Promise<Map<string, SubjectKey>> {
    const result = new Map<string, SubjectKey>();
    const missing: string[] = [];
    for (const s of new Set(subjects)) {
      const entry = this.cached(s);
      if (entry) result.set(s, entry.key);
      else missing.push(s);
    }
    if (missing.length > 0) {
      const { rows } = await this.sql.query<{ subject_id: string; data_key: string | null }>(
        'SELECT subject_id, data_key FROM pii_keys WHERE subject_id = ANY($1::text[])',
        [missing],
      );
      const found = new Map(rows.map((r) => [r.subject_id, r.data_key]));
      for (const s of missing) {
        const stored = found.get(s);
        const key = stored === undefined ? undefined : stored === null ? null : Buffer.from(stored, 'base64');
        this.cache.set(s, { key, at: this.now() });
        result.set(s, key);
      }
    }
    return result;
  }

  /** The key to encrypt with: created on first use; null when the subject's data was erased. */
  async keyForWrite(subject: string): Promise<Buffer | null> {
    const known = (await this.keysFor([subject])).get(subject);
    if (known !== undefined) return known;
    await this.sql.query(
      'INSERT INTO pii_keys (subject_id, data_key) VALUES ($1, $2) ON CONFLICT (subject_id) DO NOTHING',
      [subject, randomBytes(32).toString('base64')],
    );
    this.cache.delete(subject);
    const key = (await this.keysFor([subject])).get(subject);
    if (key === undefined) throw new Error(`personal data key for ${subject} could not be created`);
    return key;
  }

  /** Destroys the subject's key (idempotent). Nothing encrypted with it can be read again. */
  async erase(subject: string): Promise<void> {
    await this.sql.query(
      `INSERT INTO pii_keys (subject_id, data_key, erased_at) VALUES ($1, NULL, clock_timestamp())
       ON CONFLICT (subject_id) DO UPDATE SET data_key = NULL, erased_at = COALESCE(pii_keys.erased_at, clock_timestamp())`,
      [subject],
    );
    this.markErased(subject);
  }

  /** Called for every erase event a process sees: its cached key is dropped at once. */
  markErased(subject: string): void {
    this.cache.set(subject, { key: null, at: this.now() });
  }

  async isErased(subject: string): Promise<boolean> {
    return (await this.keysFor([subject])).get(subject) === null;
  }
}
