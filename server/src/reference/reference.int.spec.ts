import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { portalModes, startTestPortal, type TestPortal } from '../platform/testing/portal-harness.js';

describe.each(portalModes)('reference data API (subjects, year groups, products), $name', (mode) => {
  let portal: TestPortal;
  const tokens: Record<string, string> = {};

  beforeAll(async () => {
    portal = await startTestPortal(mode, 'portal_reference');
    const { call, admin, settle, createUser } = portal;
    const oak = (await settle(await call('POST', '/customers/', admin, { name: 'Oakfield Academy' }))).body
      .id as string;
    const users: [string, Record<string, unknown>][] = [
      ['teacher', { user_type: 'teacher' }],
      ['curator', { user_type: 'teacher', permissions: ['CAN_MANAGE_SUBJECTS'] }],
      ['merchant', { user_type: 'teacher', permissions: ['CAN_MANAGE_PRODUCTS'] }],
      ['partner', { user_type: 'partner', customer_id: oak, customer_type: 'super-admin' }],
      ['student', { user_type: 'student', customer_id: oak }],
    ];
    for (const [who, extra] of users) {
      await createUser({ email: `${who}@example.com`, first_name: who, last_name: 'Test', ...extra });
      tokens[who] = await portal.tokenFor(`${who}@example.com`);
    }
  }, 120_000);

  afterAll(async () => {
    await portal?.close();
  });

  it('creates, lists (search, sort, paging), reads and renames subjects; duplicate names are 409', async () => {
    const { call, admin, settle } = portal;
    const ids: Record<string, string> = {};
    for (const name of ['Maths', 'English', 'Art'])
      ids[name] = (await settle(await call('POST', '/subjects/', admin, { name }))).body.id as string;
    const all = await call('GET', '/subjects/', admin);
    expect(all.body).toMatchObject({ total: 3, page: 1, size: 50 });
    expect((all.body.items as { name: string }[]).map((s) => s.name)).toEqual(['Art', 'English', 'Maths']);
    const desc = await call('GET', '/subjects/?sort_by=-name&size=2&page=1', admin);
    expect(desc.body).toMatchObject({ total: 3, size: 2, items: [{ name: 'Maths' }, { name: 'English' }] });
    expect((await call('GET', '/subjects/?query=ngl', admin)).body).toMatchObject({
      total: 1,
      items: [{ id: ids.English, name: 'English' }],
    });
    expect((await call('GET', `/subjects/${ids.Art}`, admin)).body).toEqual({ id: ids.Art, name: 'Art' });

    const dup = await call('POST', '/subjects/', admin, { name: ' maths ' });
    expect(dup).toMatchObject({ status: 409, body: { detail: 'A subject named "maths" already exists' } });
    expect((await call('PUT', `/subjects/${ids.Art}`, admin, { name: 'MATHS' })).status).toBe(409);
    // Renaming a subject to its own name in another case is not a clash with itself.
    await settle(await call('PUT', `/subjects/${ids.Maths}`, admin, { name: 'Mathematics' }));
    expect((await call('GET', `/subjects/${ids.Maths}`, admin)).body.name).toBe('Mathematics');
    const events = await portal.running.infra.eventStore.readStream(`subject-${ids.Maths}`);
    expect(events.map((e) => e.type)).toEqual(['SubjectCreated', 'SubjectRenamed']);
  });

  it('keeps year groups with a key stage of EYFS..KS5', async () => {
    const { call, admin, settle } = portal;
    const y7 = (
      await settle(await call('POST', '/year-groups/', admin, { name: 'Year 7', key_stage: 'KS3' }))
    ).body.id as string;
    await settle(await call('POST', '/year-groups/', admin, { name: 'Reception', key_stage: 'EYFS' }));
    const bad = await call('POST', '/year-groups/', admin, { name: 'Year 14', key_stage: 'KS6' });
    expect(bad.status).toBe(422);
    expect(bad.body.detail).toMatch(/^key_stage: must be one of EYFS, KS1, KS2, KS3, KS4, KS5/);
    const missing = await call('POST', '/year-groups/', admin, { name: 'Year 8' });
    expect(missing.status).toBe(422);
    expect(missing.body.detail).toMatch(/key_stage/);
    expect((await call('POST', '/year-groups/', admin, { name: 'year 7', key_stage: 'KS3' })).status).toBe(
      409,
    );
    await settle(await call('PUT', `/year-groups/${y7}`, admin, { key_stage: 'KS4', name: 'Year 10' }));
    expect((await call('GET', `/year-groups/${y7}`, admin)).body).toEqual({
      id: y7,
      name: 'Year 10',
      key_stage: 'KS4',
    });
    const byStage = await call('GET', '/year-groups/?sort_by=key_stage', admin);
    expect((byStage.body.items as { key_stage: string }[]).map((y) => y.key_stage)).toEqual(['EYFS', 'KS4']);
    // By default by key stage, then by name as numbers sort (Year 9 before Year 10 within one stage).
    await settle(await call('POST', '/year-groups/', admin, { name: 'Year 11', key_stage: 'KS4' }));
    // (Year 8 put in KS4 only to share a key stage with Year 10.)
    await settle(await call('POST', '/year-groups/', admin, { name: 'Year 8', key_stage: 'KS4' }));
    const byDefault = await call('GET', '/year-groups/', admin);
    expect((byDefault.body.items as { name: string }[]).map((y) => y.name)).toEqual([
      'Reception',
      'Year 8',
      'Year 10',
      'Year 11',
    ]);
    expect((await call('GET', '/year-groups/?sort_by=age', admin)).body.detail).toMatch(/^sort_by:/);
  });

  it('checks products: delivery mode, 15..720 minutes, 1..60 students, 1:1 means one', async () => {
    const { call, admin, settle } = portal;
    const good = {
      name: 'Small group online',
      delivery_mode: 'online-group',
      default_duration_minutes: 60,
      max_group_size: 6,
    };
    const bad: [Record<string, unknown>, RegExp][] = [
      [
        { delivery_mode: 'carrier-pigeon' },
        /^delivery_mode: must be one of online-1to1, online-group, in-person/,
      ],
      [{ default_duration_minutes: 14 }, /^default_duration_minutes /],
      [{ default_duration_minutes: 721 }, /^default_duration_minutes /],
      [{ default_duration_minutes: 60.5 }, /^default_duration_minutes /],
      [{ max_group_size: 0 }, /^max_group_size /],
      [{ max_group_size: 61 }, /^max_group_size /],
      [
        { delivery_mode: 'online-1to1', max_group_size: 2 },
        /^max_group_size: a 1:1 product takes exactly one student/,
      ],
      [{ name: '' }, /^name /],
    ];
    for (const [change, detail] of bad) {
      const answer = await call('POST', '/products/', admin, { ...good, ...change });
      expect({ change, status: answer.status }).toEqual({ change, status: 422 });
      expect(answer.body.detail).toMatch(detail);
    }
    const id = (await settle(await call('POST', '/products/', admin, good))).body.id as string;
    expect((await call('POST', '/products/', admin, { ...good, name: 'SMALL GROUP ONLINE' })).status).toBe(
      409,
    );
    await settle(
      await call('POST', '/products/', admin, {
        name: 'Mentoring session',
        delivery_mode: 'online-1to1',
        default_duration_minutes: 45,
        max_group_size: 1,
      }),
    );
    await settle(await call('PUT', `/products/${id}`, admin, { max_group_size: 8 }));
    expect((await call('GET', `/products/${id}`, admin)).body).toMatchObject({
      ...good,
      id,
      max_group_size: 8,
    });
    // An update is checked as the whole product it leaves.
    const oneToOne = await call('PUT', `/products/${id}`, admin, { delivery_mode: 'online-1to1' });
    expect(oneToOne.status).toBe(422);
    const bySize = await call('GET', '/products/?sort_by=-max_group_size', admin);
    expect((bySize.body.items as { name: string }[]).map((p) => p.name)).toEqual([
      'Small group online',
      'Mentoring session',
    ]);
    expect(
      (await call('PUT', '/products/99999999-9999-4999-8999-999999999999', admin, { max_group_size: 2 }))
        .body,
    ).toEqual({ detail: 'Product not found' });
    expect((await call('GET', '/products/99999999-9999-4999-8999-999999999999', admin)).status).toBe(404);
    expect((await call('GET', '/products/nope', admin)).status).toBe(422);
  });

  it('lets internal users and partners read; subjects and year groups need the subject permission, products the product one', async () => {
    const { call } = portal;
    for (const who of ['teacher', 'curator', 'merchant', 'partner'])
      for (const path of ['/subjects/', '/year-groups/', '/products/'])
        expect({ who, path, status: (await call('GET', path, tokens[who])).status }).toEqual({
          who,
          path,
          status: 200,
        });
    expect((await call('GET', '/subjects/', tokens.student)).status).toBe(403);
    expect((await call('GET', '/subjects/')).status).toBe(401);

    const product = {
      name: 'In person',
      delivery_mode: 'in-person',
      default_duration_minutes: 90,
      max_group_size: 10,
    };
    expect((await call('POST', '/subjects/', tokens.teacher, { name: 'Music' })).status).toBe(403);
    expect(
      (await call('POST', '/year-groups/', tokens.teacher, { name: 'Year 9', key_stage: 'KS3' })).status,
    ).toBe(403);
    expect((await call('POST', '/products/', tokens.teacher, product)).status).toBe(403);
    expect((await call('POST', '/subjects/', tokens.partner, { name: 'Music' })).status).toBe(403);

    expect((await call('POST', '/subjects/', tokens.curator, { name: 'Music' })).status).toBe(201);
    expect(
      (await call('POST', '/year-groups/', tokens.curator, { name: 'Year 9', key_stage: 'KS3' })).status,
    ).toBe(201);
    const refused = await call('POST', '/products/', tokens.curator, product);
    expect(refused).toMatchObject({ status: 403 });
    expect((await call('POST', '/products/', tokens.merchant, product)).status).toBe(201);
    expect((await call('POST', '/subjects/', tokens.merchant, { name: 'Drama' })).status).toBe(403);
  });
});
