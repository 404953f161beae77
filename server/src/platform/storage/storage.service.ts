import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { link, mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, resolve, sep } from 'node:path';
import { HttpStatus, Inject, Injectable } from '@nestjs/common';
import type { AppConfig } from '../config/config.js';
import { Problem } from '../http/problem.js';
import type { SqlClient } from '../sql/sql-client.js';
import { APP_CONFIG, SQL_CLIENT } from '../tokens.js';

/** The access key id the embedded storage service signs with (there is one signing secret). */
export const EMBEDDED_ACCESS_KEY = 'portal-embedded';
export const UPLOAD_PATH = '/api/v1/storage/upload';
export const DOWNLOAD_PATH = '/api/v1/storage/download';

/** Content types a student file may have (documents and images). */
export const ALLOWED_CONTENT_TYPES: readonly string[] = [
  'application/pdf',
  'application/msword',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/vnd.oasis.opendocument.text',
  'application/rtf',
  'text/plain',
  'image/jpeg',
  'image/png',
];

export const STORAGE_SECRETS_SCHEMA = [
  `CREATE TABLE IF NOT EXISTS storage_secrets (
     name       text PRIMARY KEY,
     secret     text NOT NULL,
     created_at timestamptz NOT NULL DEFAULT clock_timestamp()
   )`,
];

/**
 * Keys an upload was stored under (decision 0038): a signed policy is for one key and one upload, so a
 * replayed form can neither upload twice nor overwrite a file once registered (or since deleted).
 */
export const STORAGE_UPLOADS_SCHEMA = [
  `CREATE TABLE IF NOT EXISTS storage_uploads (
     key         text PRIMARY KEY,
     uploaded_at timestamptz NOT NULL DEFAULT clock_timestamp()
   )`,
];

/** The policy document behind an upload form (base64 JSON, like an S3 POST policy). */
export interface UploadPolicy {
  expiration: string;
  conditions: {
    /** The one key the form may upload to. */
    key: string;
    keyPrefix: string;
    maxBytes: number;
    contentTypes: readonly string[];
  };
}

export interface UploadForm {
  url: string;
  fields: { key: string; AWSAccessKeyId: string; policy: string; signature: string };
  expires_at: string;
}

export interface StoredObject {
  path: string;
  size: number;
  contentType: string;
}

const SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}$/;
const badRequest = (detail: string) => new Problem(HttpStatus.BAD_REQUEST, detail);
const refused = (detail: string) => new Problem(HttpStatus.FORBIDDEN, detail);
const alreadyUploaded = () =>
  new Problem(
    HttpStatus.CONFLICT,
    'key: something was already uploaded with this form; ask for a new upload URL (a form is for one upload)',
  );

