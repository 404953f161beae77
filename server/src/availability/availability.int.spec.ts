import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { portalModes, startTestPortal, type TestPortal } from '../platform/testing/portal-harness.js';

describe.each(portalModes)('availability, $name', (mode) => {
  let portal: TestPortal;
  let tutor: string;
  let other: string;
  const tokens: Record<string, string> = {};

  beforeAll(async () => {
    portal = await startTestPortal(mode, 'portal_availability');
    tutor = await portal.createUser({
      email: 'tutor@example.com',
      first_name: 'T',
      last_name: 'U',
      user_type: 'teacher',
    });
    other = await portal.createUser({
      email: 'other@example.com',
      first_name: 'O',
      last_name: 'T',
      user_type: 'teacher',
    });
    tokens.tutor = await portal.tokenFor('tutor@example.com');
    tokens.other = await portal.tokenFor('other@example.com');
  }, 60_000);
  afterAll(async () => {
    await portal?.close();
  });

  const slot = (day_of_week: number, start_minute: number, end_minute: number) => ({
    day_of_week,
    start_minute,
    end_minute,
  });

  it('sets and reads the own recurring week, sorted, as events and a read model', async () => {
    const { call, settle } = portal;
    const empty = await call('GET', '/users/me/availability', tokens.tutor);
    expect(empty.body).toEqual({
      user_id: tutor,
      type: 'default',
      requested_week: null,
      week: null,
      availabilities: [],
      updated_at: null,
    });
    const set = await settle(
      await call('POST', '/users/me/availability', tokens.tutor, {
        availabilities: [slot(2, 540, 720), slot(0, 420, 600)],
      }),
    );
    expect(set.status).toBe(200);
    const mine = await call('GET', '/users/me/availability', tokens.tutor);
    expect(mine.body).toMatchObject({
      week: null,
      availabilities: [slot(0, 420, 600), slot(2, 540, 720)],
    });
    expect(typeof mine.body.updated_at).toBe('string');
    const events = await portal.running.infra.eventStore.readStream(`user-availability-${tutor}`);
    expect(events.map((e) => e.type)).toEqual(['AvailabilitySet']);
    expect(events[0]!.metadata.actorId).toBe(tutor);
    // Same list again: nothing written, same position.
    const again = await call('POST', '/users/me/availability', tokens.tutor, {
      availabilities: [slot(0, 420, 600), slot(2, 540, 720)],
    });
    expect(again.body.position).toBe(set.body.position);
  });

  it('keeps a week of its own apart from the recurring list, and types apart', async () => {
    const { call, settle } = portal;
    await settle(
      await call('POST', '/users/me/availability?week=2030-01-07', tokens.tutor, {
        availabilities: [slot(4, 900, 1260)],
      }),
    );
    expect((await call('GET', '/users/me/availability?week=2030-01-07', tokens.tutor)).body).toMatchObject({
      requested_week: '2030-01-07',
      week: '2030-01-07',
      availabilities: [slot(4, 900, 1260)],
    });
    // Another week has no list of its own: the recurring one applies.
    expect((await call('GET', '/users/me/availability?week=2030-01-14', tokens.tutor)).body).toMatchObject({
      requested_week: '2030-01-14',
      week: null,
      availabilities: [slot(0, 420, 600), slot(2, 540, 720)],
    });
    await settle(
      await call('POST', '/users/me/availability?type=mentoring', tokens.tutor, {
        availabilities: [slot(6, 600, 660)],
      }),
    );
    expect((await call('GET', '/users/me/availability?type=mentoring', tokens.tutor)).body).toMatchObject({
      type: 'mentoring',
      availabilities: [slot(6, 600, 660)],
    });
    expect((await call('GET', '/users/me/availability', tokens.tutor)).body.availabilities).toHaveLength(2);
  });

  it('refuses bad lists and parameters with 422 naming the field', async () => {
    const { call } = portal;
    const cases: [string, unknown, RegExp][] = [
      ['', { availabilities: [slot(0, 400, 500)] }, /^availabilities\.0\.start_minute/],
      ['', { availabilities: [slot(0, 1200, 1300)] }, /^availabilities\.0\.end_minute/],
      ['', { availabilities: [slot(0, 600, 500)] }, /^availabilities\.0\.end_minute/],
      ['', { availabilities: [slot(7, 600, 700)] }, /^availabilities\.0\.day_of_week/],
      [
        '',
        { availabilities: [slot(1, 600, 700), slot(1, 650, 800)] },
        /^availabilities\.1: overlaps availabilities\.0 on Tuesday/,
      ],
      [
        '',
        { availabilities: [{ day_of_week: 1, start_minute: '9:00', end_minute: 700 }] },
        /^availabilities\.0\.start_minute/,
      ],
      ['', { availabilities: 'all day' }, /^availabilities/],
      ['', {}, /^availabilities/],
      ['?week=2030-01-08', { availabilities: [] }, /^week: must be a Monday/],
      ['?week=07.01.2030', { availabilities: [] }, /^week/],
      ['?week=2030-02-31', { availabilities: [] }, /^week: is not a calendar date/],
      ['?type=Bad Type', { availabilities: [] }, /^type/],
    ];
    for (const [query, body, detail] of cases) {
      const answer = await call('POST', `/users/me/availability${query}`, tokens.tutor, body);
      expect({ query, body, status: answer.status }).toEqual({ query, body, status: 422 });
      expect(answer.body.detail).toMatch(detail);
    }
    expect((await call('GET', '/users/me/availability?week=2030-01-09', tokens.tutor)).status).toBe(422);
  });

  it('lets administrators and the user themselves at /users/{id}/availability, nobody else', async () => {
    const { call, admin, settle } = portal;
    const body = { availabilities: [slot(3, 480, 540)] };
    expect((await call('GET', `/users/${other}/availability`)).status).toBe(401);
    expect((await call('POST', `/users/${other}/availability`, undefined, body)).status).toBe(401);
    expect((await call('GET', `/users/${other}/availability`, tokens.tutor)).status).toBe(403);
    expect((await call('POST', `/users/${other}/availability`, tokens.tutor, body)).status).toBe(403);
    expect((await call('GET', '/users/me/availability')).status).toBe(401);
    expect((await call('POST', '/users/me/availability', undefined, body)).status).toBe(401);
    await settle(await call('POST', `/users/${other}/availability`, admin, body));
    expect((await call('GET', `/users/${other}/availability`, admin)).body.availabilities).toEqual([
      slot(3, 480, 540),
    ]);
    expect((await call('GET', '/users/me/availability', tokens.other)).body.availabilities).toEqual([
      slot(3, 480, 540),
    ]);
    await settle(await call('POST', `/users/${other}/availability`, tokens.other, { availabilities: [] }));
    expect((await call('GET', `/users/${other}/availability`, tokens.other)).body.availabilities).toEqual([]);
    expect(
      (await call('GET', '/users/99999999-9999-4999-8999-999999999999/availability', admin)).status,
    ).toBe(404);
  });
});
