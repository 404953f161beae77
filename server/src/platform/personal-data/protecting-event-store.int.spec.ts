import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { PERSON_FIELD_RULES, USER_PERSONAL_DATA_RULE } from '@portal/projections';
import { runEventStoreContract } from '../event-store/event-store.contract.js';
import type { EventStore, RecordedEvent } from '../event-store/event-store.js';
import { PostgresEventStore } from '../event-store/postgres/postgres-event-store.js';
import { PgliteSqlClient } from '../sql/pglite-client.js';
import type { SqlClient } from '../sql/sql-client.js';
import { sqlTargets } from '../testing/sql-targets.js';
import { BUNDLED, encryptValue, PersonalDataVault } from './personal-data-vault.js';
import { DecryptionWorker, type DecryptRequest } from './decryption-worker.js';
import { ProtectingEventStore } from './protecting-event-store.js';

// The decorator keeps every guarantee of the port.
let contractSql: PgliteSqlClient | null = null;
runEventStoreContract({
  name: 'pglite',
  open: async () => {
    contractSql = await PgliteSqlClient.open();
    const raw = await PostgresEventStore.create(contractSql);
    return new ProtectingEventStore(raw, await PersonalDataVault.open(contractSql), [
      USER_PERSONAL_DATA_RULE,
    ]);
  },
  teardown: async () => {
    await contractSql?.close();
  },
});

const created = (userId: string, firstName: string) => ({
  id: randomUUID(),
  type: 'UserCreated',
  data: {
    userId,
    login: `${firstName.toLowerCase()}@example.com`,
    email: `${firstName.toLowerCase()}@example.com`,
    firstName,
    lastName: 'Example',
    userType: 'teacher',
    permissions: ['USER_IS_TEACHER'],
    notes: null,
  },
});
const erasedEvent = (userId: string) => ({
  id: randomUUID(),
  type: 'UserPersonalDataErased',
  data: { userId },
});
const firstName = (events: RecordedEvent[]) => (events[0]!.data as { firstName: string }).firstName;