function sameHex(a: string, b: string): boolean {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * The embedded storage service (decision 0014 §files): objects under STORAGE_DIR, written only
 * through signed, expiring form-post policies (HMAC-SHA256 over the base64 policy) and read only
 * through signed, expiring download URLs. The signing secret is shared by every process through
 * `storage_secrets`. Keys are relative paths of safe segments; a key can never leave the root.
 */
@Injectable()
export class StorageService {
  readonly root: string;
  readonly maxUploadBytes: number;
  private readonly ttlMs: number;
  private readonly publicBaseUrl: string | null;
  private secret: Promise<Buffer> | null = null;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    @Inject(SQL_CLIENT) private readonly sql: SqlClient,
  ) {
    this.root = resolve(config.storage.dir);
    this.maxUploadBytes = config.storage.maxUploadBytes;
    this.ttlMs = config.storage.urlTtlSeconds * 1000;
    this.publicBaseUrl = config.storage.publicBaseUrl;
  }

  private signingSecret(): Promise<Buffer> {
    this.secret ??= (async () => {
      await this.sql.query(
        `INSERT INTO storage_secrets (name, secret) VALUES ('signing', $1) ON CONFLICT (name) DO NOTHING`,
        [randomBytes(32).toString('base64')],
      );
      const { rows } = await this.sql.query<{ secret: string }>(
        `SELECT secret FROM storage_secrets WHERE name = 'signing'`,
      );
      return Buffer.from(rows[0]!.secret, 'base64');
    })().catch((e: unknown) => {
      this.secret = null;
      throw e;
    });
    return this.secret;
  }

  private async sign(payload: string): Promise<string> {
    return createHmac('sha256', await this.signingSecret())
      .update(payload)
      .digest('hex');
  }

  /** Validates a key and resolves it under the root; 400 for anything that could escape it. */
  resolveKey(key: unknown): string {
    if (typeof key !== 'string' || key.length === 0 || key.length > 512) throw badRequest('key: is required');
    if (isAbsolute(key) || key.includes('\\') || key.includes('\0'))
      throw badRequest('key: must be a relative path');
    const segments = key.split('/');
    if (segments.some((s) => s === '..' || s === '.' || !SEGMENT.test(s)))
      throw badRequest('key: may only contain letters, digits, ".", "_", "-" and "/" (no "..")');
    if (key.endsWith('.meta.json')) throw badRequest('key: reserved name');
    const full = resolve(this.root, key);
    if (!full.startsWith(this.root + sep)) throw badRequest('key: must stay inside the storage');
    return full;
  }

  /** A form-post contract for one object under `keyPrefix` (the key is chosen here). */
  async createUploadForm(baseUrl: string, keyPrefix: string): Promise<UploadForm & { key: string }> {
    const key = `${keyPrefix}${randomUUID()}`;
    this.resolveKey(key);
    const expiresAt = new Date(Date.now() + this.ttlMs).toISOString();
    const policy: UploadPolicy = {
      expiration: expiresAt,
      conditions: { key, keyPrefix, maxBytes: this.maxUploadBytes, contentTypes: ALLOWED_CONTENT_TYPES },
    };
    const encoded = Buffer.from(JSON.stringify(policy), 'utf8').toString('base64');
    return {
      key,
      url: `${baseUrl}${UPLOAD_PATH}`,
      fields: {
        key,
        AWSAccessKeyId: EMBEDDED_ACCESS_KEY,
        policy: encoded,
        signature: await this.sign(encoded),
      },
      expires_at: expiresAt,
    };
  }

  /** Checks the form fields of an upload: signature (403), expiry (403), key (400, then 403). */
  async verifyUploadFields(fields: Record<string, unknown>): Promise<{ key: string; policy: UploadPolicy }> {
    const { policy: encoded, signature, AWSAccessKeyId: accessKey, key } = fields;
    if (typeof encoded !== 'string' || typeof signature !== 'string')
      throw refused('policy and signature: are required (and must come before the file)');
    if (accessKey !== EMBEDDED_ACCESS_KEY) throw refused('AWSAccessKeyId: unknown access key');
    if (!sameHex(await this.sign(encoded), signature)) throw refused('signature: does not match the policy');
    let policy: UploadPolicy;
    try {
      policy = JSON.parse(Buffer.from(encoded, 'base64').toString('utf8')) as UploadPolicy;
    } catch {
      throw refused('policy: unreadable');
    }
    if (!(Date.parse(policy.expiration) > Date.now())) throw refused('policy: expired');
    this.resolveKey(key);
    // One key per policy (a form can neither pick another file's key nor a new one under the prefix).
    if (key !== policy.conditions.key || !key.startsWith(policy.conditions.keyPrefix))
      throw refused('key: not allowed by the policy');
    if (await this.wasUploaded(key)) throw alreadyUploaded();
    return { key, policy };
  }

  /** Whether an upload was already stored under `key` (its form is spent). */
  async wasUploaded(key: string): Promise<boolean> {
    const { rows } = await this.sql.query('SELECT 1 FROM storage_uploads WHERE key = $1', [key]);
    return rows.length > 0;
  }

  /**
   * Moves an uploaded temporary file into place and records its content type next to it. Once per
   * key: the key is claimed in `storage_uploads` first (of two concurrent posts of one form, one
   * wins), and the file is linked into place without replacing anything already there; 409 otherwise.
   */
  async put(key: string, tempPath: string, contentType: string, size: number): Promise<StoredObject> {
    const full = this.resolveKey(key);
    try {
      const claimed = await this.sql.query(
        'INSERT INTO storage_uploads (key) VALUES ($1) ON CONFLICT (key) DO NOTHING RETURNING key',
        [key],
      );
      if (claimed.rows.length === 0) throw alreadyUploaded();
      await mkdir(dirname(full), { recursive: true });
      await link(tempPath, full).catch((e: NodeJS.ErrnoException) => {
        throw e.code === 'EEXIST' ? alreadyUploaded() : e;
      });
    } finally {
      await rm(tempPath, { force: true });
    }
    await writeFile(`${full}.meta.json`, JSON.stringify({ contentType, size }));
    return { path: key, size, contentType };
  }

  async head(key: string): Promise<StoredObject | null> {
    const full = this.resolveKey(key);
    try {
      const [info, meta] = await Promise.all([stat(full), readFile(`${full}.meta.json`, 'utf8')]);
      const { contentType } = JSON.parse(meta) as { contentType: string };
      return { path: key, size: info.size, contentType };
    } catch {
      return null;
    }
  }

  /** Where an object is on disk (after the key was validated). */
  fileOf(key: string): string {
    return this.resolveKey(key);
  }

  async remove(key: string): Promise<void> {
    const full = this.resolveKey(key);
    await rm(full, { force: true });
    await rm(`${full}.meta.json`, { force: true });
  }

  /** Removes every object under a prefix (a directory key such as `students/{id}`). */
  async removePrefix(prefix: string): Promise<void> {
    await rm(this.resolveKey(prefix.replace(/\/$/, '')), { recursive: true, force: true });
  }

  /** A signed, expiring download URL (path and query; the caller adds the origin). */
  async downloadUrl(
    baseUrl: string,
    key: string,
    fileName: string,
  ): Promise<{ url: string; expires_at: string }> {
    this.resolveKey(key);
    const expires = Math.floor((Date.now() + this.ttlMs) / 1000).toString();
    const signature = await this.sign(`download\n${key}\n${expires}\n${fileName}`);
    const query = new URLSearchParams({ key, expires, name: fileName, signature });
    return {
      url: `${baseUrl}${DOWNLOAD_PATH}?${query.toString()}`,
      expires_at: new Date(Number(expires) * 1000).toISOString(),
    };
  }

  async verifyDownload(q: Record<string, unknown>): Promise<{ key: string; name: string }> {
    const { key, expires, name, signature } = q;
    if (typeof key !== 'string' || typeof expires !== 'string' || typeof signature !== 'string')
      throw refused('key, expires and signature: are required');
    const fileName = typeof name === 'string' ? name : '';
    if (!sameHex(await this.sign(`download\n${key}\n${expires}\n${fileName}`), signature))
      throw refused('signature: does not match');
    if (!(Number(expires) * 1000 > Date.now())) throw refused('This link has expired');
    this.resolveKey(key);
    return { key, name: fileName };
  }

  /** Where clients reach the storage service: PUBLIC_URL when set, else the caller's own origin. */
  baseUrlFor(req: { protocol: string; get(name: string): string | undefined }): string {
    return this.publicBaseUrl ?? `${req.protocol}://${req.get('host') ?? 'localhost'}`;
  }

  /** Temporary upload area inside the root (same file system, so `put` is a rename). */
  async tempDir(): Promise<string> {
    const dir = resolve(this.root, '.uploads');
    await mkdir(dir, { recursive: true });
    return dir;
  }
}
