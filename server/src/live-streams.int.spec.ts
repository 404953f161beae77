import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { io as connectClient, type Socket as ClientSocket } from 'socket.io-client';
import type { WebsocketProvider } from 'y-websocket';
import {
  LIVE_NAMESPACE,
  LIVE_PATH,
  STREAMS,
  groupStream,
  parseStream,
  programmeStream,
  type ClientToServerEvents,
  type LiveMessage,
  type ServerToClientEvents,
  type StreamKind,
} from '@portal/projections';
import { editor, synced } from './platform/collaboration/testing/collab-test-kit.js';
import { ProjectionRunner } from './platform/projections/projection-runner.js';
import {
  portalModes,
  startTestPortal,
  type Answer,
  type TestPortal,
} from './platform/testing/portal-harness.js';
import { waitFor } from './platform/testing/wait-for.js';
import { addDays, todayIn, weekStartOf } from './core/time/time.js';

/**
 * One case per stream kind of the registry (docs/decisions/0044-stream-registry.md): a command writes
 * to a stream of that kind, and every connected socket gets exactly what the room policy gives its
 * rooms: the expected summary (live, and again on a resume), or nothing at all.
 */
type Client = ClientSocket<ServerToClientEvents, ClientToServerEvents>;
const WHO = ['admin', 'tutor', 'outsider', 'student', 'partner', 'lead', 'sgAccess'] as const;
type Who = (typeof WHO)[number];

interface Case {
  kind: StreamKind;
  /** Runs the command; answers the stream it wrote to. */
  act: () => Promise<string>;
  /** What each socket that should hear it receives; every other socket receives nothing. */
  hears: () => Partial<Record<Who, unknown>>;
}

