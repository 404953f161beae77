import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { listCoverRequests } from '@portal/projections';
import {
  listenLive,
  portalModes,
  startTestPortal,
  type LiveListener,
  type TestPortal,
} from '../platform/testing/portal-harness.js';
import { waitFor } from '../platform/testing/wait-for.js';
import { writeProgramme } from '../platform/testing/teaching-fixtures.js';
import { SQL_CLIENT } from '../platform/tokens.js';
import type { SqlClient } from '../platform/sql/sql-client.js';
import { addDays, localOf, todayIn, weekStartOf } from '../core/time/time.js';

const TZ = 'Europe/London';
type Json = Record<string, unknown>;

describe.each(portalModes)('cover requests and meeting join API, $name', (mode) => {
  let portal: TestPortal;
  const ids: Record<string, string> = {};
  const tokens: Record<string, string> = {};
  // Lessons start next Monday, so they are in the future whatever day the suite runs.
  const monday = addDays(weekStartOf(todayIn(TZ)), 7);

  /** A programme of a customer with groups (students from a week ago), written as the programmes area does. */
  const programme = (customerId: string, groups: { name: string; students: string[] }[]) =>
    writeProgramme(portal, { customerId, from: addDays(todayIn(TZ), -7), timezone: TZ, groups });

  /** A one-off lesson through the lessons API; answers its view. */
  async function lesson(over: Json): Promise<Json> {
    const answer = await portal.settle(
      await portal.call('POST', '/lessons/', portal.admin, {
        programme_id: ids.programme,
        group_id: ids.groupA,
        teacher_id: ids.tess,
        timezone: TZ,
        local_date: monday,
        local_start: '09:30',
        duration_minutes: 60,
        ...over,
      }),
    );
    return answer.body;
  }

  const offers = async (who: string) =>
    (await portal.call('GET', '/cover-requests/?view=offers', tokens[who])).body.items as Json[];

  beforeAll(async () => {
    portal = await startTestPortal(mode, 'portal_cover');
    const { call, admin, settle, createUser } = portal;
    ids.oak = (await settle(await call('POST', '/customers/', admin, { name: 'Oakfield Academy' }))).body
      .id as string;
    ids.elm = (await settle(await call('POST', '/customers/', admin, { name: 'Elm Tree School' }))).body
      .id as string;
    const COVER = 'CAN_ACCESS_COVER_REQUESTS';
    const people: [string, Json][] = [
      ['tess', { user_type: 'teacher' }],
      ['theo', { user_type: 'teacher' }],
      ['cora', { user_type: 'teacher', permissions: [COVER] }],
      ['quinn', { user_type: 'teacher', permissions: [COVER] }],
      ['busy', { user_type: 'teacher', permissions: [COVER] }],
      ['ann', { user_type: 'student', customer_id: ids.oak }],
      ['ben', { user_type: 'student', customer_id: ids.oak }],
      [
        'head',
        {
          user_type: 'partner',
          customer_id: ids.oak,
          customer_type: 'super-admin',
          permissions: ['USER_IS_PARTNER', 'PARTNER_CAN_SEE_ALL_STUDENTS_DETAILS'],
        },
      ],
      [
        'joiner',
        {
          user_type: 'partner',
          customer_id: ids.oak,
          customer_type: 'super-admin',
          permissions: [
            'USER_IS_PARTNER',
            'PARTNER_CAN_SEE_ALL_STUDENTS_DETAILS',
            'PARTNER_CAN_JOIN_LESSONS',
          ],
        },
      ],
      [
        'elmHead',
        {
          user_type: 'partner',
          customer_id: ids.elm,
          customer_type: 'super-admin',
          permissions: [
            'USER_IS_PARTNER',
            'PARTNER_CAN_SEE_ALL_STUDENTS_DETAILS',
            'PARTNER_CAN_JOIN_LESSONS',
          ],
        },
      ],
    ];
    for (const [who, extra] of people) {
      const email = `${who.toLowerCase()}@example.com`;
      const { permissions, ...body } = extra;
      ids[who] = await createUser({
        email,
        first_name: who,
        last_name: 'Test',
        ...body,
        ...(body.user_type === 'partner' ? {} : { permissions }),
      });
      // A partner's exact permissions (the role's template would give more).
      if (body.user_type === 'partner')
        await settle(await call('PUT', `/users/${ids[who]}/permissions`, admin, { permissions }));
      tokens[who] = await portal.tokenFor(email);
    }
    tokens.admin = admin;
    await settle(await call('PUT', `/users/${ids.quinn}/set-quality-issue`, admin, { reason: 'Complaints' }));
    const maths = await programme(ids.oak, [
      { name: 'Group A', students: [ids.ann!] },
      { name: 'Group C', students: [] },
      { name: 'Now group', students: [ids.ann!] },
    ]);
    ids.programme = maths.programmeId;
    ids.groupA = maths.groupIds[0]!;
    ids.groupC = maths.groupIds[1]!;
    ids.groupNow = maths.groupIds[2]!;
    ids.l1 = (await lesson({})).id as string;
    ids.l2 = (await lesson({ local_date: addDays(monday, 1) })).id as string;
    // Busy teaches another group at the same time as l1.
    ids.busyLesson = (await lesson({ group_id: ids.groupC, teacher_id: ids.busy, local_start: '09:00' }))
      .id as string;
  }, 180_000);

  afterAll(async () => {
    await portal?.close();
  });

  it('refuses bad input with 422 naming the field', async () => {
    const bad = await portal.call('POST', '/cover-requests/', tokens.tess, {
      lesson_ids: [],
      reason: 'Ill',
      mode: 'broadcast',
    });
    expect(bad.status).toBe(422);
    expect(bad.body.detail).toContain('lesson_ids');
    const targeted = await portal.call('POST', '/cover-requests/', tokens.tess, {
      lesson_ids: [ids.l1],
      reason: 'Ill',
      mode: 'targeted',
      teacher_ids: [],
    });
    expect(targeted.status).toBe(422);
    expect(targeted.body.detail).toContain('teacher_ids');
  });

  it('lets only the lesson’s teacher (or a lesson editor) request cover; students have no access', async () => {
    const other = await portal.call('POST', '/cover-requests/', tokens.theo, {
      lesson_ids: [ids.l1],
      reason: 'Ill',
      mode: 'broadcast',
    });
    expect(other.status).toBe(422);
    expect(other.body.detail).toContain('lesson_ids');
    expect((await portal.call('GET', '/cover-requests/', tokens.ann)).status).toBe(403);
    expect((await portal.call('GET', '/cover-requests/', tokens.head)).status).toBe(403);
  });

  it('offers a broadcast request to eligible teachers only; the first acceptance fills it and covers the lesson', async () => {
    const { call, settle } = portal;
    const created = await settle(
      await call('POST', '/cover-requests/', tokens.tess, {
        lesson_ids: [ids.l1],
        reason: 'Hospital appointment',
        mode: 'broadcast',
      }),
    );
    expect(created.status).toBe(201);
    ids.broadcast = created.body.id as string;
    const again = await call('POST', '/cover-requests/', tokens.tess, {
      lesson_ids: [ids.l1],
      reason: 'Twice',
      mode: 'broadcast',
    });
    expect(again.status).toBe(409);
    expect(again.body.detail).toContain(ids.broadcast);

    // Cora is offered it; Theo (no cover permission), Quinn (quality issue) and Tess (her own lesson) are not.
    expect((await offers('cora')).map((r) => [r.id, r.can_accept])).toEqual([[ids.broadcast, true]]);
    expect(await offers('theo')).toEqual([]);
    expect(await offers('quinn')).toEqual([]);
    expect(await offers('tess')).toEqual([]);
    // Busy is offered it but cannot take it now: they teach at that time.
    expect((await offers('busy')).map((r) => [r.id, r.can_accept])).toEqual([[ids.broadcast, false]]);
    // Tess sees her own request; the administrator sees all.
    const mineAnswer = await call('GET', '/cover-requests/?view=mine', tokens.tess);
    const mine = mineAnswer.body.items as Json[];
    expect(mine.map((r) => [r.id, r.status, r.can_cancel])).toEqual([[ids.broadcast, 'open', true]]);
    expect((await call('GET', `/cover-requests/${ids.broadcast}`, tokens.admin)).body).toMatchObject({
      id: ids.broadcast,
      status: 'open',
      mode: 'broadcast',
      lesson_ids: [ids.l1],
      requested_by: ids.tess,
      reason: 'Hospital appointment',
    });
    expect((await call('GET', `/cover-requests/${ids.broadcast}`, tokens.theo)).status).toBe(404);

    expect((await call('PUT', `/cover-requests/${ids.broadcast}/accept`, tokens.quinn)).status).toBe(403);
    expect((await call('PUT', `/cover-requests/${ids.broadcast}/accept`, tokens.theo)).status).toBe(403);
    const clash = await call('PUT', `/cover-requests/${ids.broadcast}/accept`, tokens.busy);
    expect(clash.status).toBe(409);
    expect(clash.body.detail).toContain(ids.busyLesson);

    const accepted = await settle(await call('PUT', `/cover-requests/${ids.broadcast}/accept`, tokens.cora));
    expect(accepted.status).toBe(200);
    expect((await call('GET', `/lessons/${ids.l1}`, tokens.admin)).body).toMatchObject({
      cover_teacher_id: ids.cora,
      cover_teacher_name: expect.stringContaining('cora'),
    });
    const filled = (await call('GET', `/cover-requests/${ids.broadcast}`, tokens.tess)).body;
    expect(filled).toMatchObject({ status: 'filled', filled_by: ids.cora, can_cancel: false });
    expect(filled.responses).toEqual([
      { teacher_id: ids.cora, response: 'accepted', at: expect.any(String) },
    ]);
    // Cora now teaches it and sees it as hers; nobody else can take it any more.
    expect((await call('GET', `/cover-requests/${ids.broadcast}`, tokens.cora)).status).toBe(200);
    expect((await call('PUT', `/cover-requests/${ids.broadcast}/accept`, tokens.admin)).status).toBe(409);
    expect(await offers('busy')).toEqual([]);
  });

  it('offers a targeted request to the named teacher only; declines are recorded; the requester cancels', async () => {
    const { call, settle } = portal;
    const created = await settle(
      await call('POST', '/cover-requests/', tokens.tess, {
        lesson_ids: [ids.l2],
        reason: 'Training',
        mode: 'targeted',
        teacher_ids: [ids.busy],
      }),
    );
    ids.targeted = created.body.id as string;
    expect(await offers('cora')).toEqual([]);
    expect((await call('PUT', `/cover-requests/${ids.targeted}/accept`, tokens.cora)).status).toBe(403);
    expect((await offers('busy')).map((r) => r.id)).toEqual([ids.targeted]);
    await settle(await call('PUT', `/cover-requests/${ids.targeted}/decline`, tokens.busy));
    expect(await offers('busy')).toEqual([]);
    const declined = (await call('GET', `/cover-requests/${ids.targeted}`, tokens.admin)).body;
    expect(declined).toMatchObject({ status: 'open' });
    expect(declined.responses).toEqual([
      { teacher_id: ids.busy, response: 'declined', at: expect.any(String) },
    ]);

    expect((await call('PUT', `/cover-requests/${ids.targeted}/cancel`, tokens.cora)).status).toBe(403);
    await settle(await call('PUT', `/cover-requests/${ids.targeted}/cancel`, tokens.tess));
    expect((await call('GET', `/cover-requests/${ids.targeted}`, tokens.tess)).body.status).toBe('cancelled');
    expect((await call('PUT', `/cover-requests/${ids.targeted}/accept`, tokens.busy)).status).toBe(409);
    const cancelled = (await call('GET', '/cover-requests/?status=cancelled', tokens.admin)).body
      .items as Json[];
    expect(cancelled.map((r) => r.id)).toEqual([ids.targeted]);
  });

  it('reaches holders of the cover permission (teachers:cover), the requester and administrators live; not other teachers', async () => {
    const listeners: Record<string, LiveListener> = {};
    for (const who of ['cora', 'quinn', 'theo', 'tess', 'admin'])
      listeners[who] = await listenLive(portal.base, tokens[who]!);
    try {
      const l3 = (await lesson({ local_date: addDays(monday, 2) })).id as string;
      const created = await portal.settle(
        await portal.call('POST', '/cover-requests/', tokens.tess, {
          lesson_ids: [l3],
          reason: 'Conference',
          mode: 'broadcast',
        }),
      );
      const stream = `coverRequest-${created.body.id as string}`;
      const heard = (who: string) => listeners[who]!.messages.filter((m) => m.stream === stream);
      for (const who of ['cora', 'quinn', 'tess', 'admin'])
        await waitFor(`${who} hears the request`, () => heard(who).length > 0);
      expect(heard('cora')[0]!.data).toEqual({ coverRequestId: created.body.id });
      // Quinn holds the permission and hears the ping, but is offered nothing (quality issue).
      expect(await offers('quinn')).toEqual([]);
      expect(heard('theo')).toEqual([]);
      await portal.settle(
        await portal.call('PUT', `/cover-requests/${created.body.id as string}/cancel`, tokens.tess),
      );
    } finally {
      for (const l of Object.values(listeners)) l.close();
    }
  });

  it('reads an open request as expired once its first lesson has started', async () => {
    const sql = portal.running.app.get<SqlClient>(SQL_CLIENT);
    const l4 = await lesson({ local_date: addDays(monday, 3) });
    const created = await portal.settle(
      await portal.call('POST', '/cover-requests/', tokens.tess, {
        lesson_ids: [l4.id],
        reason: 'Exam board meeting',
        mode: 'broadcast',
      }),
    );
    const id = created.body.id as string;
    const ids = (page: { items: { id: string }[] }) => page.items.map((r) => r.id);
    expect(ids(await listCoverRequests(sql, { status: ['open'] }))).toContain(id);
    const started = new Date(Date.parse(l4.starts_at as string) + 60_000).toISOString();
    const later = await listCoverRequests(sql, { lessonId: l4.id as string, now: started });
    expect(later.items.map((r) => [r.id, r.status])).toEqual([[id, 'expired']]);
    expect(ids(await listCoverRequests(sql, { status: ['expired'], now: started }))).toContain(id);
    expect(ids(await listCoverRequests(sql, { status: ['open'], now: started }))).not.toContain(id);
  });

  describe('meeting join', () => {
    beforeAll(async () => {
      // A lesson in progress: it started this minute (UTC), for the group Ann is in.
      const now = localOf(new Date(), 'UTC');
      const current = await lesson({
        group_id: ids.groupNow,
        timezone: 'UTC',
        local_date: now.localDate,
        local_start: now.localTime,
        duration_minutes: 60,
      });
      ids.nowLesson = current.id as string;
      ids.nowMeeting = current.meeting_id as string;
      const future = (await portal.call('GET', `/lessons/${ids.l2}`, portal.admin)).body;
      ids.futureMeeting = future.meeting_id as string;
    });

    const join = (who: string, meetingId: string) =>
      portal.call('POST', `/meetings/${meetingId}/join`, tokens[who]);

    it('sends the teacher, the group’s student, an administrator and a partner with JOIN_LESSONS to the meeting URL and records each join', async () => {
      for (const who of ['tess', 'ann', 'admin', 'joiner']) {
        const answer = await join(who, ids.nowMeeting!);
        expect({ who, status: answer.status, body: answer.body }).toEqual({
          who,
          status: 200,
          body: { url: `https://meet.example.org/${ids.nowMeeting}`, lesson_id: ids.nowLesson },
        });
      }
      const events = await portal.running.infra.eventStore.readStream(`meeting-${ids.nowMeeting}`);
      expect(events.map((e) => [e.type, (e.data as Json).userId, (e.data as Json).role])).toEqual([
        ['JoinLinkUsed', ids.tess, 'teacher'],
        ['JoinLinkUsed', ids.ann, 'student'],
        ['JoinLinkUsed', expect.any(String), 'staff'],
        ['JoinLinkUsed', ids.joiner, 'partner'],
      ]);
      expect((events[0]!.data as Json).lessonId).toBe(ids.nowLesson);
    });

    it('refuses who may not join: 403 when they see the lesson, 404 when they may not', async () => {
      expect((await join('head', ids.nowMeeting!)).status).toBe(403);
      expect((await join('theo', ids.nowMeeting!)).status).toBe(403);
      expect((await join('elmHead', ids.nowMeeting!)).status).toBe(404);
      expect((await join('ben', ids.nowMeeting!)).status).toBe(404);
      expect((await join('tess', randomUUID())).status).toBe(404);
      const events = await portal.running.infra.eventStore.readStream(`meeting-${ids.nowMeeting}`);
      expect(events).toHaveLength(4);
    });

    it('answers 409 outside the window, saying when to come back in the lesson’s zone', async () => {
      const answer = await join('tess', ids.futureMeeting!);
      expect(answer.status).toBe(409);
      const [y, m, d] = addDays(monday, 1).split('-');
      expect(answer.body.detail).toContain(`${d}.${m}.${y} 09:20`);
      expect(await portal.running.infra.eventStore.readStream(`meeting-${ids.futureMeeting}`)).toEqual([]);
    });

    it('answers 409 for a cancelled lesson', async () => {
      await portal.settle(
        await portal.call('PUT', `/lessons/${ids.l2}/cancel`, portal.admin, {
          reason: 'Closed',
          cancelled_by: 'provider',
          charge_customer: false,
          pay_teacher: false,
        }),
      );
      const answer = await join('tess', ids.futureMeeting!);
      expect(answer.status).toBe(409);
      expect(answer.body.detail).toContain('cancelled');
    });
  });
});
