import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  listenLive,
  portalModes,
  startTestPortal,
  type TestPortal,
} from '../platform/testing/portal-harness.js';
import { waitFor } from '../platform/testing/wait-for.js';

describe.each(portalModes)('customers API, $name', (mode) => {
  let portal: TestPortal;
  let oak: string;
  let elm: string;
  const tokens: Record<string, string> = {};

  beforeAll(async () => {
    portal = await startTestPortal(mode, 'portal_customers');
    const { call, admin, settle } = portal;
    oak = (await settle(await call('POST', '/customers/', admin, { name: 'Oakfield Academy' }))).body
      .id as string;
    elm = (await settle(await call('POST', '/customers/', admin, { name: 'Elm Tree School' }))).body
      .id as string;
    await portal.createUser({
      email: 'head@oakfield.example.com',
      first_name: 'Hana',
      last_name: 'Head',
      user_type: 'partner',
      customer_id: oak,
      customer_type: 'super-admin',
    });
    await portal.createUser({
      email: 'plain@example.com',
      first_name: 'P',
      last_name: 'T',
      user_type: 'teacher',
    });
    await portal.createUser({
      email: 'office@example.com',
      first_name: 'O',
      last_name: 'F',
      user_type: 'teacher',
      permissions: ['CAN_EDIT_CUSTOMERS'],
    });
    tokens.partner = await portal.tokenFor('head@oakfield.example.com');
    tokens.teacher = await portal.tokenFor('plain@example.com');
    tokens.office = await portal.tokenFor('office@example.com');
  }, 120_000);

  afterAll(async () => {
    await portal?.close();
  });

  it('creates, lists with search and paging, reads and renames customers', async () => {
    const { call, admin, settle } = portal;
    const list = await call('GET', '/customers/?query=oak', admin);
    expect(list.body).toMatchObject({
      total: 1,
      page: 1,
      size: 50,
      items: [{ id: oak, name: 'Oakfield Academy' }],
    });
    const paged = await call('GET', '/customers/?size=1&page=2', admin);
    expect(paged.body).toMatchObject({ total: 2, items: [{ name: 'Oakfield Academy' }] });
    const renamed = await settle(await call('PUT', `/customers/${elm}`, admin, { name: 'Elm Tree Primary' }));
    expect((await call('GET', `/customers/${elm}`, admin)).body).toMatchObject({ name: 'Elm Tree Primary' });
    const events = await portal.running.infra.eventStore.readStream(`customer-${elm}`);
    expect(events.map((e) => e.type)).toEqual(['CustomerCreated', 'CustomerRenamed']);
    expect(renamed.body.position).toBe(events[1]!.position.toString());
  });

  it("shows each user's customer name (the derived first customer's name)", async () => {
    const { call, admin } = portal;
    const users = await call('GET', '/users/?query=oakfield', admin);
    expect(users.body.items).toEqual([
      expect.objectContaining({
        customer_id: oak,
        customer_name: 'Oakfield Academy',
        customers: [{ id: oak, name: 'Oakfield Academy' }],
      }),
    ]);
  });

  it('lets a partner see only their own customer, and internal users need customer edits', async () => {
    const { call } = portal;
    const mine = await call('GET', '/customers/', tokens.partner);
    expect(mine.body).toMatchObject({ total: 1, items: [{ id: oak }] });
    expect((await call('GET', `/customers/${elm}`, tokens.partner)).status).toBe(404);
    expect((await call('POST', '/customers/', tokens.partner, { name: 'Mine' })).status).toBe(403);
    expect((await call('GET', '/customers/', tokens.teacher)).status).toBe(403);
    expect((await call('GET', '/customers/')).status).toBe(401);
    const byOffice = await call('POST', '/customers/', tokens.office, { name: 'Birch House' });
    expect(byOffice.status).toBe(201);
  });

  it("pushes customer changes live to administrators and that customer's users only", async () => {
    const { call, admin, base } = portal;
    const adminLive = await listenLive(base, admin);
    const oakLive = await listenLive(base, tokens.partner!);
    try {
      await call('PUT', `/customers/${elm}`, admin, { name: 'Elm Tree Junior' });
      await call('PUT', `/customers/${oak}`, admin, { name: 'Oakfield Academy Trust' });
      await waitFor(
        'two renames live for the admin',
        () => adminLive.messages.filter((m) => m.type === 'CustomerRenamed').length === 2,
        5_000,
      );
      await waitFor(
        'the rename live for the partner',
        () => oakLive.messages.some((m) => m.type === 'CustomerRenamed'),
        5_000,
      );
      expect(oakLive.messages.filter((m) => m.type === 'CustomerRenamed').map((m) => m.data)).toEqual([
        { customerId: oak },
      ]);
    } finally {
      adminLive.close();
      oakLive.close();
    }
  });

  it('answers bad input with a detail naming the field and unknown ids with 404', async () => {
    const { call, admin } = portal;
    const empty = await call('POST', '/customers/', admin, { name: '' });
    expect(empty.status).toBe(422);
    expect(empty.body.detail).toMatch(/name/);
    const badNetwork = await call('POST', '/customers/', admin, { name: 'X', network_id: 'nope' });
    expect(badNetwork.status).toBe(422);
    expect(badNetwork.body.detail).toMatch(/network_id/);
    const missing = await call('PUT', '/customers/99999999-9999-4999-8999-999999999999', admin, {
      name: 'Y',
    });
    expect(missing).toMatchObject({ status: 404, body: { detail: 'Customer not found' } });
    expect((await call('GET', '/customers/not-a-uuid', admin)).status).toBe(422);
  });
});
