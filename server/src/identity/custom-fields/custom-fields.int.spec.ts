import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { portalModes, startTestPortal, type TestPortal } from '../../platform/testing/portal-harness.js';

interface Field {
  id: string;
  name: string;
  type: string;
  options: string[];
  required: boolean;
}

describe.each(portalModes)('custom user fields, $name', (mode) => {
  let portal: TestPortal;
  const tokens: Record<string, string> = {};
  let customer: string;

  beforeAll(async () => {
    portal = await startTestPortal(mode, 'portal_custom_fields');
    const { call, admin, settle } = portal;
    customer = (await settle(await call('POST', '/customers/', admin, { name: 'Oakfield' }))).body
      .id as string;
    await portal.createUser({
      email: 'teacher@example.com',
      first_name: 'T',
      last_name: 'T',
      user_type: 'teacher',
    });
    await portal.createUser({
      email: 'partner@example.com',
      first_name: 'P',
      last_name: 'P',
      user_type: 'partner',
      customer_id: customer,
      customer_type: 'super-admin',
    });
    tokens.teacher = await portal.tokenFor('teacher@example.com');
    tokens.partner = await portal.tokenFor('partner@example.com');
  }, 60_000);
  afterAll(async () => {
    await portal?.close();
  });

  it('replaces the definition list as events in one stream and lists it', async () => {
    const { call, admin, settle } = portal;
    expect((await call('GET', '/users/custom_fields', admin)).body).toEqual({ items: [], updated_at: null });
    await settle(
      await call('PUT', '/users/custom_fields', admin, {
        items: [
          { name: 'Dietary needs', type: 'text' },
          { name: 'T-shirt size', type: 'select', options: ['S', 'M', 'L'], required: true },
        ],
      }),
    );
    const listed = await call('GET', '/users/custom_fields', admin);
    const items = listed.body.items as Field[];
    expect(items).toEqual([
      { id: expect.any(String), name: 'Dietary needs', type: 'text', options: [], required: false },
      {
        id: expect.any(String),
        name: 'T-shirt size',
        type: 'select',
        options: ['S', 'M', 'L'],
        required: true,
      },
    ]);
    // Keeping ids keeps fields; a later list replaces the earlier one.
    await settle(
      await call('PUT', '/users/custom_fields', admin, {
        items: [...items, { name: 'Start date', type: 'date' }].map((f) => ({ ...f })),
      }),
    );
    const again = (await call('GET', '/users/custom_fields', admin)).body.items as Field[];
    expect(again.map((f) => f.id).slice(0, 2)).toEqual(items.map((f) => f.id));
    expect(again).toHaveLength(3);
    const events = await portal.running.infra.eventStore.readStream('user-custom-fields');
    expect(events.map((e) => e.type)).toEqual(['UserCustomFieldsDefined', 'UserCustomFieldsDefined']);
  });

  it('refuses bad definition lists with 422 naming the field', async () => {
    const { call, admin } = portal;
    const cases: [unknown, RegExp][] = [
      [{ items: [{ name: 'A', type: 'colour' }] }, /^items\.0\.type/],
      [{ items: [{ type: 'text' }] }, /^items\.0\.name/],
      [
        {
          items: [
            { name: 'A', type: 'text' },
            { name: 'a', type: 'number' },
          ],
        },
        /^items\.1\.name: "a" is already the name of items\.0/,
      ],
      [
        { items: [{ name: 'A', type: 'select' }] },
        /^items\.0\.options: a select field needs at least one option/,
      ],
      [
        { items: [{ name: 'A', type: 'text', options: ['x'] }] },
        /^items\.0\.options: only select fields have options/,
      ],
      [{ items: [{ id: 'not-a-uuid', name: 'A', type: 'text' }] }, /^items\.0\.id/],
      [{}, /^items/],
    ];
    for (const [body, detail] of cases) {
      const answer = await call('PUT', '/users/custom_fields', admin, body);
      expect({ body, status: answer.status }).toEqual({ body, status: 422 });
      expect(answer.body.detail).toMatch(detail);
    }
  });

  it('carries checked values on user create and update', async () => {
    const { call, admin, settle } = portal;
    const [diet, size, start] = (await call('GET', '/users/custom_fields', admin)).body.items as Field[];
    const base = {
      email: 'kid@example.com',
      first_name: 'K',
      last_name: 'D',
      user_type: 'student',
      customer_id: customer,
    };
    const missing = await call('POST', '/users/', admin, {
      ...base,
      password: 'long enough password',
      custom_fields: { [diet!.id]: 'No nuts' },
    });
    expect(missing).toMatchObject({
      status: 422,
      body: { detail: `custom_fields.${size!.id}: "T-shirt size" is required` },
    });
    const wrong = await call('POST', '/users/', admin, { ...base, custom_fields: { [size!.id]: 'XL' } });
    expect(wrong.status).toBe(422);
    expect(wrong.body.detail).toMatch(/must be one of "S", "M", "L"/);
    const created = await settle(
      await call('POST', '/users/', admin, {
        ...base,
        password: 'long enough password',
        custom_fields: { [size!.id]: 'M', [diet!.id]: 'No nuts' },
      }),
    );
    const id = created.body.id as string;
    expect((await call('GET', `/users/${id}`, admin)).body.custom_fields).toEqual({
      [size!.id]: 'M',
      [diet!.id]: 'No nuts',
    });
    await settle(
      await call('PUT', `/users/${id}`, admin, {
        custom_fields: { [diet!.id]: null, [start!.id]: '2030-09-01' },
      }),
    );
    expect((await call('GET', `/users/${id}`, admin)).body.custom_fields).toEqual({
      [size!.id]: 'M',
      [start!.id]: '2030-09-01',
    });
    const unknown = await call('PUT', `/users/${id}`, admin, { custom_fields: { nope: 'x' } });
    expect(unknown).toMatchObject({
      status: 422,
      body: { detail: 'custom_fields.nope: no such custom field' },
    });
    expect((await call('PUT', `/users/${id}`, admin, { custom_fields: { [size!.id]: null } })).status).toBe(
      422,
    );
    expect((await call('PUT', `/users/${id}`, admin, { custom_fields: 'M' })).status).toBe(422);

    // A create that sends no values at all (a CSV import, a partner adding a user) is not blocked by a
    // required field: the user is created without values, and details flag the missing one.
    const plain = await call('POST', '/users/', admin, {
      ...base,
      email: 'kid2@example.com',
      password: 'long enough password',
    });
    expect(plain.status).toBe(201);
    expect((await call('GET', `/users/${plain.body.id as string}`, admin)).body.custom_fields).toEqual({});
  });

  it('is for administrators only', async () => {
    const { call } = portal;
    for (const [method, body] of [
      ['GET', undefined],
      ['PUT', { items: [] }],
    ] as const) {
      expect((await call(method, '/users/custom_fields', undefined, body)).status).toBe(401);
      expect((await call(method, '/users/custom_fields', tokens.teacher, body)).status).toBe(403);
      expect((await call(method, '/users/custom_fields', tokens.partner, body)).status).toBe(403);
    }
  });
});
