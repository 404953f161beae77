import { Worker } from 'node:worker_threads';
import { ENVELOPE_PREFIX } from './personal-data-vault.js';

/** One value to decrypt: the subject's key, the subject (the additional data) and the envelope. */
export interface DecryptRequest {
  key: Buffer;
  subject: string;
  envelope: string;
}

/** Marks a value the key did not open (tampered with, or another key): the reader shows "[erased]". */
export const UNREADABLE: unique symbol = Symbol('unreadable');

/**
 * The worker's code, run with `eval` so that it needs no file of its own beside the compiled or the
 * source module (jest, tsx and `dist/` resolve files differently). It must decrypt exactly as
 * `decryptValue` does; `decryption-worker.unit.spec.ts` compares the two on good and bad values.
 * Message in: { id, keys: Uint8Array[], subjects: string[], which: Int32Array (key/subject index per
 * value), envelopes: string[] }. Message out: { id, values: unknown[], unreadable: number[] }.
 */
const WORKER_CODE = `
const { parentPort } = require('node:worker_threads');
const { createDecipheriv } = require('node:crypto');
const PREFIX = ${JSON.stringify(ENVELOPE_PREFIX)};
parentPort.on('message', (m) => {
  const keys = m.keys.map((k) => Buffer.from(k.buffer, k.byteOffset, k.byteLength));
  const aads = m.subjects.map((s) => Buffer.from(s, 'utf8'));
  const values = new Array(m.envelopes.length);
  const unreadable = [];
  for (let i = 0; i < m.envelopes.length; i++) {
    try {
      const raw = Buffer.from(m.envelopes[i].slice(PREFIX.length), 'base64');
      const d = createDecipheriv('aes-256-gcm', keys[m.which[i]], raw.subarray(0, 12));
      d.setAAD(aads[m.which[i]]);
      d.setAuthTag(raw.subarray(12, 28));
      values[i] = JSON.parse(Buffer.concat([d.update(raw.subarray(28)), d.final()]).toString('utf8'));
    } catch {
      values[i] = null;
      unreadable.push(i);
    }
  }
  parentPort.postMessage({ id: m.id, values, unreadable });
});
`;

interface Reply {
  id: number;
  values: unknown[];
  unreadable: number[];
}

/**
 * Decrypts many personal-data values on a worker thread (decision 0087), so that a rebuild's reading
 * (one AES-GCM decipher per field, about 5 µs each) runs on the machine's other core while this
 * thread applies the page before (and, on the embedded store, runs the database). Started on first
 * use; held open only while it has work, so it never keeps the process alive; `close()` stops it.
 * If the worker fails, callers fall back to decrypting on this thread (`decrypt` rejects).
 */
export class DecryptionWorker {
  private worker: Worker | null = null;
  private nextId = 0;
  private readonly pending = new Map<number, { resolve: (r: Reply) => void; reject: (e: Error) => void }>();

  /** The plaintext of each request, in order, or UNREADABLE where the key does not open it. */
  async decrypt(requests: readonly DecryptRequest[]): Promise<unknown[]> {
    const subjects: string[] = [];
    const keys: Uint8Array[] = [];
    const index = new Map<string, number>();
    const which = new Int32Array(requests.length);
    const envelopes: string[] = new Array<string>(requests.length);
    for (let i = 0; i < requests.length; i++) {
      const r = requests[i]!;
      let at = index.get(r.subject);
      if (at === undefined) {
        at = subjects.length;
        index.set(r.subject, at);
        subjects.push(r.subject);
        keys.push(Uint8Array.from(r.key));
      }
      which[i] = at;
      envelopes[i] = r.envelope;
    }
    const worker = this.started();
    const id = this.nextId++;
    const reply = new Promise<Reply>((resolve, reject) => this.pending.set(id, { resolve, reject }));
    if (this.pending.size === 1) worker.ref();
    worker.postMessage({ id, keys, subjects, which, envelopes });
    const { values, unreadable } = await reply;
    for (const i of unreadable) values[i] = UNREADABLE;
    return values;
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(WORKER_CODE, { eval: true });
    worker.unref();
    worker.on('message', (reply: Reply) => {
      const waiting = this.pending.get(reply.id);
      this.pending.delete(reply.id);
      if (this.pending.size === 0) worker.unref();
      waiting?.resolve(reply);
    });
    const fail = (error: Error) => {
      if (this.worker === worker) this.worker = null;
      for (const waiting of this.pending.values()) waiting.reject(error);
      this.pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`the decryption worker exited (code ${code})`)));
    this.worker = worker;
    return worker;
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    if (worker) await worker.terminate();
  }
}