describe.each(sqlTargets('pii_store'))('ProtectingEventStore on $name', (target) => {
  let sql: SqlClient;
  let raw: EventStore;
  /** Two processes: each has its own vault (and key cache) over the same database. */
  let a: ProtectingEventStore;
  let b: ProtectingEventStore;
  let clock = Date.now();
  let c: ProtectingEventStore;

  beforeAll(async () => {
    sql = await target.open();
    raw = await PostgresEventStore.create(sql);
    const rule = [USER_PERSONAL_DATA_RULE];
    a = new ProtectingEventStore(raw, await PersonalDataVault.open(sql), rule);
    b = new ProtectingEventStore(raw, await PersonalDataVault.open(sql), rule);
    c = new ProtectingEventStore(
      raw,
      new PersonalDataVault(sql, { cacheTtlMs: 1000, now: () => clock }),
      rule,
    );
  });

  afterAll(async () => {
    await raw.close();
    await sql.close();
    await target.close();
  });

  it('encrypts marked fields on append; other fields and streams stay as written', async () => {
    const id = randomUUID();
    await a.append(`user-${id}`, [created(id, 'Ottoline')], { expectedRevision: 'no_stream' });
    const stored = (await raw.readStream(`user-${id}`))[0]!.data as Record<string, unknown>;
    // One envelope for the event's personal fields, in the first of them (decision 0098).
    expect(stored.login).toMatch(/^pii:v1:/);
    expect(stored).toMatchObject({ email: BUNDLED, firstName: BUNDLED, lastName: BUNDLED });
    expect(JSON.stringify(stored)).not.toMatch(/ottoline/i);
    expect(stored).toMatchObject({ userId: id, userType: 'teacher', notes: null });
    expect(firstName(await b.readStream(`user-${id}`))).toBe('Ottoline');
    await a.append('customer-x', [{ id: randomUUID(), type: 'CustomerCreated', data: { name: 'Plain' } }], {
      expectedRevision: 'any',
    });
    expect((await raw.readStream('customer-x'))[0]!.data).toEqual({ name: 'Plain' });
  });

  it('reads events written before encryption (plaintext), and shows them "[erased]" after the erasure', async () => {
    const id = randomUUID();
    await raw.append(`user-${id}`, [created(id, 'Legacy')], { expectedRevision: 'no_stream' });
    expect(firstName(await a.readStream(`user-${id}`))).toBe('Legacy');
    await a.vault.erase(id);
    await a.append(`user-${id}`, [erasedEvent(id)], { expectedRevision: 0n });
    expect(firstName(await b.readStream(`user-${id}`))).toBe('[erased]');
  });

  it('another process reading the stream sees the erasure at once, whatever it cached', async () => {
    const id = randomUUID();
    await a.append(`user-${id}`, [created(id, 'Bartholomew')], { expectedRevision: 'no_stream' });
    expect(firstName(await b.readStream(`user-${id}`))).toBe('Bartholomew'); // b caches the key
    await a.vault.erase(id);
    await a.append(`user-${id}`, [erasedEvent(id)], { expectedRevision: 0n });
    expect(firstName(await b.readStream(`user-${id}`))).toBe('[erased]');
    // A subscription from the start delivers it erased too.
    const sub = b.subscribeToAll({ filter: { streamPrefixes: [`user-${id}`] } });
    const seen: RecordedEvent[] = [];
    for await (const e of sub) {
      seen.push(e);
      if (seen.length === 2) break;
    }
    await sub.close();
    expect(firstName(seen)).toBe('[erased]');
    // Appending personal data after the erasure stores none.
    await a.append(
      `user-${id}`,
      [
        {
          id: randomUUID(),
          type: 'UserProfileUpdated',
          data: { userId: id, changes: { firstName: 'Back' } },
        },
      ],
      { expectedRevision: 1n },
    );
    const last = (await raw.readStream(`user-${id}`)).at(-1)!.data as { changes: { firstName: string } };
    expect(last.changes.firstName).toBe('[erased]');
  });

  it('a sealed read leaves personal fields encrypted and still notes an erasure (decision 0089)', async () => {
    const id = randomUUID();
    const { position } = await a.append(`user-${id}`, [created(id, 'Perpetua')], {
      expectedRevision: 'no_stream',
    });
    const page = { fromPosition: position - 1n, maxCount: 1 }; // the creation only
    const sealed = (await b.readAll({ ...page, sealed: true }))[0]!.data as Record<string, unknown>;
    expect(sealed.login).toMatch(/^pii:v1:/);
    expect(sealed.firstName).toBe(BUNDLED);
    expect(sealed).toMatchObject({ userId: id, userType: 'teacher' });
    expect(firstName(await b.readAll(page))).toBe('Perpetua'); // b caches the key
    await a.vault.erase(id);
    await a.append(`user-${id}`, [erasedEvent(id)], { expectedRevision: 0n });
    // b hears of the erasure through a sealed read of the erase event: its cached key is dropped.
    expect(
      (await b.readAll({ fromPosition: position, maxCount: 10, sealed: true })).map((e) => e.type),
    ).toEqual(['UserPersonalDataErased']);
    expect(firstName(await b.readAll(page))).toBe('[erased]');
  });

  it('a page without the erase event is stale at most for the cache lifetime', async () => {
    const id = randomUUID();
    const { position } = await a.append(`user-${id}`, [created(id, 'Cressida')], {
      expectedRevision: 'no_stream',
    });
    const page = () => c.readAll({ fromPosition: position - 1n, maxCount: 1 });
    expect(firstName(await page())).toBe('Cressida'); // c caches the key
    await a.vault.erase(id);
    expect(firstName(await page())).toBe('Cressida'); // within the TTL, c has not looked again
    clock += 1001;
    expect(firstName(await page())).toBe('[erased]');
  });

  it("a nested person field is encrypted and read back without changing the caller's event or its other fields", async () => {
    const store = new ProtectingEventStore(raw, await PersonalDataVault.open(sql), [], PERSON_FIELD_RULES);
    const teacher = randomUUID();
    const data = {
      lessonId: randomUUID(),
      mark: 'present',
      recordedBy: { id: teacher, name: 'Perpetua Pike', position: 'Teacher' },
      roster: [{ studentId: randomUUID() }],
    };
    const given = structuredClone(data);
    const stream = `lesson-${data.lessonId}`;
    await store.append(stream, [{ id: randomUUID(), type: 'AttendanceMarkRecorded', data }], {
      expectedRevision: 'no_stream',
    });
    expect(data).toEqual(given); // the caller's object is not changed
    const stored = (await raw.readStream(stream))[0]!.data as typeof data;
    expect(stored.recordedBy.name).toMatch(/^pii:v1:/);
    expect(stored).toMatchObject({
      mark: 'present',
      roster: given.roster,
      recordedBy: { id: teacher, position: 'Teacher' },
    });
    const [read] = await store.readStream(stream);
    expect(read!.data).toEqual(given);
    await store.vault.erase(teacher);
    const [erased] = await new ProtectingEventStore(
      raw,
      await PersonalDataVault.open(sql),
      [],
      PERSON_FIELD_RULES,
    ).readStream(stream);
    expect(erased!.data).toEqual({ ...given, recordedBy: { ...given.recordedBy, name: '[erased]' } });
  });

  it('a large read decrypts on the worker thread and reads exactly as one decrypted here: erased, tampered and plaintext values too', async () => {
    const vault = await PersonalDataVault.open(sql);
    const writer = new ProtectingEventStore(raw, vault, [USER_PERSONAL_DATA_RULE], PERSON_FIELD_RULES);
    const ids = Array.from({ length: 6 }, () => randomUUID());
    const { position } = await writer.append(`user-${ids[0]}`, [created(ids[0]!, 'Araminta')], {
      expectedRevision: 'no_stream',
    });
    for (const [i, id] of ids.slice(1).entries())
      await writer.append(`user-${id}`, [created(id, `Person${i}`)], { expectedRevision: 'no_stream' });
    // A nested person field of a lesson event, named after the first user.
    const lessonId = randomUUID();
    await writer.append(
      `lesson-${lessonId}`,
      [
        {
          id: randomUUID(),
          type: 'AttendanceMarkRecorded',
          data: {
            lessonId,
            mark: 'present',
            recordedBy: { id: ids[0], name: 'Araminta Example', position: 'Teacher' },
          },
        },
      ],
      { expectedRevision: 'no_stream' },
    );
    // Plaintext from before encryption; a value whose ciphertext was changed; an erased subject.
    const legacy = randomUUID();
    await raw.append(`user-${legacy}`, [created(legacy, 'Legacy')], { expectedRevision: 'no_stream' });
    const [stored] = await raw.readStream(`user-${ids[1]}`);
    const envelope = Buffer.from((stored!.data as { login: string }).login.slice(7), 'base64');
    envelope[envelope.length - 1] = envelope[envelope.length - 1]! ^ 1;
    await raw.append(
      `user-${ids[1]}`,
      [
        {
          id: randomUUID(),
          type: 'UserProfileUpdated',
          data: { userId: ids[1], changes: { firstName: `pii:v1:${envelope.toString('base64')}` } },
        },
      ],
      { expectedRevision: 0n },
    );
    // A value copied into another subject's event: it does not open under that subject.
    const [other] = await raw.readStream(`user-${ids[5]}`);
    await raw.append(
      `user-${ids[4]}`,
      [
        {
          id: randomUUID(),
          type: 'UserProfileUpdated',
          data: { userId: ids[4], changes: { lastName: (other!.data as { login: string }).login } },
        },
      ],
      { expectedRevision: 0n },
    );
    await vault.erase(ids[2]!);

    class Counting extends DecryptionWorker {
      values = 0;
      override decrypt(requests: readonly DecryptRequest[]) {
        this.values += requests.length;
        return super.decrypt(requests);
      }
    }
    const worker = new Counting();
    const open = async (options: ConstructorParameters<typeof ProtectingEventStore>[4]) =>
      new ProtectingEventStore(
        raw,
        await PersonalDataVault.open(sql),
        [USER_PERSONAL_DATA_RULE],
        PERSON_FIELD_RULES,
        options,
      );
    const offThread = await open({ offThreadFrom: 1, worker });
    const here = await open({ offThreadFrom: Infinity });
    const read = (store: EventStore) => store.readAll({ fromPosition: position - 1n, maxCount: 100 });
    const [a1, h1] = [await read(offThread), await read(here)];
    // One envelope per event part (decision 0098): five creations with a key (the sixth user is erased),
    // the teacher's name, the tampered and the copied value.
    expect(worker.values).toBe(8);
    expect(a1).toEqual(h1);
    const names = a1
      .filter((e) => e.type === 'UserCreated')
      .map((e) => (e.data as { firstName: string }).firstName);
    expect(names).toEqual(['Araminta', 'Person0', '[erased]', 'Person2', 'Person3', 'Person4', 'Legacy']);
    const mark = a1.find((e) => e.type === 'AttendanceMarkRecorded')!.data as {
      recordedBy: { name: string };
    };
    expect(mark.recordedBy.name).toBe('Araminta Example');
    const update = a1.find((e) => e.type === 'UserProfileUpdated')!.data as {
      changes: { firstName: string };
    };
    expect(update.changes.firstName).toBe('[erased]'); // the tampered value is not shown
    const copied = a1.find((e) => e.stream === `user-${ids[4]}` && e.type === 'UserProfileUpdated')!;
    expect((copied.data as { changes: { lastName: string } }).changes.lastName).toBe('[erased]');
    // Under the threshold nothing goes to the worker.
    const counted = worker.values;
    const few = await open({ offThreadFrom: 1000, worker });
    expect(firstName(await few.readStream(`user-${ids[3]}`))).toBe('Person2');
    expect(worker.values).toBe(counted);
    await worker.close(); // the stores share `raw`, which afterAll closes
  });

  it('the personal fields of one event share one envelope, nested ones too; each reads back, and "[erased]" after the erasure (decision 0098)', async () => {
    const id = randomUUID();
    const stream = `user-${id}`;
    await a.append(stream, [created(id, 'Wilhelmina')], { expectedRevision: 'no_stream' });
    const update = (changes: Record<string, unknown>) => ({
      id: randomUUID(),
      type: 'UserProfileUpdated',
      data: { userId: id, changes },
    });
    await a.append(
      stream,
      [
        update({ firstName: 'Mina', lastName: 'Okafor', notes: null, phone: '0123' }),
        update({ notes: 'Alone' }),
      ],
      { expectedRevision: 0n },
    );
    const stored = (await raw.readStream(stream)).map((e) => e.data as { changes: Record<string, unknown> });
    // Two fields: one envelope and a marker; a field that is not personal and a null stay as written.
    expect(stored[1]!.changes).toEqual({
      firstName: expect.stringMatching(/^pii:v1:/),
      lastName: BUNDLED,
      notes: null,
      phone: '0123',
    });
    // One field alone keeps an envelope of its own.
    expect(stored[2]!.changes.notes).toMatch(/^pii:v1:/);
    expect(JSON.stringify(stored)).not.toMatch(/Wilhelmina|Mina|Okafor|Alone/);

    const read = await b.readStream(stream);
    expect(read[0]!.data).toMatchObject({
      login: 'wilhelmina@example.com',
      email: 'wilhelmina@example.com',
      firstName: 'Wilhelmina',
      lastName: 'Example',
      notes: null,
    });
    expect(read.slice(1).map((e) => (e.data as { changes: unknown }).changes)).toEqual([
      { firstName: 'Mina', lastName: 'Okafor', notes: null, phone: '0123' },
      { notes: 'Alone' },
    ]);

    await a.vault.erase(id);
    await a.append(stream, [erasedEvent(id)], { expectedRevision: 2n });
    const erased = await b.readStream(stream);
    expect(erased[0]!.data).toMatchObject({
      login: '[erased]',
      email: '[erased]',
      firstName: '[erased]',
      lastName: '[erased]',
      notes: null,
    });
    expect((erased[1]!.data as { changes: unknown }).changes).toEqual({
      firstName: '[erased]',
      lastName: '[erased]',
      notes: null,
      phone: '0123',
    });
  });

  it('reads events stored with an envelope per field (before decision 0098) as before', async () => {
    const id = randomUUID();
    const key = (await a.vault.keyForWrite(id))!;
    const seal = (value: string) => encryptValue(key, id, value);
    const event = created(id, 'Theodora');
    const d = event.data;
    await raw.append(
      `user-${id}`,
      [{ ...event, data: { ...d, login: seal(d.login), email: seal(d.email), firstName: seal('Theodora') } }],
      { expectedRevision: 'no_stream' },
    );
    expect((await b.readStream(`user-${id}`))[0]!.data).toEqual(d);
  });

  it('a shared envelope\'s value is shown only in a field that is marked for it; a marked field it lacks reads "[erased]"', async () => {
    const id = randomUUID();
    const key = (await a.vault.keyForWrite(id))!;
    const event = created(id, 'Plain');
    // The envelope also names `firstName`, which holds its own (plaintext) value; `lastName` is marked
    // but missing from the envelope; `email` is marked and in it.
    const envelope = encryptValue(key, id, {
      login: 'crafted@example.com',
      email: 'shared@example.com',
      firstName: 'Injected',
    });
    await raw.append(
      `user-${id}`,
      [{ ...event, data: { ...event.data, login: envelope, email: BUNDLED, lastName: BUNDLED } }],
      { expectedRevision: 'no_stream' },
    );
    expect((await b.readStream(`user-${id}`))[0]!.data).toMatchObject({
      login: 'crafted@example.com',
      email: 'shared@example.com',
      firstName: 'Plain',
      lastName: '[erased]',
    });
    // A marker with no envelope to open (another subject's, or none) reads "[erased]" too.
    const other = randomUUID();
    const foreign = encryptValue((await a.vault.keyForWrite(other))!, other, { login: 'x', email: 'y' });
    const lone = randomUUID();
    await a.vault.keyForWrite(lone); // the subject has a key: the envelope is refused for being another's
    await raw.append(
      `user-${lone}`,
      [{ ...created(lone, 'Lone'), data: { ...created(lone, 'Lone').data, login: foreign, email: BUNDLED } }],
      { expectedRevision: 'no_stream' },
    );
    expect((await b.readStream(`user-${lone}`))[0]!.data).toMatchObject({
      login: '[erased]',
      email: '[erased]',
      firstName: 'Lone',
    });
  });
});
