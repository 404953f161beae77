import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { portalModes, startTestPortal, type TestPortal } from '../platform/testing/portal-harness.js';
import { writeProgramme } from '../platform/testing/teaching-fixtures.js';
import { addDays, todayIn, weekStartOf } from '../core/time/time.js';

const TZ = 'Europe/London';
type Json = Record<string, unknown>;

describe.each(portalModes)('a child’s overview (my child), $name', (mode) => {
  let portal: TestPortal;
  const ids: Record<string, string> = {};
  const tokens: Record<string, string> = {};
  const today = todayIn(TZ);
  const monday = weekStartOf(today);

  const overview = (who: string, student: string, query = '') =>
    portal.call('GET', `/users/${student}/child-overview${query}`, tokens[who] ?? portal.admin);

  beforeAll(async () => {
    portal = await startTestPortal(mode, 'portal_child_overview');
    const { call, settle, admin } = portal;
    const ok = async (p: Promise<Awaited<ReturnType<typeof call>>>) => (await settle(await p)).body;
    const me = (await call('GET', '/users/me', admin)).body.id as string;
    await settle(
      await call('PUT', `/users/${me}/permissions`, admin, {
        permissions: ['USER_IS_ADMIN', 'CAN_MODIFY_NETWORK'],
      }),
    );
    ids.network = (await ok(call('POST', '/networks/', admin, { name: 'North', timezone: TZ }))).id as string;
    ids.oak = (await ok(call('POST', '/customers/', admin, { name: 'Oak School', network_id: ids.network })))
      .id as string;
    ids.elm = (await ok(call('POST', '/customers/', admin, { name: 'Elm School', network_id: ids.network })))
      .id as string;
    const people: [string, Json][] = [
      ['ann', { user_type: 'student', customer_id: ids.oak }],
      ['ben', { user_type: 'student', customer_id: ids.oak }],
      ['tess', { user_type: 'teacher' }],
      ['parent', { user_type: 'partner', customer_id: ids.oak, customer_type: 'parent' }],
      ['link', { user_type: 'partner', customer_id: ids.oak, customer_type: 'link-contact' }],
      ['otherLink', { user_type: 'partner', customer_id: ids.oak, customer_type: 'link-contact' }],
      ['head', { user_type: 'partner', customer_id: ids.oak, customer_type: 'super-admin' }],
      ['elmHead', { user_type: 'partner', customer_id: ids.elm, customer_type: 'super-admin' }],
    ];
    for (const [who, body] of people) {
      const email = `${who.toLowerCase()}@example.com`;
      ids[who] = await portal.createUser({ email, first_name: who, last_name: 'Test', ...body });
      if (body.user_type !== 'student') tokens[who] = await portal.tokenFor(email);
    }
    for (const partner of ['parent', 'link'])
      await settle(
        await call('PUT', `/users/${ids[partner]}/linked-students`, admin, { student_ids: [ids.ann] }),
      );
    await settle(
      await call('PUT', `/users/${ids.otherLink}/linked-students`, admin, { student_ids: [ids.ben] }),
    );
    const p = await writeProgramme(portal, {
      customerId: ids.oak,
      from: addDays(today, -60),
      timezone: TZ,
      title: 'Maths recovery',
      groups: [
        { name: 'Group A', students: [ids.ann!], lead: ids.tess },
        { name: 'Group B', students: [ids.ben!], lead: ids.tess },
      ],
    });
    const lesson = async (group: string, date: string, over: Json = {}) =>
      (
        await ok(
          call('POST', '/lessons/', admin, {
            programme_id: p.programmeId,
            group_id: group,
            teacher_id: ids.tess,
            timezone: TZ,
            local_date: date,
            local_start: '10:00',
            duration_minutes: 60,
            ...over,
          }),
        )
      ).id as string;
    ids.thisWeek = await lesson(p.groupIds[0]!, addDays(monday, 2));
    ids.nextWeek = await lesson(p.groupIds[0]!, addDays(monday, 9));
    ids.later = await lesson(p.groupIds[0]!, addDays(monday, 16));
    ids.bens = await lesson(p.groupIds[1]!, addDays(monday, 3));
    ids.cancelled = await lesson(p.groupIds[0]!, addDays(monday, 4), { local_start: '13:00' });
    await settle(
      await call('PUT', `/lessons/${ids.cancelled}/cancel`, admin, {
        reason: 'Teacher unwell',
        cancelled_by: 'teacher',
        charge_customer: false,
        pay_teacher: false,
      }),
    );
    // The school's calendar: a term around today with a half-term break two days before today.
    await settle(
      await call('POST', '/term-calendars/', admin, {
        network_id: ids.network,
        customer_id: ids.oak,
        terms: [{ name: 'Autumn', first_day: addDays(today, -30), last_day: addDays(today, 30) }],
        closures: [
          { date: addDays(today, -3), reason: 'Half term' },
          { date: addDays(today, -2), reason: 'Half term' },
          { date: addDays(today, -20), reason: 'INSET day' },
        ],
      }),
    );
  }, 180_000);
  afterAll(async () => {
    await portal?.close();
  });

  it('gives a parent their child’s lessons this and next week, the half term and the school’s contacts', async () => {
    const r = await overview('parent', ids.ann!, `?timezone=${TZ}`);
    expect(r.status).toBe(200);
    const body = r.body as Json;
    expect(body.student).toEqual({ id: ids.ann, name: 'ann Test', school: 'Oak School', year_group: null });
    expect(body.week_start).toBe(monday);
    const lessons = body.lessons as Json[];
    expect(lessons.map((l) => l.id)).toEqual([ids.thisWeek, ids.cancelled, ids.nextWeek]);
    expect(lessons.map((l) => l.status)).toEqual(['planned', 'cancelled', 'planned']);
    expect(lessons.every((l) => l.notes === null)).toBe(true);
    // The break splits the term: today is in its second half, from the day after the break.
    expect(body.half_term).toEqual({
      name: 'Autumn 2',
      from: addDays(today, -1),
      to: addDays(today, 30),
      source: 'term',
    });
    // The parent sees assessments (their role's default): released reports, none yet.
    expect(body.reports).toEqual([]);
    // Contacts: the school's super-admin and the child's own link contact, linked first; not the
    // link contact of another pupil, not another school's staff, not the parent themselves.
    const contacts = body.contacts as Json[];
    expect(contacts.map((c) => [c.id, c.role, c.linked])).toEqual([
      [ids.link, 'link-contact', true],
      [ids.head, 'super-admin', false],
    ]);
    expect(contacts[0]!.email).toBe('link@example.com');
  });

  it('hides a child the caller may not see (404), and refuses teachers', async () => {
    expect((await overview('parent', ids.ben!)).status).toBe(404);
    expect((await overview('elmHead', ids.ann!)).status).toBe(404);
    expect((await overview('parent', ids.tess!)).status).toBe(404);
    expect((await overview('tess', ids.ann!)).status).toBe(403);
    // The school's super-admin sees every pupil of the school; the administrator every pupil.
    expect((await overview('head', ids.ben!)).status).toBe(200);
    expect((await overview('admin', ids.ben!)).status).toBe(200);
  });

  it('answers 422 naming the field for an unknown time zone', async () => {
    const r = await overview('parent', ids.ann!, '?timezone=Mars/Base');
    expect(r.status).toBe(422);
    expect((r.body as Json).detail).toMatch(/^timezone/);
  });

  it('leaves reports out for a reader who does not see assessments', async () => {
    await portal.settle(
      await portal.call('PUT', `/users/${ids.parent}/permissions`, portal.admin, {
        permissions: ['USER_IS_PARTNER', 'PARTNER_CAN_SEE_ATTENDANCE'],
      }),
    );
    const body = (await overview('parent', ids.ann!)).body as Json;
    expect(body.reports).toBeNull();
    expect((body.lessons as Json[]).length).toBe(3);
  });
});
