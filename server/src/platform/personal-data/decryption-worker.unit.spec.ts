import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from '@jest/globals';
import { DecryptionWorker, UNREADABLE } from './decryption-worker.js';
import { decryptValue, encryptValue } from './personal-data-vault.js';

describe('DecryptionWorker', () => {
  const worker = new DecryptionWorker();
  afterAll(() => worker.close());

  const alice = { subject: randomUUID(), key: randomBytes(32) };
  const bob = { subject: randomUUID(), key: randomBytes(32) };
  const values: unknown[] = [
    'Ada Lovelace',
    'Zoë Ñúñez 林',
    '',
    42,
    { line1: '1 High St', postcode: null },
    [1, 'x'],
  ];

  it('decrypts every value exactly as decryptValue does, each with its own subject and key', async () => {
    const requests = values.flatMap((v) =>
      [alice, bob].map((who) => ({ ...who, envelope: encryptValue(who.key, who.subject, v) })),
    );
    const opened = await worker.decrypt(requests);
    expect(opened).toEqual(requests.map((r) => decryptValue(r.key, r.subject, r.envelope)));
    expect(opened).toEqual(values.flatMap((v) => [v, v]));
  });

  it('marks a value the key does not open as unreadable, and still opens the rest of the batch', async () => {
    const good = encryptValue(alice.key, alice.subject, 'kept');
    const other = encryptValue(bob.key, bob.subject, 'secret');
    const raw = Buffer.from(good.slice('pii:v1:'.length), 'base64');
    raw[raw.length - 1] = raw[raw.length - 1]! ^ 1; // one bit of the ciphertext changed
    const tampered = 'pii:v1:' + raw.toString('base64');
    const opened = await worker.decrypt([
      { ...alice, envelope: good },
      { ...alice, envelope: other }, // bob's value under alice's key
      { key: bob.key, subject: alice.subject, envelope: other }, // the right key, another subject
      { ...alice, envelope: tampered },
      { ...alice, envelope: 'pii:v1:not base64 at all' },
    ]);
    expect(opened).toEqual(['kept', UNREADABLE, UNREADABLE, UNREADABLE, UNREADABLE]);
  });

  it('answers concurrent batches each with its own values, and starts again after close()', async () => {
    const batch = (n: number) =>
      Array.from({ length: 50 }, (_, i) => ({
        ...alice,
        envelope: encryptValue(alice.key, alice.subject, `${n}:${i}`),
      }));
    const answers = await Promise.all([1, 2, 3].map((n) => worker.decrypt(batch(n))));
    expect(answers.map((a) => [a[0], a[49]])).toEqual([
      ['1:0', '1:49'],
      ['2:0', '2:49'],
      ['3:0', '3:49'],
    ]);
    await worker.close();
    expect(await worker.decrypt(batch(4).slice(0, 1))).toEqual(['4:0']);
  });
});
