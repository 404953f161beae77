import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import * as decoding from 'lib0/decoding';
import * as Y from 'yjs';
import { enrolmentStream, type EnrolmentEvent } from '@portal/projections';
import { writeProgramme } from '../platform/testing/teaching-fixtures.js';
import { portalModes, startTestPortal, type TestPortal } from '../platform/testing/portal-harness.js';
import { addDays, todayIn, weekStartOf } from '../core/time/time.js';
import { DOCUMENT_UPDATED, documentStream } from '../platform/collaboration/collab.protocol.js';
import { toBase64 } from '../platform/collaboration/document-persistence.js';
import { documentFrom } from './report-documents.js';
import { pdfText } from '../safeguarding/testing-pdf-text.js';
import { CloseCode } from '../platform/collaboration/collab.protocol.js';
import { CollaborationServer } from '../platform/collaboration/collaboration.server.js';
import { waitFor } from '../platform/testing/wait-for.js';
import { MailOutbox } from '../platform/mail/mail-outbox.js';
import { HalfTermDeadlinesJob } from './deadlines.job.js';
import { closes, editor, synced, upgradeStatus } from '../platform/collaboration/testing/collab-test-kit.js';

const TZ = 'Europe/London';
type Json = Record<string, unknown>;

describe.each(portalModes)('half-term reports API, $name', (mode) => {
  let portal: TestPortal;
  const ids: Record<string, string> = {};
  const tokens: Record<string, string> = {};
  const today = todayIn(TZ);
  const monday = addDays(weekStartOf(today), 7);
  let reportId = '';

  const call = (method: string, path: string, who: string, body?: unknown) =>
    portal.call(method, path, tokens[who], body);
  const ok = async (method: string, path: string, who: string, body?: unknown) => {
    const answer = await call(method, path, who, body);
    if (answer.status >= 300)
      throw new Error(`${method} ${path} as ${who}: ${answer.status} ${JSON.stringify(answer.body)}`);
    return typeof answer.body.position === 'string' ? (await portal.settle(answer)).body : answer.body;
  };

  /** Types into the report as an editor would: appends a Yjs update to the document's stream. */
  async function type(text: string): Promise<void> {
    const store = portal.running.infra.eventStore;
    const stream = documentStream('half-term-report', reportId);
    const events = await store.readStream(stream);
    const doc = documentFrom(events);
    const before = Y.encodeStateVector(doc);
    const paragraph = doc
      .getXmlFragment('default')
      .toArray()
      .filter((n): n is Y.XmlElement => n instanceof Y.XmlElement && n.nodeName === 'paragraph')
      .at(-1)!;
    paragraph.insert(paragraph.length, [new Y.XmlText(text)]);
    const update = Y.encodeStateAsUpdate(doc, before);
    await store.append(
      stream,
      [
        {
          id: randomUUID(),
          type: DOCUMENT_UPDATED,
          data: { update: toBase64(update), updates: 1 },
          metadata: {},
        },
      ],
      { expectedRevision: events[events.length - 1]!.revision },
    );
  }

  const report = (who: string) => ok('GET', `/half-term-reports/${reportId}`, who) as Promise<Json>;

  beforeAll(async () => {
    portal = await startTestPortal(mode, 'portal_reports');
    const { call: c, admin, settle, createUser } = portal;
    tokens.admin = admin;
    ids.oak = (await settle(await c('POST', '/customers/', admin, { name: 'Oakfield Academy' }))).body
      .id as string;
    ids.elm = (await settle(await c('POST', '/customers/', admin, { name: 'Elm Tree School' }))).body
      .id as string;
    const people: [string, Json][] = [
      ['tess', { user_type: 'teacher' }],
      ['theo', { user_type: 'teacher', permissions: ['CAN_QA_REVIEW'] }],
      ['quinn', { user_type: 'teacher', permissions: ['CAN_QA_REVIEW'] }],
      ['lena', { user_type: 'teacher', permissions: ['CAN_QA_LEAD_REVIEW', 'CAN_QA_LEAD_REVOKE'] }],
      ['mona', { user_type: 'teacher', permissions: ['CAN_MANAGE_HALF_TERM_ASSIGNMENTS'] }],
      ['ann', { user_type: 'student', customer_id: ids.oak }],
      [
        'head',
        {
          user_type: 'partner',
          customer_id: ids.oak,
          customer_type: 'super-admin',
          permissions: [
            'USER_IS_PARTNER',
            'PARTNER_CAN_SEE_ALL_STUDENTS_DETAILS',
            'PARTNER_CAN_SEE_ASSESSMENTS',
          ],
        },
      ],
      [
        'link',
        {
          user_type: 'partner',
          customer_id: ids.oak,
          customer_type: 'link-contact',
          permissions: ['USER_IS_PARTNER', 'PARTNER_CAN_SEE_ASSESSMENTS'],
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
            'PARTNER_CAN_SEE_ASSESSMENTS',
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
      if (body.user_type === 'partner')
        await settle(await c('PUT', `/users/${ids[who]}/permissions`, admin, { permissions }));
      tokens[who] = await portal.tokenFor(email);
    }

    // A programme of Oakfield with one group (Ann; Mona teaches it) and Ann's enrolment, as the
    // programmes area writes them.
    const from = addDays(today, -30);
    const { programmeId, groupIds } = await writeProgramme(portal, {
      customerId: ids.oak,
      from,
      timezone: TZ,
      title: 'English recovery',
      groups: [{ name: 'Group A', students: [ids.ann!], lead: ids.mona! }],
    });
    const groupId = groupIds[0]!;
    const enrolmentId = randomUUID();
    const enrolment: EnrolmentEvent[] = [
      {
        type: 'StudentEnrolled',
        data: {
          enrolmentId,
          studentId: ids.ann!,
          programmeId,
          customerId: ids.oak,
          startDate: from,
          endDate: null,
          placementType: 'MAIN',
          setting: 'HOME',
          reasonForPlacement: 'NOT_SET',
          status: 'active',
        },
      },
    ];
    const enrolled = await portal.running.infra.eventStore.append(
      enrolmentStream(enrolmentId),
      enrolment.map((e) => ({ id: randomUUID(), ...e })),
      { expectedRevision: 'no_stream' },
    );
    await settle({ status: 200, body: { position: enrolled.position.toString() } });
    ids.programme = programmeId;
    ids.group = groupId;
    // Tess teaches two lessons in the period, Theo one: Tess writes, Theo co-writes.
    for (const [teacher, day] of [
      ['tess', 0],
      ['tess', 1],
      ['theo', 2],
    ] as const)
      await ok('POST', '/lessons/', 'admin', {
        programme_id: programmeId,
        group_id: groupId,
        teacher_id: ids[teacher],
        timezone: TZ,
        local_date: addDays(monday, day),
        local_start: '10:00',
        duration_minutes: 60,
      });
  }, 240_000);

  afterAll(async () => {
    await portal?.close();
  });

  const timeframe = {
    name: 'Autumn 2',
    academic_year: '2026/27',
    half_term: 'autumn_2',
    period_from: addDays(today, -7),
    period_to: addDays(today, 30),
    opens_at: addDays(today, -1),
    submit_by: addDays(today, 10),
    qa_by: addDays(today, 11),
    release_at: addDays(today, 12),
  };

  it('refuses dates out of order with 422 naming the field; only administrators set timeframes up', async () => {
    const bad = await call('POST', '/report-submission-timeframes/', 'admin', {
      ...timeframe,
      submit_by: addDays(today, -2),
    });
    expect(bad.status).toBe(422);
    expect(bad.body.detail).toMatch(/^submit_by:/);
    const missing = await call('POST', '/report-submission-timeframes/', 'admin', {
      ...timeframe,
      qa_by: 'soon',
    });
    expect(missing.status).toBe(422);
    expect(JSON.stringify(missing.body)).toContain('qa_by');
    expect((await call('POST', '/report-submission-timeframes/', 'tess', timeframe)).status).toBe(403);
    expect((await call('GET', '/report-submission-timeframes/', 'head')).status).toBe(403);
  });

  it('generates one report per student × programme, idempotently, with the most-teaching teacher as writer', async () => {
    ids.timeframe = (await ok('POST', '/report-submission-timeframes/', 'admin', timeframe)).id as string;
    const first = await ok('POST', `/report-submission-timeframes/${ids.timeframe}/generate`, 'admin');
    expect(first).toMatchObject({ created: 1, existing: 0 });
    const again = await ok('POST', `/report-submission-timeframes/${ids.timeframe}/generate`, 'admin');
    expect(again).toMatchObject({ created: 0, existing: 1 });
    const mine = (await ok('GET', '/half-term-reports/mine', 'tess')) as { items: Json[] };
    expect(mine.items).toHaveLength(1);
    reportId = mine.items[0]!.id as string;
    expect(mine.items[0]).toMatchObject({
      timeframe_id: ids.timeframe,
      student_id: ids.ann,
      programme_id: ids.programme,
      writer_ids: [ids.tess, ids.theo],
      state: 'draft',
      revision: 1,
    });
    const details = (await ok(
      'GET',
      `/report-submission-timeframes/${ids.timeframe}/details`,
      'admin',
    )) as Json;
    expect(details.counts).toEqual({ draft: 1 });
    expect(details.teachers).toEqual([
      expect.objectContaining({ id: ids.tess, total: 1, with_writers: 1, overdue: 0 }),
    ]);
  });

  it('extends one report’s deadline (administrators, QA leads), reminds its writers at the offsets once, records a missed deadline once', async () => {
    const path = `/half-term-reports/${reportId}/extend-deadline`;
    const extended = addDays(today, 14);
    expect((await call('POST', path, 'tess', { submit_by: extended, reason: 'Ill' })).status).toBe(403);
    const early = await call('POST', path, 'lena', { submit_by: timeframe.submit_by, reason: 'Ill' });
    expect(early.status).toBe(422);
    expect(early.body.detail).toMatch(/^submit_by:/);
    expect((await call('POST', path, 'lena', { submit_by: extended })).status).toBe(422);
    await ok('POST', path, 'lena', { submit_by: extended, reason: 'Tess was ill for a week' });
    expect(await report('admin')).toMatchObject({
      submit_by: extended,
      timeframe_submit_by: timeframe.submit_by,
      extended_submit_by: extended,
      deadline_missed_at: null,
    });
    const listed = (await ok('GET', `/half-term-reports/?timeframe_id=${ids.timeframe}`, 'admin')) as {
      items: Json[];
    };
    expect(listed.items[0]).toMatchObject({ id: reportId, submit_by: extended, overdue: false });

    const job = portal.running.app.get(HalfTermDeadlinesJob);
    const outbox = portal.running.app.get(MailOutbox);
    const mails = async () =>
      (await outbox.list(1000)).filter((m) =>
        ['tess@example.com', 'theo@example.com'].includes(m.to_address),
      );
    const at = (days: number) => new Date(`${addDays(today, days)}T12:00:00Z`);
    // Before the first offset (a week before the extended submit-by): nothing.
    expect(await job.runOnce(at(5))).toEqual({ missed: 0, reminders: 0 });
    // A week before: both writers, once, however often the job runs.
    expect(await job.runOnce(at(7))).toEqual({ missed: 0, reminders: 2 });
    expect(await job.runOnce(at(8))).toEqual({ missed: 0, reminders: 0 });
    expect((await mails()).map((m) => m.subject)).toEqual([
      'Half-term reports due in 7 days',
      'Half-term reports due in 7 days',
    ]);
    expect((await mails())[0]!.body_text).toContain(`submit by ${extended}`);
    // The day before: the second reminder. The timeframe's own submit-by has passed, not this report's.
    expect(await job.runOnce(at(13))).toEqual({ missed: 0, reminders: 2 });
    expect((await mails())[0]!.subject).toBe('Half-term reports due tomorrow');
    // After the extension: missed, once.
    expect(await job.runOnce(at(15))).toEqual({ missed: 1, reminders: 0 });
    expect(await job.runOnce(at(16))).toEqual({ missed: 0, reminders: 0 });
    await portal.settle({
      status: 200,
      body: { position: (await portal.running.infra.eventStore.headPosition()).toString() },
    });
    const missed = await report('admin');
    expect(missed.deadline_missed_at).toEqual(expect.any(String));
    const metrics = (await ok(
      'GET',
      `/report-submission-timeframes/${ids.timeframe}/qa-metrics`,
      'admin',
    )) as {
      writers: Json[];
    };
    expect(metrics.writers).toEqual([expect.objectContaining({ writer_id: ids.tess, deadlines_missed: 1 })]);
    expect((await mails()).length).toBe(4);
  });

  it('refreshes the draft’s facts from the registers (writers only), into the live text', async () => {
    // Two past lessons in the period, their registers taken: Ann present once, absent once.
    for (const [day, mark] of [
      [-3, 'present'],
      [-2, 'absent'],
    ] as const) {
      const lesson = (await ok('POST', '/lessons/', 'admin', {
        programme_id: ids.programme,
        group_id: ids.group,
        teacher_id: ids.tess,
        timezone: TZ,
        local_date: addDays(today, day),
        local_start: '08:00',
        duration_minutes: 60,
      })) as Json;
      await ok('PUT', `/lessons/${lesson.id as string}/register`, 'admin', {
        client_key: randomUUID(),
        entries: [{ student_id: ids.ann, mark, ...(mark === 'absent' ? { absence_reason: 'illness' } : {}) }],
      });
    }
    const path = `/half-term-reports/${reportId}/refresh-facts`;
    // Reviewers who may read the draft may not refresh it: only its writers (or an administrator).
    expect((await call('POST', path, 'quinn')).status).toBe(403);
    expect((await call('POST', path, 'lena')).status).toBe(403);
    expect((await call('POST', path, 'head')).status).toBe(403);
    const refreshed = (await ok('POST', path, 'tess')) as { changed: boolean; facts: Json[] };
    expect(refreshed.changed).toBe(true);
    expect(refreshed.facts[0]).toMatchObject({
      kind: 'attendance',
      period: `${timeframe.period_from}/${timeframe.period_to}`,
      text: 'Attendance: 50% (1 of 2 sessions attended, 1 absence).',
    });
    expect(refreshed.facts[1]).toMatchObject({ kind: 'lessons' });
    // In the document itself (so the hash covers it), and unchanged facts change nothing.
    const store = portal.running.infra.eventStore;
    const doc = documentFrom(await store.readStream(documentStream('half-term-report', reportId)));
    const blocks = doc
      .getXmlFragment('default')
      .toArray()
      .filter((n): n is Y.XmlElement => n instanceof Y.XmlElement && n.nodeName === 'factBlock');
    expect(blocks.map((b) => b.getAttribute('kind'))).toEqual(['attendance', 'lessons']);
    expect((blocks[0]!.getAttribute('values') as unknown as Json).percent).toBe(50);
    const hash = (await report('tess')).content_hash;
    expect(((await ok('POST', path, 'tess')) as Json).changed).toBe(false);
    expect((await report('tess')).content_hash).toBe(hash);
    const timeline = (await ok('GET', `/half-term-reports/${reportId}/timeline`, 'tess')) as {
      items: Json[];
    };
    expect(timeline.items.filter((i) => i.type === 'HalfTermReportFactsRefreshed')).toHaveLength(1);
  });

  it('lets the writer edit a draft and others only view; refuses a stale hash and an empty report', async () => {
    // The reminder summary: Tess (writer) and Theo (co-writer) each have one draft due; Quinn none.
    const due = (await ok('GET', '/half-term-reports/mine/due-summary', 'tess')) as { timeframes: Json[] };
    expect(due.timeframes).toEqual([
      expect.objectContaining({ id: ids.timeframe, draft: 1, returned: 0, overdue: false }),
    ]);
    expect(
      ((await ok('GET', '/half-term-reports/mine/due-summary', 'quinn')) as { timeframes: Json[] })
        .timeframes,
    ).toEqual([]);
    const draft = await report('tess');
    expect(draft.allowed_mode).toBe('edit');
    expect(draft.actions).toEqual(['submit', 'refresh-facts']);
    expect((await report('quinn')).allowed_mode).toBe('view');
    const empty = await call('POST', `/half-term-reports/${reportId}/submit`, 'tess', {
      expected_hash: draft.content_hash,
    });
    expect(empty.status).toBe(422);
    expect(empty.body.detail).toMatch(/^content:/);
    await type('Ann attended every lesson.');
    const stale = await call('POST', `/half-term-reports/${reportId}/submit`, 'tess', {
      expected_hash: draft.content_hash,
    });
    expect(stale.status).toBe(409);
    expect(stale.body.code).toBe('hash_mismatch');
    const bad = await call('POST', `/half-term-reports/${reportId}/submit`, 'tess', { expected_hash: 'abc' });
    expect(bad.status).toBe(422);
    expect(bad.body.detail).toContain('expected_hash');
    const now = await report('tess');
    expect(now.content_hash).not.toBe(draft.content_hash);
    expect(now.sections).toContainEqual({
      title: 'Teacher comment',
      characters: 'Ann attended every lesson.'.length,
    });
    expect(now.name_conflicts).toEqual([]);
    await ok('POST', `/half-term-reports/${reportId}/submit`, 'tess', { expected_hash: now.content_hash });
    expect(await report('tess')).toMatchObject({
      state: 'submitted',
      allowed_mode: 'view',
      signed_hash: now.content_hash,
    });
    // Frozen from here: the submitted snapshot holds the facts.
    const frozen = await call('POST', `/half-term-reports/${reportId}/refresh-facts`, 'tess');
    expect(frozen.status).toBe(409);
    expect(frozen.body.code).toBe('state_submitted');
  });

  it('runs the two-stage review: no self-review, 409 naming the state, claimer edits', async () => {
    expect((await call('POST', `/half-term-reports/${reportId}/qa/claim`, 'tess')).status).toBe(403);
    const own = await call('POST', `/half-term-reports/${reportId}/qa/claim`, 'theo');
    expect(own.status).toBe(403);
    expect(own.body.code).toBe('own_report');
    const early = await call('POST', `/half-term-reports/${reportId}/lead/claim`, 'lena');
    expect(early.status).toBe(409);
    expect(early.body.detail).toContain('submitted');
    const queue = (await ok('GET', '/half-term-reports/qa?claimed=unclaimed', 'quinn')) as { items: Json[] };
    expect(queue.items.map((i) => i.id)).toEqual([reportId]);
    await ok('POST', `/half-term-reports/${reportId}/qa/claim`, 'quinn');
    expect((await report('quinn')).allowed_mode).toBe('edit');
    expect((await report('tess')).allowed_mode).toBe('suggest');
    expect((await report('mona')).allowed_mode).toBe('view');
    const hash = (await report('quinn')).content_hash;
    await ok('POST', `/half-term-reports/${reportId}/qa/approve`, 'quinn', { expected_hash: hash });
    const leadQueue = (await ok('GET', '/half-term-reports/qa-lead', 'lena')) as { items: Json[] };
    expect(leadQueue.items.map((i) => i.id)).toEqual([reportId]);
    await ok('POST', `/half-term-reports/${reportId}/lead/claim`, 'lena');
    const before = (await report('lena')).content_hash;
    await type(' She reads fluently now.');
    const moved = await call('POST', `/half-term-reports/${reportId}/lead/publish`, 'lena', {
      expected_hash: before,
    });
    expect(moved.status).toBe(409);
    const after = (await report('lena')).content_hash;
    await ok('POST', `/half-term-reports/${reportId}/lead/publish`, 'lena', { expected_hash: after });
    expect(await report('lena')).toMatchObject({
      state: 'published',
      published_revision: 1,
      allowed_mode: 'view',
    });
    const edit = await call('POST', `/half-term-reports/${reportId}/submit`, 'tess', {
      expected_hash: after,
    });
    expect(edit.status).toBe(409);
    expect(edit.body.detail).toContain('published');
  });

  it('verifies every sign-off from the frozen text and from the document stream', async () => {
    const verify = (await ok('GET', `/half-term-reports/${reportId}/verify`, 'admin')) as {
      valid: boolean;
      items: Json[];
    };
    expect(verify.valid).toBe(true);
    expect(verify.items.map((i) => i.step)).toEqual(['Submitted', 'QaApproved', 'Published']);
    // The QA approval signed the same text as the submission; the lead's edit changed the hash.
    expect(verify.items[0]!.recorded_hash).toBe(verify.items[1]!.recorded_hash);
    expect(verify.items[2]!.recorded_hash).not.toBe(verify.items[1]!.recorded_hash);
    const revisions = (await ok('GET', `/half-term-reports/${reportId}/revisions`, 'admin')) as {
      items: Json[];
    };
    expect(revisions.items).toHaveLength(1);
    expect(JSON.stringify(revisions.items[0]!.content)).toContain('She reads fluently now.');
    expect(JSON.stringify(revisions.items[0]!.content)).toContain('"percent":50');
  });

  it('shows partners only their school’s published reports from the release date (404 otherwise)', async () => {
    expect(((await ok('GET', '/half-term-reports/partner', 'head')) as { total: number }).total).toBe(0);
    expect((await call('GET', `/half-term-reports/${reportId}`, 'head')).status).toBe(404);
    // Move the timeframe so that the release date has passed.
    await ok('PUT', `/report-submission-timeframes/${ids.timeframe}`, 'admin', {
      opens_at: addDays(today, -10),
      submit_by: addDays(today, -4),
      qa_by: addDays(today, -3),
      release_at: addDays(today, -1),
    });
    const list = (await ok('GET', '/half-term-reports/partner', 'head')) as { items: Json[] };
    expect(list.items.map((i) => i.id)).toEqual([reportId]);
    const seen = (await ok('GET', `/half-term-reports/${reportId}`, 'head')) as Json;
    expect(JSON.stringify(seen.published_content)).toContain('Ann attended every lesson.');
    expect(seen.allowed_mode).toBeNull();
    expect((await call('GET', `/half-term-reports/${reportId}`, 'elmHead')).status).toBe(404);
    // The published revision as a PDF: the frozen text, its hash in the footer.
    const pdf = await fetch(`${portal.running.url}/api/v1/half-term-reports/${reportId}/pdf`, {
      headers: { RequestVerificationToken: tokens.head! },
    });
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    const hash = pdf.headers.get('x-content-hash')!;
    const text = pdfText(Buffer.from(await pdf.arrayBuffer()));
    expect(text).toContain('Ann attended every lesson.');
    expect(text).toContain('Attendance: 50% (1 of 2 sessions attended, 1 absence).');
    expect(text).toContain(`SHA-256 of the signed text: ${hash}`);
    expect((await call('GET', `/half-term-reports/${reportId}/pdf`, 'elmHead')).status).toBe(404);
    // Each open and download is the provider's read receipt.
    let receipts = { items: [] as Json[] };
    await waitFor('both receipts are in the read model', async () => {
      receipts = (await ok('GET', `/half-term-reports/${reportId}/views`, 'tess')) as { items: Json[] };
      return receipts.items.length >= 2;
    });
    expect(receipts.items.map((v) => [v.viewer_id, v.via, v.revision]).sort()).toEqual(
      [
        [ids.head, 'pdf', 1],
        [ids.head, 'view', 1],
      ].sort(),
    );
    expect((await call('GET', `/half-term-reports/${reportId}/views`, 'head')).status).toBe(403);
    expect((await call('GET', `/half-term-reports/${reportId}/pdf?revision=2`, 'head')).status).toBe(404);
    expect((await call('GET', `/half-term-reports/${reportId}`, 'link')).status).toBe(404);
    expect((await call('GET', `/half-term-reports/${reportId}/timeline`, 'head')).status).toBe(404);
    expect((await call('GET', '/half-term-reports/partner', 'tess')).status).toBe(403);
    expect((await call('GET', `/half-term-reports/${reportId}`, 'ann')).status).toBe(404);
  });

  it('revoking a publication opens revision 2 and hides it from partners', async () => {
    const refused = await call('POST', `/half-term-reports/${reportId}/lead/revoke-publication`, 'quinn', {
      reason: 'Typo',
    });
    expect(refused.status).toBe(403);
    await ok('POST', `/half-term-reports/${reportId}/lead/revoke-publication`, 'lena', {
      reason: 'Wrong target',
    });
    expect(await report('lena')).toMatchObject({
      state: 'in_lead_review',
      revision: 2,
      allowed_mode: 'edit',
    });
    expect((await call('GET', `/half-term-reports/${reportId}`, 'head')).status).toBe(404);
    const timeline = (await ok('GET', `/half-term-reports/${reportId}/timeline`, 'tess')) as {
      items: Json[];
    };
    expect(timeline.items.map((i) => i.type)).toEqual([
      'HalfTermReportCreated',
      'HalfTermReportDeadlineExtended',
      'HalfTermReportDeadlineMissed',
      'HalfTermReportFactsRefreshed',
      'HalfTermReportSubmitted',
      'HalfTermReportQaReviewClaimed',
      'HalfTermReportQaApproved',
      'HalfTermReportLeadReviewClaimed',
      'HalfTermReportPublished',
      'HalfTermReportPublicationRevoked',
    ]);
  });

  it('assignments: scoped to the manager’s programmes, all-assignments admin-only, bad assignee 422', async () => {
    const scoped = (await ok('GET', '/half-term-reports/assignments', 'mona')) as { items: Json[] };
    expect(scoped.items.map((i) => i.id)).toEqual([reportId]);
    expect((await call('GET', '/half-term-reports/assignments?all=true', 'mona')).status).toBe(403);
    expect((await call('GET', '/half-term-reports/assignments', 'tess')).status).toBe(403);
    const wrong = await call('PUT', '/half-term-reports/assignments', 'mona', {
      items: [{ report_id: reportId, qa_reviewer_id: ids.tess }],
    });
    expect(wrong.status).toBe(422);
    expect(wrong.body.detail).toMatch(/^items\[0\]\.qa_reviewer_id:/);
    const done = await ok('PUT', '/half-term-reports/assignments', 'mona', {
      items: [{ report_id: reportId, qa_reviewer_id: ids.quinn }],
    });
    expect(done).toMatchObject({ updated: 1 });
    // A field left out is unchanged.
    expect(await report('admin')).toMatchObject({
      writer_ids: [ids.tess, ids.theo],
      qa_reviewer_id: ids.quinn,
      lead_reviewer_id: null,
    });
  });

  it('lists with filters for readers of all reports; discard needs its permission', async () => {
    const listed = (await ok(
      'GET',
      `/half-term-reports/?state=in_lead_review&teacher_id=${ids.tess}`,
      'admin',
    )) as {
      total: number;
    };
    expect(listed.total).toBe(1);
    const none = (await ok('GET', '/half-term-reports/?state=draft', 'admin')) as { total: number };
    expect(none.total).toBe(0);
    expect((await call('GET', '/half-term-reports/', 'tess')).status).toBe(403);
    expect(
      (await call('POST', `/half-term-reports/${reportId}/discard`, 'lena', { reason: 'Left' })).status,
    ).toBe(403);
    // Discard is a named permission any user may hold; a partner holding it still sees only what they see.
    await ok('PUT', `/users/${ids.elmHead}/permissions`, 'admin', {
      permissions: ['USER_IS_PARTNER', 'PARTNER_CAN_SEE_ASSESSMENTS', 'CAN_DISCARD_HALF_TERM_REPORTS'],
    });
    expect(
      (await call('POST', `/half-term-reports/${reportId}/discard`, 'elmHead', { reason: 'x' })).status,
    ).toBe(404);
    await ok('POST', `/half-term-reports/${reportId}/discard`, 'admin', { reason: 'Student left' });
    await ok('POST', `/half-term-reports/${reportId}/restore`, 'admin');
    expect((await report('admin')).state).toBe('qa_approved');
  });

  it('the live text: the lead edits in review, publishing turns the open editor read-only at once', async () => {
    await ok('POST', `/half-term-reports/${reportId}/lead/claim`, 'lena');
    const name = `half-term-report:${reportId}`;
    const lead = editor(portal.running, name, tokens.lena!);
    try {
      const closed = closes(lead);
      await synced(lead);
      const paragraph = lead.doc
        .getXmlFragment('default')
        .toArray()
        .filter((n): n is Y.XmlElement => n instanceof Y.XmlElement && n.nodeName === 'paragraph')
        .at(-1)!;
      paragraph.insert(paragraph.length, [new Y.XmlText(' Signed by the lead.')]);
      const server = portal.running.app.get(CollaborationServer);
      await waitFor('the server has the edit', () => {
        const loaded = server.loadedDocument(name);
        return (
          !!loaded &&
          JSON.stringify(loaded.doc.getXmlFragment('default').toJSON()).includes('Signed by the lead.')
        );
      });
      // The live board: the lead is in the report, editing, since the connection opened; readers of
      // every report see it, users who may not list reports are refused.
      const board = (await ok('GET', '/half-term-reports/presence', 'theo')) as { items: Json[] };
      expect(board.items).toEqual([
        expect.objectContaining({
          report_id: reportId,
          report: expect.objectContaining({
            id: reportId,
            state: 'in_lead_review',
            lead_claimed_by_name: 'lena Test',
          }),
          editors: [
            expect.objectContaining({
              user_id: ids.lena,
              name: 'lena Test',
              mode: 'edit',
              since: expect.any(String),
            }),
          ],
        }),
      ]);
      expect((await call('GET', '/half-term-reports/presence', 'tess')).status).toBe(403);
      // The lead edited directly (not as a suggestion) while reviewing: logged once, in the timeline.
      await waitFor('the direct edit is in the timeline', async () => {
        const timeline = (await ok('GET', `/half-term-reports/${reportId}/timeline`, 'lena')) as {
          items: Json[];
        };
        return timeline.items.some(
          (t) =>
            t.type === 'HalfTermReportDirectEditDuringReview' &&
            t.by === ids.lena &&
            t.by_name === 'lena Test' &&
            t.state === 'in_lead_review' &&
            String(t.reason).includes('Signed by the lead.'),
        );
      });
      paragraph.insert(paragraph.length, [new Y.XmlText(' Twice.')]);
      await waitFor('the server has the second edit', () =>
        JSON.stringify(server.loadedDocument(name)!.doc.getXmlFragment('default').toJSON()).includes(
          'Twice.',
        ),
      );
      const logged = (
        await portal.running.infra.eventStore.readStream(`halfTermReportText-${reportId}`)
      ).filter((e) => e.type === 'HalfTermReportDirectEditDuringReview');
      expect(logged).toHaveLength(1);
      // The hash the server reports is the text the lead sees (same canonical form on both sides).
      const { reportHashOf } = await import('@portal/projections');
      const seen = await reportHashOf(reportId, lead.doc);
      expect((await report('lena')).content_hash).toBe(seen.hash);
      const started = Date.now();
      await ok('POST', `/half-term-reports/${reportId}/lead/publish`, 'lena', { expected_hash: seen.hash });
      await waitFor('the editor was told its rights changed', () => closed.length > 0, 5000);
      expect(Date.now() - started).toBeLessThan(1000);
      expect(closed[0]!.code).toBe(CloseCode.accessChanged);
      // Reconnected read-only: a late edit is refused and the signed text does not move.
      await synced(lead);
      const dropped = server.loadedDocument(name)!.droppedReadOnlyUpdates;
      paragraph.insert(paragraph.length, [new Y.XmlText(' Too late.')]);
      await waitFor(
        'the late edit was refused',
        () => server.loadedDocument(name)!.droppedReadOnlyUpdates > dropped,
      );
      expect((await report('lena')).content_hash).toBe(seen.hash);
    } finally {
      lead.destroy();
    }
    // Partners never open the live text, even of a published report of their school.
    const url = `${portal.running.url.replace(/^http/, 'ws')}/collab/${name}?token=${tokens.head}`;
    expect(await upgradeStatus(url)).toBe(403);
  });

  it('enforces suggest-only in review: a direct edit is refused and kept, a suggestion passes and is resolved', async () => {
    // The lead's direct edit was logged and the late edit of the previous test kept (read-only by then).
    const earlier = (await portal.running.infra.eventStore.readStream(`halfTermReportText-${reportId}`))
      .length;
    expect(earlier).toBe(2);
    // Back into lead review (revision 3), claimed by the lead: the writers may now only suggest.
    await ok('POST', `/half-term-reports/${reportId}/lead/revoke-publication`, 'lena', {
      reason: 'One more look',
    });
    expect((await report('tess')).allowed_mode).toBe('suggest');
    const name = `half-term-report:${reportId}`;
    const server = portal.running.app.get(CollaborationServer);
    const lastParagraph = (doc: Y.Doc) =>
      doc
        .getXmlFragment('default')
        .toArray()
        .filter((n): n is Y.XmlElement => n instanceof Y.XmlElement && n.nodeName === 'paragraph')
        .at(-1)!.firstChild as Y.XmlText;
    // The writer types directly while the report is in QA: refused, kept as an event, the writer told.
    const writer = editor(portal.running, name, tokens.tess!);
    const told: string[] = [];
    writer.messageHandlers[2] = (_encoder, decoder) => {
      decoding.readVarUint(decoder);
      told.push(decoding.readVarString(decoder));
    };
    const writerCloses = closes(writer);
    try {
      await synced(writer);
      const words = lastParagraph(writer.doc);
      words.insert(words.length, ' Typed straight in.');
      await waitFor('the writer was told and disconnected', () => told.length > 0 && writerCloses.length > 0);
    } finally {
      writer.destroy();
    }
    expect(JSON.parse(told[0]!)).toMatchObject({ refused: 'direct_edit', text: ' Typed straight in.' });
    expect(writerCloses[0]!.code).toBe(CloseCode.editRefused);
    expect(JSON.stringify(server.loadedDocument(name)?.doc.getXmlFragment('default').toJSON())).not.toContain(
      'Typed straight in',
    );
    await waitFor('the refused edit is kept and shown to its author', async () => {
      const seen = (await report('tess')).refused_edits as Json[];
      return (
        seen.length === 1 && seen[0]!.inserted === ' Typed straight in.' && seen[0]!.reason === 'direct_edit'
      );
    });
    expect((await report('quinn')).refused_edits).toEqual([]);
    const textEvents = async () =>
      (await portal.running.infra.eventStore.readStream(`halfTermReportText-${reportId}`)).slice(earlier);
    const kept = await textEvents();
    expect(kept.map((e) => e.type)).toEqual(['HalfTermReportEditRefused']);
    expect((kept[0]!.data as { update: string }).update.length).toBeGreaterThan(10);

    // A suggestion under the writer's own id passes, is counted, and blocks the approval.
    const suggester = editor(portal.running, name, tokens.tess!);
    const reviewer = editor(portal.running, name, tokens.lena!);
    const id = `u${ids.tess}.int.1`;
    try {
      await synced(suggester);
      await synced(reviewer);
      const words = lastParagraph(suggester.doc);
      words.insert(words.length, ' She loves poetry.', { insertion: { id } });
      await waitFor('the reviewer sees the suggestion', () =>
        JSON.stringify(reviewer.doc.getXmlFragment('default').toJSON()).includes('She loves poetry'),
      );
      await waitFor(
        'the suggestion is recorded',
        async () => (await report('lena')).unresolved_suggestions === 1,
      );
      const detail = await report('lena');
      expect(detail.suggestions).toEqual([
        expect.objectContaining({ id, author_id: ids.tess, inserted: ' She loves poetry.', state: 'open' }),
      ]);
      const blocked = await call('POST', `/half-term-reports/${reportId}/lead/publish`, 'lena', {
        expected_hash: detail.content_hash,
      });
      expect(blocked.status).toBe(409);
      expect(blocked.body.code).toBe('unresolved_suggestions');
      const withSuggestions = (await ok('GET', '/half-term-reports/?has_suggestions=true', 'admin')) as {
        items: Json[];
      };
      expect(withSuggestions.items).toEqual([
        expect.objectContaining({ id: reportId, unresolved_suggestions: 1 }),
      ]);

      // The reviewer accepts it: the text stays, unmarked; the acceptance is an event naming who.
      const mine = lastParagraph(reviewer.doc);
      const plain = (mine.toDelta() as { insert: string }[]).map((op) => op.insert).join('');
      const start = plain.indexOf(' She loves poetry.');
      expect(start).toBeGreaterThanOrEqual(0);
      mine.format(start, ' She loves poetry.'.length, { insertion: null });
      await waitFor('accepted', async () => (await report('lena')).unresolved_suggestions === 0);
      const after = await report('lena');
      expect(after.suggestions).toEqual([
        expect.objectContaining({ id, state: 'accepted', resolved_by_name: 'lena Test' }),
      ]);
      const texts = await textEvents();
      expect(texts.map((e) => e.type)).toEqual([
        'HalfTermReportEditRefused',
        'HalfTermReportSuggestionMade',
        'HalfTermReportSuggestionAccepted',
      ]);
      expect(texts[2]!.data).toMatchObject({ by: ids.lena, inserted: ' She loves poetry.', open: 0 });

      // Typing inside a paragraph is accepted without reading the whole text (decision 0071); the
      // sections stay guarded after such updates: deleting a template heading is still refused.
      const serverText = () =>
        JSON.stringify(server.loadedDocument(name)?.doc.getXmlFragment('default').toJSON());
      for (const word of [' One.', ' Two.', ' Three.']) mine.insert(mine.length, word);
      await waitFor('typing in a paragraph reaches the server', () => serverText().includes('Two. Three.'));
      // A suggest-only connection's direct edit in a paragraph is checked in full all the same.
      const suggesterCloses = closes(suggester);
      await waitFor('the suggester has the typing', () =>
        JSON.stringify(suggester.doc.getXmlFragment('default').toJSON()).includes('Two. Three.'),
      );
      const theirs = lastParagraph(suggester.doc);
      theirs.insert(theirs.length, ' Sneaked in.');
      await waitFor('the direct edit is refused', () => suggesterCloses.length > 0);
      expect(suggesterCloses[0]!.code).toBe(CloseCode.editRefused);
      expect(serverText()).not.toContain('Sneaked in');
      const reviewerCloses = closes(reviewer);
      const top = reviewer.doc.getXmlFragment('default');
      const heading = top.toArray().findIndex((n) => n instanceof Y.XmlElement && n.nodeName === 'heading');
      expect(heading).toBeGreaterThanOrEqual(0);
      top.delete(heading, 1);
      await waitFor('the heading deletion is refused', () => reviewerCloses.length > 0);
      expect(reviewerCloses[0]!.code).toBe(CloseCode.editRefused);
      expect((await textEvents()).at(-1)).toMatchObject({
        type: 'HalfTermReportEditRefused',
        data: expect.objectContaining({ reason: 'sections' }),
      });
    } finally {
      suggester.destroy();
      reviewer.destroy();
    }
  });

  it('publishes in bulk: each item on its own hash and rules, one refusal stops none', async () => {
    const path = '/half-term-reports/lead/publish';
    const hash = (await report('lena')).content_hash as string;
    const item = (expected_hash: string) => ({ report_id: reportId, expected_hash });
    // The single publish's permission: a QA reviewer may not.
    expect((await call('POST', path, 'quinn', { items: [item(hash)] })).status).toBe(403);
    const bad = await call('POST', path, 'lena', { items: [item('abc')] });
    expect(bad.status).toBe(422);
    expect(bad.body.detail).toContain('expected_hash');
    const twice = await call('POST', path, 'lena', { items: [item(hash), item(hash)] });
    expect(twice.status).toBe(422);
    expect(twice.body.detail).toMatch(/^items\[1\]\.report_id:/);
    type Answer = { published: number; refused: number; items: Json[] };
    // A text that moved since the lead read it is refused; nothing is published.
    const stale = (await ok('POST', path, 'lena', { items: [item('f'.repeat(64))] })) as Answer;
    expect(stale).toMatchObject({ published: 0, refused: 1 });
    expect(stale.items[0]).toMatchObject({ ok: false, status: 409, code: 'hash_mismatch' });
    expect((await report('lena')).state).toBe('in_lead_review');
    // An unknown report first does not stop the next one.
    const missing = randomUUID();
    const answer = (await ok('POST', path, 'lena', {
      items: [{ report_id: missing, expected_hash: hash }, item(hash)],
    })) as Answer;
    expect(answer).toMatchObject({ published: 1, refused: 1 });
    expect(answer.items[0]).toMatchObject({ report_id: missing, ok: false, status: 404 });
    expect(answer.items[1]).toMatchObject({ report_id: reportId, ok: true, status: 200, revision: 3 });
    expect(await report('lena')).toMatchObject({ state: 'published', published_revision: 3 });
    const again = (await ok('POST', path, 'lena', { items: [item(hash)] })) as Answer;
    expect(again.items[0]).toMatchObject({ ok: false, status: 409, code: 'state_published' });
  });

  it('downloads a timeframe’s published reports as one zip of PDFs, per customer too', async () => {
    const path = `/report-submission-timeframes/${ids.timeframe}/pdfs`;
    const zip = await fetch(`${portal.running.url}/api/v1${path}?customer_id=${ids.oak}`, {
      headers: { RequestVerificationToken: tokens.admin! },
    });
    expect(zip.status).toBe(200);
    expect(zip.headers.get('content-type')).toBe('application/zip');
    expect(zip.headers.get('x-report-count')).toBe('1');
    expect(zip.headers.get('content-disposition')).toContain('half-term-reports-Autumn-2.zip');
    const bytes = Buffer.from(await zip.arrayBuffer());
    expect(bytes.subarray(0, 4).toString('latin1')).toBe('PK\x03\x04');
    // One entry: the school's folder, the student and programme, the current revision (3).
    expect(bytes.toString('latin1')).toContain('Oakfield-Academy/ann-Test-English-recovery-r3.pdf');
    const none = await call('GET', `${path}?customer_id=${ids.elm}`, 'admin');
    expect(none.status).toBe(404);
    expect(none.body.detail).toContain('No published report');
    expect((await call('GET', `${path}?customer_id=nope`, 'admin')).status).toBe(422);
    expect((await call('GET', path, 'tess')).status).toBe(403);
    expect((await call('GET', `/report-submission-timeframes/${randomUUID()}/pdfs`, 'admin')).status).toBe(
      404,
    );
  });
});
