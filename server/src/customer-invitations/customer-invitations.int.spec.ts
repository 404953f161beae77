import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { portalModes, startTestPortal, type TestPortal } from '../platform/testing/portal-harness.js';
import { CUSTOMER_ROLE_PERMISSIONS } from '../identity/policy/policy.js';
import { TokenLinks } from '../identity/token-links.js';
import { TEST_PUBLIC_URL, mailedToken, mailsTo } from '../identity/testing/mailed-links.js';

const INVITE = 'CAN_SEND_PARTNER_INVITATIONS';

describe.each(portalModes)('partner invitations and registration, $name', (mode) => {
  let portal: TestPortal;
  let oak: string;
  let elm: string;
  const tokens: Record<string, string> = {};

  beforeAll(async () => {
    portal = await startTestPortal(mode, 'portal_invitations', { PUBLIC_URL: TEST_PUBLIC_URL });
    const { call, admin, settle } = portal;
    oak = (await settle(await call('POST', '/customers/', admin, { name: 'Oakfield Academy' }))).body
      .id as string;
    elm = (await settle(await call('POST', '/customers/', admin, { name: 'Elm Tree School' }))).body
      .id as string;
    const users: [string, Record<string, unknown>][] = [
      [
        'inviter',
        { user_type: 'partner', customer_id: oak, customer_type: 'super-admin', permissions: [INVITE] },
      ],
      ['partner', { user_type: 'partner', customer_id: oak, customer_type: 'super-admin' }],
      ['limited', { user_type: 'partner', customer_id: oak, customer_type: 'admin', permissions: [INVITE] }],
      ['office', { user_type: 'teacher', permissions: [INVITE] }],
      ['teacher', { user_type: 'teacher' }],
    ];
    for (const [key, body] of users) {
      await portal.createUser({ email: `${key}@example.com`, first_name: key, last_name: 'X', ...body });
      tokens[key] = await portal.tokenFor(`${key}@example.com`);
    }
  }, 120_000);
  afterAll(async () => {
    await portal?.close();
  });

  it('invites an address to a customer with a role; the link registers the partner user once', async () => {
    const { call, admin, settle } = portal;
    const email = 'link.contact@oakfield.example.com';
    const sent = await settle(
      await call('POST', '/customer-invitations', admin, {
        email: 'Link.Contact@Oakfield.example.com',
        customer_id: oak,
        customer_type: 'link-contact',
      }),
    );
    expect(sent.status).toBe(201);
    const token = await mailedToken(portal, email, '/register/partner/invite');
    const [mail] = await mailsTo(portal, email);
    expect(mail!.subject).toBe('You are invited to the Tutoring Portal for Oakfield Academy');
    expect(mail!.body_text).toContain('Link Contact for Oakfield Academy');

    for (let i = 0; i < 2; i++)
      expect(await call('GET', `/register/partner/invite/${token}`)).toEqual({
        status: 200,
        body: {
          valid: true,
          email,
          customer_name: 'Oakfield Academy',
          customer_type: 'link-contact',
          customer_type_label: 'Link Contact',
        },
      });

    const missing = await call('POST', '/register/partner', undefined, {
      token,
      password: 'a long passphrase',
    });
    expect(missing.status).toBe(422);
    expect(missing.body.detail).toMatch(/first_name/);

    const registered = await settle(
      await call('POST', '/register/partner', undefined, {
        token,
        first_name: 'Lin',
        last_name: 'Contact',
        password: 'a long passphrase',
      }),
    );
    expect(registered.status).toBe(201);
    const id = registered.body.id as string;
    const me = await call('GET', '/users/me', await portal.tokenFor(email, 'a long passphrase'));
    expect(me.body).toMatchObject({
      id,
      login: email,
      first_name: 'Lin',
      user_type: 'partner',
      customer_id: oak,
      customer_name: 'Oakfield Academy',
      customer_profile: { type: 'link-contact', type_label: 'Link Contact' },
      is_activated: true,
    });
    expect([...(me.body.permission_list as string[])].sort()).toEqual(
      ['USER_IS_PARTNER', ...CUSTOMER_ROLE_PERMISSIONS['link-contact']].sort(),
    );
    const store = portal.running.infra.eventStore;
    expect((await store.readStream(`user-${id}`)).map((e) => e.type)).toEqual(['UserCreated']);
    const invitation = await store.readStream(`customer-invitation-${sent.body.id as string}`);
    expect(invitation.map((e) => e.type)).toEqual(['CustomerInvitationSent', 'CustomerInvitationAccepted']);

    for (const again of [
      await call('GET', `/register/partner/invite/${token}`),
      await call('POST', '/register/partner', undefined, {
        token,
        first_name: 'Lin',
        last_name: 'Again',
        password: 'a long passphrase',
      }),
    ])
      expect(again).toMatchObject({ status: 400, body: { code: 'INVALID_TOKEN' } });

    const list = await call('GET', `/customer-invitations?customer_id=${oak}`, admin);
    expect(list.body.items).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          id: sent.body.id,
          email,
          customer_name: 'Oakfield Academy',
          status: 'accepted',
          user_id: id,
        }),
      ]),
    );
  });

  it('refuses expired and made-up links, known addresses, unknown customers and bad roles', async () => {
    const { call, admin } = portal;
    const sent = await portal.settle(
      await call('POST', '/customer-invitations', admin, {
        email: 'slow@elm.example.com',
        customer_id: elm,
        customer_type: 'parent',
      }),
    );
    const expired = await portal.running.app
      .get(TokenLinks)
      .issue('partner-invite', sent.body.id as string, 0);
    for (const token of [expired, 'B'.repeat(43)]) {
      expect(await call('GET', `/register/partner/invite/${token}`)).toMatchObject({
        status: 400,
        body: { code: 'INVALID_TOKEN' },
      });
      expect(
        await call('POST', '/register/partner', undefined, {
          token,
          first_name: 'S',
          last_name: 'L',
          password: 'a long passphrase',
        }),
      ).toMatchObject({ status: 400, body: { code: 'INVALID_TOKEN' } });
    }
    expect(
      await call('POST', '/customer-invitations', admin, {
        email: 'partner@example.com',
        customer_id: oak,
        customer_type: 'parent',
      }),
    ).toMatchObject({ status: 409 });
    const unknown = await call('POST', '/customer-invitations', admin, {
      email: 'x@example.com',
      customer_id: '99999999-9999-4999-8999-999999999999',
      customer_type: 'parent',
    });
    expect(unknown).toMatchObject({ status: 422, body: { detail: 'customer_id: no such customer' } });
    const role = await call('POST', '/customer-invitations', admin, {
      email: 'x@example.com',
      customer_id: oak,
      customer_type: 'head-teacher',
    });
    expect(role.status).toBe(422);
    expect(role.body.detail).toMatch(/customer_type/);
  });

  it('authorizes: admin, or the named permission; partners only for their own customer and roles they may add', async () => {
    const { call } = portal;
    let n = 0;
    const invite = (token: string | undefined, extra: Record<string, unknown> = {}) =>
      call('POST', '/customer-invitations', token, {
        email: `invitee${++n}@example.com`,
        customer_type: 'parent',
        customer_id: oak,
        ...extra,
      });
    expect((await invite(undefined)).status).toBe(401);
    expect((await invite(tokens.teacher)).status).toBe(403);
    expect((await invite(tokens.partner)).status).toBe(403);
    expect((await invite(tokens.office)).status).toBe(201);
    expect((await invite(portal.admin)).status).toBe(201);
    const own = await portal.settle(await invite(tokens.inviter, { customer_id: undefined }));
    expect(own.status).toBe(201);
    expect((await invite(tokens.inviter, { customer_id: elm })).status).toBe(403);
    // A customer admin may not add super system administrators, so may not invite one either.
    expect((await invite(tokens.limited, { customer_type: 'super-admin' })).status).toBe(403);
    expect((await invite(tokens.limited, { customer_type: 'link-contact' })).status).toBe(201);

    expect((await call('GET', '/customer-invitations')).status).toBe(401);
    expect((await call('GET', '/customer-invitations', tokens.teacher)).status).toBe(403);
    expect((await call('GET', '/customer-invitations', tokens.partner)).status).toBe(403);
    const theirs = await call('GET', `/customer-invitations?customer_id=${elm}`, tokens.inviter);
    expect(theirs.body.items).toEqual([]);
    const mine = await call('GET', '/customer-invitations?size=500', tokens.inviter);
    expect((mine.body.items as { customer_id: string }[]).every((i) => i.customer_id === oak)).toBe(true);
    expect(mine.body.items).toEqual(expect.arrayContaining([expect.objectContaining({ id: own.body.id })]));
  });
});
