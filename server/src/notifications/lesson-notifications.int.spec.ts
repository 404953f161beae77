import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { portalModes, startTestPortal, type TestPortal } from '../platform/testing/portal-harness.js';
import { writeProgramme } from '../platform/testing/teaching-fixtures.js';
import { waitFor } from '../platform/testing/wait-for.js';
import { ProjectionRunner } from '../platform/projections/projection-runner.js';
import { addDays, todayIn } from '../core/time/time.js';

interface Inbox {
  items: { kind: string; title: string; link: string }[];
  total: number;
}

const TZ = 'Europe/London';

// Issue 18: a lesson moved, cancelled or covered reaches the teacher's inbox and the inboxes of the
// partners linked to the lesson's students (parents, link contacts) — not the one who made the change.
describe.each(portalModes)('lesson changes in the notifications inbox, $name', (mode) => {
  let portal: TestPortal;
  const token: Record<string, string> = {};
  const id: Record<string, string> = {};
  const day = addDays(todayIn(TZ), 7);

  beforeAll(async () => {
    portal = await startTestPortal(mode, 'portal_lesson_notifications');
    const { call, admin, settle, createUser } = portal;
    const oak = (await settle(await call('POST', '/customers/', admin, { name: 'Oak' }))).body.id as string;
    const users: [string, Record<string, unknown>][] = [
      ['tess', { user_type: 'teacher' }],
      ['cara', { user_type: 'teacher' }],
      ['ann', { user_type: 'student', customer_id: oak }],
      ['ben', { user_type: 'student', customer_id: oak }],
      ['mum', { user_type: 'partner', customer_id: oak, customer_type: 'parent' }],
      ['bensDad', { user_type: 'partner', customer_id: oak, customer_type: 'parent' }],
    ];
    for (const [name, extra] of users) {
      id[name] = await createUser({
        email: `${name}@example.com`,
        first_name: name,
        last_name: 'T',
        ...extra,
      });
      if (extra.user_type !== 'student') token[name] = await portal.tokenFor(`${name}@example.com`);
    }
    await settle(await call('PUT', `/users/${id.mum}/linked-students`, admin, { student_ids: [id.ann] }));
    await settle(await call('PUT', `/users/${id.bensDad}/linked-students`, admin, { student_ids: [id.ben] }));
    const p = await writeProgramme(portal, {
      customerId: oak,
      from: addDays(day, -30),
      timezone: TZ,
      groups: [
        { name: 'A', students: [id.ann!], lead: id.tess },
        { name: 'B', students: [id.ben!], lead: id.tess },
      ],
    });
    id.lesson = (
      await settle(
        await call('POST', '/lessons/', admin, {
          programme_id: p.programmeId,
          group_id: p.groupIds[0],
          teacher_id: id.tess,
          timezone: TZ,
          local_date: day,
          local_start: '10:00',
          duration_minutes: 60,
        }),
      )
    ).body.id as string;
  }, 180_000);

  afterAll(async () => {
    await portal?.close();
  });

  const inbox = async (who: string) =>
    (await portal.call('GET', '/notifications/', token[who])).body as unknown as Inbox;

  it('tells the teacher and the child’s parent of a move, a cover and a cancellation; nobody else', async () => {
    const { call, admin, settle } = portal;
    // Planning a lesson is no news.
    expect((await inbox('tess')).total).toBe(0);
    await settle(
      await call('PUT', `/lessons/${id.lesson}/reschedule`, admin, {
        local_date: addDays(day, 1),
        local_start: '11:00',
        reason: 'Room clash',
      }),
    );
    await settle(await call('PUT', `/lessons/${id.lesson}/cover-teacher`, admin, { teacher_id: id.cara }));
    await settle(
      await call('PUT', `/lessons/${id.lesson}/cancel`, admin, {
        reason: 'Snow',
        cancelled_by: 'provider',
        charge_customer: false,
        pay_teacher: true,
      }),
    );
    const tess = await inbox('tess');
    expect(tess.items.map((n) => [n.kind, n.title, n.link])).toEqual([
      ['lesson-changed', 'A lesson of yours was cancelled', `/lessons/${id.lesson}`],
      ['lesson-changed', 'The cover teacher of a lesson changed', `/lessons/${id.lesson}`],
      ['lesson-changed', 'A lesson of yours was moved', `/lessons/${id.lesson}`],
    ]);
    // The cover teacher hears from the moment they cover it.
    expect((await inbox('cara')).items.map((n) => n.title)).toEqual([
      'A lesson of yours was cancelled',
      'The cover teacher of a lesson changed',
    ]);
    const mum = await inbox('mum');
    expect(mum.items.map((n) => [n.title, n.link])).toEqual([
      ['A lesson of your child was cancelled', `/my-child/${id.ann}`],
      ['A lesson of your child will be taught by another teacher', `/my-child/${id.ann}`],
      ['A lesson of your child was moved', `/my-child/${id.ann}`],
    ]);
    // Ben is in another group: his father hears nothing; no free text (the reasons) anywhere.
    expect((await inbox('bensDad')).total).toBe(0);
    expect(JSON.stringify([tess, mum])).not.toMatch(/Snow|Room clash/);
  });

  it('does not tell the person who made the change', async () => {
    // The administrator made every change above and hears of none.
    const me = (await portal.call('GET', '/notifications/', portal.admin)).body as unknown as Inbox;
    expect(me.total).toBe(0);
  });

  it('keeps the same inboxes after a rebuild of the projection', async () => {
    const before = await Promise.all(['tess', 'cara', 'mum'].map(inbox));
    await portal.running.app.get(ProjectionRunner).rebuild(['notifications']);
    await waitFor('rebuilt', async () => (await inbox('tess')).total === before[0]!.total);
    expect(await Promise.all(['tess', 'cara', 'mum'].map(inbox))).toEqual(before);
  });
});