describe.each(portalModes)('live messages per stream kind, $name', (mode) => {
  let portal: TestPortal;
  const token = {} as Record<Who, string>;
  const id: Record<string, string> = {};
  const sockets = {} as Record<Who, Client>;
  const received = {} as Record<Who, LiveMessage[]>;
  const providers: WebsocketProvider[] = [];

  const ok = async (answer: Promise<Answer>) => (await portal.settle(await answer)).body;

  beforeAll(async () => {
    portal = await startTestPortal(mode, 'portal_live_streams');
    const { call, admin, createUser } = portal;
    token.admin = admin;
    // Network changes need the network permission besides being an administrator (spec §6).
    const me = (await call('GET', '/users/me', admin)).body.id as string;
    await ok(
      call('PUT', `/users/${me}/permissions`, admin, {
        permissions: ['USER_IS_ADMIN', 'CAN_MODIFY_NETWORK'],
      }),
    );
    id.oak = (await ok(call('POST', '/customers/', admin, { name: 'Oakfield Academy' }))).id as string;
    const users: [Who, Record<string, unknown>][] = [
      ['tutor', { user_type: 'teacher' }],
      ['outsider', { user_type: 'teacher' }],
      ['student', { user_type: 'student', customer_id: id.oak }],
      ['partner', { user_type: 'partner', customer_id: id.oak, customer_type: 'super-admin' }],
      ['lead', { user_type: 'teacher', permissions: ['CAN_LEAD_SAFEGUARDING'] }],
      ['sgAccess', { user_type: 'teacher', permissions: ['CAN_ACCESS_SAFEGUARDING'] }],
    ];
    for (const [who, extra] of users) {
      const email = `${who.toLowerCase()}@example.com`;
      id[who] = await createUser({ email, first_name: who, last_name: 'Test', ...extra });
      token[who] = await portal.tokenFor(email);
    }
    // Incident types are managed by an administrator with safeguarding access (no socket: not a listener).
    await createUser({
      email: 'types@example.com',
      first_name: 'Types',
      last_name: 'Test',
      user_type: 'super_admin',
      permissions: ['CAN_ACCESS_SAFEGUARDING'],
    });
    id.typesToken = await portal.tokenFor('types@example.com');
    for (const who of WHO) {
      received[who] = [];
      sockets[who] = await connect(token[who], received[who]);
    }
  }, 180_000);

  afterAll(async () => {
    for (const p of providers) p.destroy();
    for (const s of Object.values(sockets)) s.close();
    await portal?.close();
  });

  function connect(auth: string, into: LiveMessage[]): Promise<Client> {
    const socket: Client = connectClient(`${portal.base}${LIVE_NAMESPACE}`, {
      path: LIVE_PATH,
      auth: { token: auth },
      forceNew: true,
      reconnection: false,
      transports: ['websocket'],
    });
    socket.on('live', (m) => into.push(m));
    return new Promise((resolve, reject) => {
      socket.once('connect', () => resolve(socket));
      socket.once('connect_error', reject);
    });
  }

  const slot = { day_of_week: 1, start_minute: 540, end_minute: 600 };
  /** Every internal user (administrators and teachers) hears the same summary; partners and students do not. */
  const internal = (data: unknown) => ({
    admin: data,
    tutor: data,
    outsider: data,
    lead: data,
    sgAccess: data,
  });

  /** A programme of Oakfield with one group, written as the programmes area writes them. */
  async function oakProgramme(): Promise<{ programmeId: string; groupId: string }> {
    const store = portal.running.infra.eventStore;
    const programmeId = randomUUID();
    const groupId = randomUUID();
    const customerId = id.oak!;
    await store.append(
      programmeStream(programmeId),
      [
        {
          id: randomUUID(),
          type: 'ProgrammeCreated',
          data: {
            programmeId,
            networkId: null,
            customerId,
            productId: null,
            subjectId: null,
            yearGroupId: null,
            kind: 'lesson',
            title: 'Maths',
            startDate: '2026-01-05',
            endDate: null,
            timezone: 'Europe/London',
            sourceProgrammeId: null,
          },
        },
      ],
      { expectedRevision: 'no_stream' },
    );
    const { position } = await store.append(
      groupStream(groupId),
      [
        {
          id: randomUUID(),
          type: 'GroupCreated',
          data: {
            groupId,
            programmeId,
            customerId,
            teacherIds: [],
            name: 'A',
            teachers: [],
            sourceGroupId: null,
          },
        },
      ],
      { expectedRevision: 'no_stream' },
    );
    await portal.settle({ status: 200, body: { position: position.toString() } });
    return { programmeId, groupId };
  }

  const CASES: Case[] = [
    {
      kind: 'schedule',
      act: async () => {
        const { programmeId, groupId } = await oakProgramme();
        id.programme = programmeId;
        const monday = addDays(weekStartOf(todayIn('Europe/London')), 7);
        const created = await ok(
          portal.call('POST', `/programmes/${programmeId}/schedules`, portal.admin, {
            group_id: groupId,
            teacher_id: id.tutor,
            timezone: 'Europe/London',
            weekdays: [2],
            local_start: '10:00',
            duration_minutes: 60,
            valid_from: monday,
            valid_until: addDays(monday, 6),
          }),
        );
        id.schedule = created.id as string;
        return `schedule-${id.schedule}`;
      },
      // The schedule's teacher, the customer's room (its partners and students) and administrators.
      hears: () => ({
        admin: { scheduleId: id.schedule, programmeId: id.programme },
        tutor: { scheduleId: id.schedule },
        partner: { scheduleId: id.schedule },
        student: { scheduleId: id.schedule },
      }),
    },
    {
      kind: 'lesson',
      act: async () => {
        const lessons = await portal.call('GET', `/lessons/?programme_id=${id.programme}`, portal.admin);
        id.lesson = (lessons.body.items as { id: string }[])[0]!.id;
        await ok(
          portal.call('PUT', `/lessons/${id.lesson}/cancel`, portal.admin, {
            reason: 'Teacher ill',
            cancelled_by: 'provider',
            charge_customer: false,
            pay_teacher: false,
          }),
        );
        return `lesson-${id.lesson}`;
      },
      // The lesson's teacher (not another teacher), the customer's room and administrators.
      hears: () => ({
        admin: { lessonId: id.lesson },
        tutor: { lessonId: id.lesson },
        partner: { lessonId: id.lesson },
        student: { lessonId: id.lesson },
      }),
    },
    {
      kind: 'coverRequest',
      act: async () => {
        const cancelled = await portal.call('GET', `/lessons/${id.lesson}`, portal.admin);
        const monday = addDays(weekStartOf(todayIn('Europe/London')), 14);
        const planned = await ok(
          portal.call('POST', '/lessons/', portal.admin, {
            programme_id: id.programme,
            group_id: cancelled.body.group_id,
            teacher_id: id.tutor,
            timezone: 'Europe/London',
            local_date: monday,
            local_start: '10:00',
            duration_minutes: 60,
          }),
        );
        id.coverLesson = planned.id as string;
        id.coverMeeting = planned.meeting_id as string;
        id.coverRequest = (
          await ok(
            portal.call('POST', '/cover-requests/', token.tutor, {
              lesson_ids: [id.coverLesson],
              reason: 'Course',
              mode: 'broadcast',
            }),
          )
        ).id as string;
        return `coverRequest-${id.coverRequest}`;
      },
      // Administrators and the requester; a broadcast goes to `teachers:cover` (no socket here holds
      // CAN_ACCESS_COVER_REQUESTS, so no other teacher hears it).
      hears: () => ({
        admin: { coverRequestId: id.coverRequest },
        tutor: { coverRequestId: id.coverRequest },
      }),
    },
    {
      kind: 'plannedAbsence',
      act: async () => {
        id.plannedAbsence = (
          await ok(
            portal.call('POST', '/planned-absences/', portal.admin, {
              student_id: id.student,
              from: addDays(todayIn('Europe/London'), 1),
              to: addDays(todayIn('Europe/London'), 2),
              absence_reason: 'medical',
            }),
          )
        ).id as string;
        return `plannedAbsence-${id.plannedAbsence}`;
      },
      // Administrators and the student's customer room (its partners and students, decision 0056).
      hears: () => {
        const data = { plannedAbsenceId: id.plannedAbsence, studentId: id.student };
        return { admin: data, partner: data, student: data };
      },
    },
    {
      kind: 'meeting',
      act: async () => {
        const cancelled = await portal.call('GET', `/lessons/${id.lesson}`, portal.admin);
        const now = new Date();
        const hhmm = `${String(now.getUTCHours()).padStart(2, '0')}:${String(now.getUTCMinutes()).padStart(2, '0')}`;
        const current = await ok(
          portal.call('POST', '/lessons/', portal.admin, {
            programme_id: id.programme,
            group_id: cancelled.body.group_id,
            teacher_id: id.tutor,
            timezone: 'UTC',
            local_date: now.toISOString().slice(0, 10),
            local_start: hhmm,
            duration_minutes: 30,
          }),
        );
        id.nowLesson = current.id as string;
        id.nowMeeting = current.meeting_id as string;
        const joined = await portal.call('POST', `/meetings/${id.nowMeeting}/join`, token.tutor);
        expect(joined.status).toBe(200);
        return `meeting-${id.nowMeeting}`;
      },
      // A join is evidence for administrators only.
      hears: () => ({ admin: { meetingId: id.nowMeeting, lessonId: id.nowLesson } }),
    },
    {
      kind: 'user',
      act: async () => {
        await ok(portal.call('PUT', `/users/${id.tutor}`, portal.admin, { first_name: 'Tess' }));
        return `user-${id.tutor}`;
      },
      hears: () => ({ admin: { userId: id.tutor }, tutor: { userId: id.tutor } }),
    },
    {
      kind: 'userAvailability',
      act: async () => {
        await ok(portal.call('POST', '/users/me/availability', token.tutor, { availabilities: [slot] }));
        return `user-availability-${id.tutor}`;
      },
      hears: () => ({
        admin: { userId: id.tutor, type: 'default', week: null },
        tutor: { userId: id.tutor },
      }),
    },
    {
      kind: 'userCustomFields',
      act: async () => {
        await ok(
          portal.call('PUT', '/users/custom_fields', portal.admin, {
            items: [{ name: 'Dietary needs', type: 'text' }],
          }),
        );
        return 'user-custom-fields';
      },
      hears: () => ({ admin: { fieldCount: 1 } }),
    },
    {
      kind: 'ehcpReminders',
      act: async () => {
        await ok(portal.call('PUT', '/users/students/ehcp-reminder', portal.admin, [id.student]));
        return 'ehcp-reminders';
      },
      hears: () => ({ admin: { added: 1, removed: 0 } }),
    },
    {
      kind: 'customer',
      act: async () => {
        await ok(portal.call('PUT', `/customers/${id.oak}`, portal.admin, { name: 'Oakfield Trust' }));
        return `customer-${id.oak}`;
      },
      hears: () => ({
        admin: { customerId: id.oak },
        partner: { customerId: id.oak },
        student: { customerId: id.oak },
      }),
    },
    {
      kind: 'programme',
      act: async () => {
        id.programme = (
          await ok(
            portal.call('POST', '/programmes/', portal.admin, {
              title: 'Maths',
              customer_id: id.oak,
              start_date: '2026-09-07',
            }),
          )
        ).id as string;
        return `programme-${id.programme}`;
      },
      // The school's room holds its partners and students: ids only.
      hears: () => ({
        admin: { programmeId: id.programme },
        partner: { programmeId: id.programme },
        student: { programmeId: id.programme },
      }),
    },
    {
      kind: 'group',
      act: async () => {
        id.group = (
          await ok(
            portal.call('POST', '/groups/', portal.admin, {
              programme_id: id.programme,
              name: 'A',
              teachers: [{ teacher_id: id.tutor, role: 'lead' }],
            }),
          )
        ).id as string;
        return `group-${id.group}`;
      },
      hears: () => {
        const summary = { groupId: id.group, programmeId: id.programme };
        return { admin: summary, partner: summary, student: summary, tutor: summary };
      },
    },
    {
      kind: 'enrolment',
      act: async () => {
        id.enrolment = (
          await ok(
            portal.call('POST', '/enrolments/', portal.admin, {
              student_id: id.student,
              programme_id: id.programme,
            }),
          )
        ).id as string;
        return `enrolment-${id.enrolment}`;
      },
      // Only administrators see which student; the school's room and the teachers which enrolment.
      hears: () => {
        const summary = { enrolmentId: id.enrolment, programmeId: id.programme };
        return {
          admin: { ...summary, studentId: id.student },
          partner: summary,
          student: summary,
          tutor: summary,
        };
      },
    },
    {
      kind: 'customerInvitation',
      act: async () => {
        const sent = await ok(
          portal.call('POST', '/customer-invitations', portal.admin, {
            email: 'invited@oak.example.com',
            customer_id: id.oak,
            customer_type: 'link-contact',
          }),
        );
        id.invitation = sent.id as string;
        return `customer-invitation-${id.invitation}`;
      },
      hears: () => ({ admin: { invitationId: id.invitation, customerId: id.oak } }),
    },
    {
      kind: 'network',
      act: async () => {
        id.network = (
          await ok(portal.call('POST', '/networks/', portal.admin, { name: 'North', timezone: 'UTC' }))
        ).id as string;
        return `network-${id.network}`;
      },
      hears: () => ({ admin: { networkId: id.network } }),
    },
    {
      kind: 'permissionTemplate',
      act: async () => {
        id.template = (
          await ok(
            portal.call('POST', '/permission-templates/', portal.admin, { name: 'T', permissions: [] }),
          )
        ).id as string;
        return `permission-template-${id.template}`;
      },
      hears: () => ({ admin: { templateId: id.template } }),
    },
    {
      kind: 'onePageProfile',
      act: async () => {
        id.profile = (
          await ok(
            portal.call('POST', '/one-page-profiles/', portal.admin, { user_id: id.student, progress: 10 }),
          )
        ).id as string;
        return `one-page-profile-${id.student}`;
      },
      hears: () => ({
        admin: { profileId: id.profile, userId: id.student },
        student: { profileId: id.profile, userId: id.student },
      }),
    },
    {
      kind: 'incidentType',
      act: async () => {
        id.type = (
          await ok(portal.call('POST', '/safeguarding-incident-types/', id.typesToken, { name: 'Neglect' }))
        ).id as string;
        return `safeguarding-incident-type-${id.type}`;
      },
      hears: () => ({ sgAccess: { typeId: id.type }, lead: { typeId: id.type } }),
    },
    {
      kind: 'incident',
      act: async () => {
        id.incident = (
          await ok(
            portal.call('POST', '/safeguarding-incidents/', token.tutor, {
              student_ids: [id.student],
              type_ids: [id.type],
              occurred_at: new Date(Date.now() - 60_000).toISOString(),
              description: 'SECRET-DESCRIPTION',
              immediate_action: 'SECRET-ACTION',
              lead_told_verbally: true,
            }),
          )
        ).id as string;
        return `safeguarding-incident-${id.incident}`;
      },
      hears: () => {
        const summary = {
          incidentId: id.incident,
          status: 'reported',
          riskLevel: 'medium',
          occurredAt: expect.any(String),
          typeIds: [id.type],
          studentCount: 1,
        };
        return { sgAccess: summary, lead: summary };
      },
    },
    {
      kind: 'incidentViews',
      act: async () => {
        expect((await portal.call('GET', `/safeguarding-incidents/${id.incident}`, token.lead)).status).toBe(
          200,
        );
        return `safeguarding-incident-views-${id.incident}`;
      },
      hears: () => ({ lead: { incidentId: id.incident, viewerId: id.lead, via: expect.any(String) } }),
    },
    {
      kind: 'feedbackLinks',
      act: async () => {
        for (const [path, body] of [
          ['acknowledge', {}],
          ['review', {}],
          ['partner-informed', { method: 'phone', note: 'Told the DSL' }],
        ] as const)
          await ok(portal.call('POST', `/safeguarding-incidents/${id.incident}/${path}`, token.lead, body));
        const issued = await portal.call(
          'POST',
          `/safeguarding-incidents/${id.incident}/feedback-links`,
          token.lead,
          { email: 'partner@example.com' },
        );
        expect(issued.status).toBe(201);
        id.link = issued.body.id as string;
        return `safeguarding-feedback-links-${id.incident}`;
      },
      hears: () => ({ lead: { incidentId: id.incident, linkId: id.link } }),
    },
    // Teaching reference data and term calendars reach every internal user (decision 0049).
    {
      kind: 'subject',
      act: async () => {
        id.subject = (await ok(portal.call('POST', '/subjects/', portal.admin, { name: 'Maths' })))
          .id as string;
        return `subject-${id.subject}`;
      },
      hears: () => internal({ subjectId: id.subject }),
    },
    {
      kind: 'yearGroup',
      act: async () => {
        id.yearGroup = (
          await ok(portal.call('POST', '/year-groups/', portal.admin, { name: 'Year 7', key_stage: 'KS3' }))
        ).id as string;
        return `yearGroup-${id.yearGroup}`;
      },
      hears: () => internal({ yearGroupId: id.yearGroup }),
    },
    {
      kind: 'product',
      act: async () => {
        id.product = (
          await ok(
            portal.call('POST', '/products/', portal.admin, {
              name: '1:1 online tuition',
              delivery_mode: 'online-1to1',
              default_duration_minutes: 60,
              max_group_size: 1,
            }),
          )
        ).id as string;
        return `product-${id.product}`;
      },
      hears: () => internal({ productId: id.product }),
    },
    {
      kind: 'termCalendar',
      act: async () => {
        id.calendar = (
          await ok(
            portal.call('POST', '/term-calendars/', portal.admin, {
              network_id: id.network,
              terms: [{ name: 'Autumn', first_day: '2026-09-02', last_day: '2026-12-18' }],
              closures: [],
            }),
          )
        ).id as string;
        return `termCalendar-${id.calendar}`;
      },
      hears: () => internal({ calendarId: id.calendar }),
    },
    // Half-term reports (decision 0057): a timeframe reaches internal users; a report its writers,
    // the QA rooms (no socket here holds a QA permission) and administrators.
    {
      kind: 'reportTimeframe',
      act: async () => {
        id.timeframe = (
          await ok(
            portal.call('POST', '/report-submission-timeframes/', portal.admin, {
              name: 'Autumn 2',
              academic_year: '2026/27',
              half_term: 'autumn_2',
              period_from: '2026-11-02',
              period_to: '2026-12-18',
              opens_at: '2026-12-07',
              submit_by: '2026-12-11',
              qa_by: '2026-12-14',
              release_at: '2026-12-18',
            }),
          )
        ).id as string;
        return `reportTimeframe-${id.timeframe}`;
      },
      hears: () => internal({ timeframeId: id.timeframe }),
    },
    {
      kind: 'halfTermReport',
      act: async () => {
        id.report = randomUUID();
        const stream = `halfTermReport-${id.report}`;
        await portal.running.infra.eventStore.append(
          stream,
          [
            {
              id: randomUUID(),
              type: 'HalfTermReportCreated',
              data: {
                reportId: id.report,
                timeframeId: id.timeframe,
                customerId: id.oak,
                writerIds: [id.tutor],
                state: 'draft',
                studentId: id.student,
                programmeId: id.programme,
                lessonCounts: [],
              },
              metadata: { actorId: null },
            },
          ],
          { expectedRevision: 'no_stream' },
        );
        return stream;
      },
      hears: () => ({
        admin: { reportId: id.report, state: 'draft' },
        tutor: { reportId: id.report, state: 'draft' },
      }),
    },
    {
      kind: 'halfTermReportViews',
      act: async () => {
        const stream = `halfTermReportViews-${id.report}`;
        await portal.running.infra.eventStore.append(
          stream,
          [
            {
              id: randomUUID(),
              type: 'HalfTermReportViewedByPartner',
              data: {
                reportId: id.report,
                customerId: id.oak,
                viewerId: id.partner,
                revision: 1,
                via: 'view',
              },
              metadata: { actorId: null },
            },
          ],
          { expectedRevision: 'no_stream' },
        );
        return stream;
      },
      // A read receipt is for administrators.
      hears: () => ({ admin: { reportId: id.report, viewerId: id.partner, via: 'view' } }),
    },
    // A suggestion made on a report's text (decision 0060): administrators, the QA rooms and the
    // people involved (here the writer, in its audience) hear it; other people do not.
    {
      kind: 'halfTermReportText',
      act: async () => {
        const stream = `halfTermReportText-${id.report}`;
        const reviewer = randomUUID();
        await portal.running.infra.eventStore.append(
          stream,
          [
            {
              id: randomUUID(),
              type: 'HalfTermReportSuggestionMade',
              data: {
                reportId: id.report,
                suggestionId: `u${reviewer}.1.1`,
                authorId: reviewer,
                inserted: 'often ',
                deleted: '',
                open: 1,
                audience: [id.tutor],
              },
              metadata: { actorId: reviewer },
            },
          ],
          { expectedRevision: 'no_stream' },
        );
        return stream;
      },
      hears: () => ({
        admin: { reportId: id.report, type: 'HalfTermReportSuggestionMade' },
        tutor: { reportId: id.report, type: 'HalfTermReportSuggestionMade' },
      }),
    },
    // A person's notification read cursor reaches only themselves (their other tabs; issue 18).
    {
      kind: 'notifications',
      act: async () => {
        await ok(portal.call('PUT', '/notifications/read', token.tutor, { up_to_position: '5' }));
        return `notifications-${id.tutor}`;
      },
      hears: () => ({ tutor: { upToPosition: '5' } }),
    },
    {
      kind: 'collabDocument',
      act: async () => {
        const p = editor(portal.running, `safeguarding-incident:${id.incident}`, token.lead);
        providers.push(p);
        await synced(p);
        p.doc.getText('body').insert(0, 'SECRET-WRITE-UP');
        const stream = `collab-safeguarding-incident-${id.incident}`;
        await waitFor('the write-up is stored', async () =>
          (await portal.running.infra.eventStore.readStream(stream)).some(
            (e) => e.type === 'DocumentUpdated',
          ),
        );
        return stream;
      },
      hears: () => ({}),
    },
  ];

  it('covers every stream kind of the registry', () => {
    expect(CASES.map((c) => c.kind).sort()).toEqual((Object.keys(STREAMS) as StreamKind[]).sort());
  });

  it.each(CASES.map((c) => [c.kind, c] as const))('%s', async (kind, c) => {
    const stream = await c.act();
    expect(parseStream(stream)?.kind).toBe(kind);
    const events = await portal.running.infra.eventStore.readStream(stream);
    const event = events[events.length - 1]!;
    const reached = await portal.running.app.get(ProjectionRunner).waitForPosition(event.position, 10_000);
    expect(reached).toBe(true);
    const position = event.position.toString();
    const expected = c.hears();
    const at = (who: Who) => received[who].filter((m) => m.position === position);
    for (const who of Object.keys(expected) as Who[])
      await waitFor(`${who} hears ${event.type} on ${stream}`, () => at(who).length > 0);
    // A resume from just before the event: its ack comes after everything sent earlier on the socket
    // (so a live message that should not come would be here by now), and the replay answers through
    // the same policy (so each socket that hears it gets it a second time, with the same view).
    const before = (event.position - 1n).toString();
    for (const who of WHO) {
      const result: unknown = await sockets[who].timeout(10_000).emitWithAck('resume', before);
      expect(result).not.toHaveProperty('error');
    }
    for (const who of WHO) {
      const got = at(who);
      expect({ who, types: got.map((m) => m.type), streams: got.map((m) => m.stream) }).toEqual({
        who,
        types: who in expected ? [event.type, event.type] : [],
        streams: who in expected ? [stream, stream] : [],
      });
      for (const m of got) expect({ who, data: m.data }).toEqual({ who, data: expected[who] });
    }
  });
});
