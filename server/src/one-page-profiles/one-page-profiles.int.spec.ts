import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { portalModes, startTestPortal, type TestPortal } from '../platform/testing/portal-harness.js';

describe.each(portalModes)('one-page profiles API, $name', (mode) => {
  let portal: TestPortal;
  let oak: string;
  let elm: string;
  const ids: Record<string, string> = {};
  const tokens: Record<string, string> = {};

  beforeAll(async () => {
    portal = await startTestPortal(mode, 'portal_opp');
    const { call, admin, settle, createUser, tokenFor } = portal;
    oak = (await settle(await call('POST', '/customers/', admin, { name: 'Oakfield Academy' }))).body
      .id as string;
    elm = (await settle(await call('POST', '/customers/', admin, { name: 'Elm Tree School' }))).body
      .id as string;
    ids.sam = await createUser({
      email: 'sam@oak.example.com',
      first_name: 'Samira',
      last_name: 'Khan',
      user_type: 'student',
      customer_id: oak,
    });
    ids.leo = await createUser({
      email: 'leo@elm.example.com',
      first_name: 'Leo',
      last_name: 'Park',
      user_type: 'student',
      customer_id: elm,
    });
    ids.teacher = await createUser({
      email: 't@example.com',
      first_name: 'T',
      last_name: 'T',
      user_type: 'teacher',
    });
    await createUser({
      email: 'head@oak.example.com',
      first_name: 'H',
      last_name: 'H',
      user_type: 'partner',
      customer_id: oak,
      customer_type: 'super-admin',
    });
    await createUser({
      email: 'head@elm.example.com',
      first_name: 'E',
      last_name: 'E',
      user_type: 'partner',
      customer_id: elm,
      customer_type: 'super-admin',
    });
    await createUser({
      email: 'mum@oak.example.com',
      first_name: 'M',
      last_name: 'M',
      user_type: 'partner',
      customer_id: oak,
      customer_type: 'parent',
    });
    tokens.oakHead = await tokenFor('head@oak.example.com');
    tokens.elmHead = await tokenFor('head@elm.example.com');
    tokens.parent = await tokenFor('mum@oak.example.com');
    tokens.teacher = await tokenFor('t@example.com');
  }, 120_000);

  afterAll(async () => {
    await portal?.close();
  });

  it('creates a profile with the spec fields; the user shows it only once progress is above 0', async () => {
    const { call, admin, settle } = portal;
    const created = await settle(
      await call('POST', '/one-page-profiles/', admin, {
        user_id: ids.sam,
        preferred_name: 'Sami',
        year_group: 'Year 9',
        age: 14,
        favourite_subjects: ['Art', 'Biology'],
        least_favourite_subjects: ['French'],
        support_methods: 'Short tasks with breaks',
      }),
    );
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    ids.profile = id;
    const read = await call('GET', `/one-page-profiles/${id}`, admin);
    expect(read.body).toMatchObject({
      id,
      user_id: ids.sam,
      preferred_name: 'Sami',
      year_group: 'Year 9',
      age: 14,
      favourite_subjects: ['Art', 'Biology'],
      least_favourite_subjects: ['French'],
      progress: 0,
      user: { id: ids.sam, full_name: 'Samira Khan', customer_id: oak, customer_name: 'Oakfield Academy' },
    });
    expect((await call('GET', `/users/${ids.sam}`, admin)).body.one_page_profile).toBeNull();

    const updated = await settle(
      await call('PUT', `/one-page-profiles/${id}`, admin, { progress: 60, hobbies: 'Drawing' }),
    );
    expect(
      (await call('GET', `/users/${ids.sam}`, admin, undefined, updated.body.position as string)).body
        .one_page_profile,
    ).toEqual({
      id,
      progress: 60,
    });
    const events = await portal.running.infra.eventStore.readStream(`one-page-profile-${ids.sam}`);
    expect(events.map((e) => e.type)).toEqual(['OnePageProfileCreated', 'OnePageProfileUpdated']);
    expect(events[1]!.data).toMatchObject({ changes: { progress: 60, hobbies: 'Drawing' } });
  });

  it('validates progress 0 to 100 and refuses a second profile or a non-student', async () => {
    const { call, admin } = portal;
    const tooHigh = await call('PUT', `/one-page-profiles/${ids.profile!}`, admin, { progress: 101 });
    expect(tooHigh.status).toBe(422);
    expect(tooHigh.body.detail).toMatch(/progress/);
    expect((await call('PUT', `/one-page-profiles/${ids.profile!}`, admin, { progress: -1 })).status).toBe(
      422,
    );
    const again = await call('POST', '/one-page-profiles/', admin, { user_id: ids.sam });
    expect(again).toMatchObject({
      status: 409,
      body: { detail: 'This student already has a one-page profile' },
    });
    const teacher = await call('POST', '/one-page-profiles/', admin, { user_id: ids.teacher });
    expect(teacher.status).toBe(422);
    expect(teacher.body.detail).toMatch(/user_id/);
    const missing = await call('GET', '/one-page-profiles/99999999-9999-4999-8999-999999999999', admin);
    expect(missing).toMatchObject({ status: 404, body: { detail: 'One-page profile not found' } });
  });

  it("lets partners see and edit only their own customer's students; parents and teachers see none", async () => {
    const { call, admin, settle } = portal;
    await settle(await call('POST', '/one-page-profiles/', admin, { user_id: ids.leo, progress: 20 }));
    const oakList = await call('GET', '/one-page-profiles/', tokens.oakHead);
    expect(oakList.body).toMatchObject({ total: 1, items: [{ user_id: ids.sam }] });
    const elmList = await call('GET', '/one-page-profiles/?query=leo', tokens.elmHead);
    expect(elmList.body).toMatchObject({ total: 1, items: [{ user_id: ids.leo }] });
    expect((await call('GET', `/one-page-profiles/${ids.profile!}`, tokens.elmHead)).status).toBe(404);
    expect(
      (await call('PUT', `/one-page-profiles/${ids.profile!}`, tokens.oakHead, { notes: 'Likes routine' }))
        .status,
    ).toBe(200);
    expect((await call('GET', '/one-page-profiles/', tokens.parent)).body).toMatchObject({
      total: 0,
      items: [],
    });
    expect(
      (await call('PUT', `/one-page-profiles/${ids.profile!}`, tokens.parent, { notes: 'x' })).status,
    ).toBe(404);
    expect((await call('GET', '/one-page-profiles/', tokens.teacher)).status).toBe(403);
    expect((await call('GET', '/one-page-profiles/')).status).toBe(401);
    const all = await call('GET', '/one-page-profiles/?size=1', admin);
    expect(all.body).toMatchObject({ total: 2, size: 1, items: [{ user: { full_name: 'Leo Park' } }] });
  });
});
