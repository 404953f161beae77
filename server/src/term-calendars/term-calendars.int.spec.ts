import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { teachingDaysFor } from '@portal/projections';
import { SQL_CLIENT } from '../platform/tokens.js';
import type { SqlClient } from '../platform/sql/sql-client.js';
import { portalModes, startTestPortal, type TestPortal } from '../platform/testing/portal-harness.js';

const autumn = { name: 'Autumn', first_day: '2026-09-02', last_day: '2026-12-18' };
const spring = { name: 'Spring', first_day: '2027-01-05', last_day: '2027-03-26' };
const halfTerm = ['2026-10-26', '2026-10-27', '2026-10-28', '2026-10-29', '2026-10-30'].map((date) => ({
  date,
  reason: 'Half term',
}));

describe.each(portalModes)('term calendars API, $name', (mode) => {
  let portal: TestPortal;
  const id = {} as Record<string, string>;
  const tokens = {} as Record<string, string>;

  beforeAll(async () => {
    portal = await startTestPortal(mode, 'portal_term_calendars_api');
    const { call, admin, settle, createUser } = portal;
    const me = (await call('GET', '/users/me', admin)).body.id as string;
    await settle(
      await call('PUT', `/users/${me}/permissions`, admin, {
        permissions: ['USER_IS_ADMIN', 'CAN_MODIFY_NETWORK'],
      }),
    );
    for (const [key, name] of [
      ['england', 'England'],
      ['spain', 'Spain'],
    ] as const)
      id[key] = (await settle(await call('POST', '/networks/', admin, { name, timezone: 'Europe/London' })))
        .body.id as string;
    for (const [key, name, network] of [
      ['oak', 'Oakfield Academy', id.england],
      ['elm', 'Elm Tree School', id.england],
      ['sol', 'Colegio Sol', id.spain],
    ] as const)
      id[key] = (await settle(await call('POST', '/customers/', admin, { name, network_id: network }))).body
        .id as string;
    const users: [string, Record<string, unknown>][] = [
      ['teacher', { user_type: 'teacher' }],
      ['planner', { user_type: 'teacher', permissions: ['CAN_MANAGE_PROGRAMMES'] }],
      ['oakHead', { user_type: 'partner', customer_id: id.oak, customer_type: 'super-admin' }],
      ['solHead', { user_type: 'partner', customer_id: id.sol, customer_type: 'super-admin' }],
    ];
    for (const [who, extra] of users) {
      await createUser({
        email: `${who.toLowerCase()}@example.com`,
        first_name: who,
        last_name: 'T',
        ...extra,
      });
      tokens[who] = await portal.tokenFor(`${who.toLowerCase()}@example.com`);
    }
  }, 120_000);

  afterAll(async () => {
    await portal?.close();
  });

  it("creates a network's calendar (named by its academic year), reads it and changes its lists", async () => {
    const { call, admin, settle } = portal;
    const created = await settle(
      await call('POST', '/term-calendars/', admin, {
        network_id: id.england,
        terms: [spring, autumn],
        closures: halfTerm,
      }),
    );
    id.englandCal = created.body.id as string;
    expect((await call('GET', `/term-calendars/${id.englandCal}`, admin)).body).toMatchObject({
      id: id.englandCal,
      network_id: id.england,
      customer_id: null,
      name: '2026/27',
      terms: [autumn, spring],
      closures: halfTerm,
    });
    const summer = { name: 'Summer', first_day: '2027-04-12', last_day: '2027-07-21' };
    await settle(
      await call('PUT', `/term-calendars/${id.englandCal}`, admin, { terms: [autumn, spring, summer] }),
    );
    const read = await call('GET', `/term-calendars/${id.englandCal}`, admin);
    expect(read.body.terms).toEqual([autumn, spring, summer]);
    expect(read.body.closures).toEqual(halfTerm);
    const events = await portal.running.infra.eventStore.readStream(`termCalendar-${id.englandCal}`);
    expect(events.map((e) => e.type)).toEqual(['TermCalendarCreated', 'TermCalendarTermsChanged']);
  });

  it('refuses bad calendars with 422 naming the field', async () => {
    const { call, admin } = portal;
    const cases: [Record<string, unknown>, RegExp][] = [
      [
        { terms: [autumn, { ...spring, last_day: '2027-01-04' }] },
        /^terms\.1\.last_day: must not be before first_day/,
      ],
      [
        { terms: [autumn, { ...spring, first_day: '2026-12-18' }] },
        /^terms\.1\.first_day: overlaps term 0 \(Autumn/,
      ],
      [{ terms: [{ ...autumn, first_day: '2026-02-30' }] }, /^terms\.0\.first_day: /],
      [
        { closures: [...halfTerm, { date: '2026-10-27', reason: 'INSET' }] },
        /^closures\.5\.date: 2026-10-27 is already closures\.1/,
      ],
      [{ closures: [{ date: 'tomorrow', reason: '' }] }, /^closures\.0\.date/],
      [{ network_id: 'nope' }, /^network_id/],
      [{ network_id: '99999999-9999-4999-8999-999999999999' }, /^network_id: no network/],
      [{ customer_id: id.sol }, /^customer_id: this customer is not in network_id/],
      [{ terms: undefined }, /terms/],
    ];
    for (const [change, detail] of cases) {
      const answer = await call('POST', '/term-calendars/', admin, {
        network_id: id.england,
        terms: [autumn],
        closures: [],
        ...change,
      });
      expect({ change, status: answer.status }).toEqual({ change, status: 422 });
      expect(answer.body.detail).toMatch(detail);
    }
    const update = await call('PUT', `/term-calendars/${id.englandCal}`, admin, {
      terms: [autumn, { ...spring, first_day: '2026-12-01' }],
    });
    expect(update.status).toBe(422);
    expect(update.body.detail).toMatch(/^terms\.1\.first_day/);
    const missing = await call('PUT', '/term-calendars/99999999-9999-4999-8999-999999999999', admin, {
      name: 'X',
    });
    expect(missing).toEqual({ status: 404, body: { detail: 'Term calendar not found' } });
  });

  it("lets partners read their own school's and their network's calendars only; programme managers edit", async () => {
    const { call, admin, settle } = portal;
    expect(
      (
        await call('POST', '/term-calendars/', tokens.teacher, {
          network_id: id.england,
          terms: [],
          closures: [],
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await call('POST', '/term-calendars/', tokens.oakHead, {
          network_id: id.england,
          terms: [],
          closures: [],
        })
      ).status,
    ).toBe(403);
    const oakCal = await call('POST', '/term-calendars/', tokens.planner, {
      network_id: id.england,
      customer_id: id.oak,
      name: 'Oakfield 2026/27',
      terms: [],
      closures: [{ date: '2026-11-20', reason: 'INSET day' }],
    });
    expect(oakCal.status).toBe(201);
    id.oakCal = (await settle(oakCal)).body.id as string;
    id.elmCal = (
      await settle(
        await call('POST', '/term-calendars/', admin, {
          network_id: id.england,
          customer_id: id.elm,
          terms: [],
          closures: [{ date: '2026-11-27', reason: 'INSET day' }],
        }),
      )
    ).body.id as string;
    id.spainCal = (
      await settle(
        await call('POST', '/term-calendars/', admin, {
          network_id: id.spain,
          terms: [{ name: 'Primer trimestre', first_day: '2026-09-08', last_day: '2026-12-22' }],
          closures: [],
        }),
      )
    ).body.id as string;

    const names = async (token: string, query = '') =>
      ((await call('GET', `/term-calendars/${query}`, token)).body.items as { id: string }[])
        .map((c) => c.id)
        .sort();
    expect(await names(tokens.oakHead!)).toEqual([id.englandCal, id.oakCal].sort());
    expect(await names(tokens.solHead!)).toEqual([id.spainCal]);
    expect(await names(tokens.teacher!)).toHaveLength(4);
    expect(await names(admin, `?network_id=${id.england}`)).toHaveLength(3);
    expect(await names(admin, `?customer_id=${id.oak}`)).toEqual([id.oakCal]);
    expect((await call('GET', `/term-calendars/${id.elmCal}`, tokens.oakHead)).status).toBe(404);
    expect((await call('GET', `/term-calendars/${id.spainCal}`, tokens.oakHead)).status).toBe(404);
    expect((await call('GET', `/term-calendars/${id.englandCal}`, tokens.oakHead)).status).toBe(200);
    expect((await call('PUT', `/term-calendars/${id.oakCal}`, tokens.oakHead, { name: 'Mine' })).status).toBe(
      403,
    );

    // What the planner of schedules asks: Oak gets the network's terms and both calendars' closures.
    const sql = portal.running.app.get<SqlClient>(SQL_CLIENT);
    expect(
      await teachingDaysFor(sql, {
        networkId: id.england!,
        customerId: id.oak!,
        from: '2026-10-01',
        to: '2026-11-30',
      }),
    ).toEqual({
      terms: [{ first_day: autumn.first_day, last_day: autumn.last_day }],
      closures: [...halfTerm.map((h) => h.date), '2026-11-20'],
    });
  });
});
