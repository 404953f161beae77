import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  portalModes,
  startTestPortal,
  type Answer,
  type TestPortal,
} from '../platform/testing/portal-harness.js';
import { pdfText } from './testing-pdf-text.js';

/** Roles of the authorization matrix (docs/decisions/0024-safeguarding-access-tiers.md). */
const ROLES = [
  'anonymous',
  'admin', // administrator without safeguarding access
  'adminSg', // administrator with CAN_ACCESS_SAFEGUARDING
  'teacher',
  'lead', // teacher with CAN_LEAD_SAFEGUARDING
  'partnerSee', // Oak partner (super-admin role: sees reports) who may submit for all students
  'partnerNoSee', // Oak parent: no safeguarding permission
  'partnerElm', // Elm partner who sees reports (another customer)
  'linkContact', // Oak link contact: submit for selected students only (linked to ada, not cara)
] as const;
type Role = (typeof ROLES)[number];

type Ids = Exclude<Role, 'anonymous' | 'admin'> | 'oak' | 'elm' | 'oakStudent' | 'oakUnlinked' | 'elmStudent';

const HOUR = 3_600_000;
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();

describe.each(portalModes)('safeguarding API, $name', (mode) => {
  let portal: TestPortal;
  const token: Partial<Record<Role, string>> = {};
  const id = {} as Record<Ids, string>;
  let neglect: string;
  let bullying: string;

  const as = (
    role: Role,
    method: string,
    path: string,
    body?: unknown,
    minPosition?: string,
  ): Promise<Answer> =>
    portal.call(method, path, role === 'anonymous' ? undefined : token[role], body, minPosition);

  const report = (role: Role, overrides: Record<string, unknown> = {}) =>
    as(role, 'POST', '/safeguarding-incidents/', {
      student_ids: [id.oakStudent],
      type_ids: [neglect],
      occurred_at: ago(HOUR),
      description: 'Came in hungry again, no coat',
      immediate_action: 'Gave breakfast; spoke to the student',
      lead_told_verbally: false,
      ...overrides,
    });

  beforeAll(async () => {
    portal = await startTestPortal(mode, 'portal_safeguarding');
    const { call, admin, settle, createUser } = portal;
    token.admin = admin;
    id.oak = (await settle(await call('POST', '/customers/', admin, { name: 'Oakfield Academy' }))).body
      .id as string;
    id.elm = (await settle(await call('POST', '/customers/', admin, { name: 'Elm Tree School' }))).body
      .id as string;
    const user = (email: string, extra: Record<string, unknown>) =>
      createUser({ email, first_name: email.split('@')[0]!, last_name: 'Test', ...extra });
    id.adminSg = await user('dsl.admin@example.com', {
      user_type: 'super_admin',
      permissions: ['CAN_ACCESS_SAFEGUARDING'],
    });
    id.teacher = await user('teacher@example.com', { user_type: 'teacher' });
    id.lead = await user('lead@example.com', {
      user_type: 'teacher',
      permissions: ['CAN_LEAD_SAFEGUARDING'],
    });
    id.partnerSee = await user('head@oak.example.com', {
      user_type: 'partner',
      customer_id: id.oak,
      customer_type: 'super-admin',
      permissions: ['PARTNER_CAN_SUBMIT_SAFEGUARDING_INCIDENT_FOR_ALL_STUDENTS'],
    });
    id.partnerNoSee = await user('parent@oak.example.com', {
      user_type: 'partner',
      customer_id: id.oak,
      customer_type: 'parent',
    });
    id.partnerElm = await user('head@elm.example.com', {
      user_type: 'partner',
      customer_id: id.elm,
      customer_type: 'super-admin',
    });
    id.linkContact = await user('link@oak.example.com', {
      user_type: 'partner',
      customer_id: id.oak,
      customer_type: 'link-contact',
    });
    id.oakStudent = await user('ada@oak.example.com', { user_type: 'student', customer_id: id.oak });
    id.elmStudent = await user('ben@elm.example.com', { user_type: 'student', customer_id: id.elm });
    id.oakUnlinked = await user('cara@oak.example.com', { user_type: 'student', customer_id: id.oak });
    // The link contact's "selected students" (decision 0034): ada only.
    await settle(
      await call('PUT', `/users/${id.linkContact}/linked-students`, admin, { student_ids: [id.oakStudent] }),
    );
    for (const [role, login] of [
      ['adminSg', 'dsl.admin@example.com'],
      ['teacher', 'teacher@example.com'],
      ['lead', 'lead@example.com'],
      ['partnerSee', 'head@oak.example.com'],
      ['partnerNoSee', 'parent@oak.example.com'],
      ['partnerElm', 'head@elm.example.com'],
      ['linkContact', 'link@oak.example.com'],
    ] as const)
      token[role] = await portal.tokenFor(login);
    neglect = (
      await settle(
        await as('adminSg', 'POST', '/safeguarding-incident-types/', {
          name: 'Neglect',
          guidance: 'Hunger, clothing',
        }),
      )
    ).body.id as string;
    bullying = (
      await settle(await as('adminSg', 'POST', '/safeguarding-incident-types/', { name: 'Bullying' }))
    ).body.id as string;
  }, 180_000);

  afterAll(async () => {
    await portal?.close();
  });

  it('incident types: admins with safeguarding access manage them; retiring keeps history', async () => {
    const { settle } = portal;
    const list = await as('teacher', 'GET', '/safeguarding-incident-types/');
    expect(list.body).toMatchObject({
      total: 2,
      page: 1,
      size: 50,
      items: [{ name: 'Bullying' }, { name: 'Neglect', guidance: 'Hunger, clothing' }],
    });
    const online = (
      await settle(await as('adminSg', 'POST', '/safeguarding-incident-types/', { name: 'Online safty' }))
    ).body.id as string;
    await settle(
      await as('adminSg', 'PUT', `/safeguarding-incident-types/${online}`, {
        name: 'Online safety',
        guidance: 'Grooming, sharing images',
      }),
    );
    expect((await as('teacher', 'GET', `/safeguarding-incident-types/${online}`)).body).toMatchObject({
      name: 'Online safety',
      guidance: 'Grooming, sharing images',
      retired: false,
    });
    await settle(await as('adminSg', 'DELETE', `/safeguarding-incident-types/${online}`));
    expect((await as('teacher', 'GET', '/safeguarding-incident-types/')).body.total).toBe(2);
    const all = await as('teacher', 'GET', '/safeguarding-incident-types/?include_retired=true&query=online');
    expect(all.body).toMatchObject({ total: 1, items: [{ id: online, retired: true }] });
    const events = await portal.running.infra.eventStore.readStream(`safeguarding-incident-type-${online}`);
    expect(events.map((e) => e.type)).toEqual([
      'SafeguardingIncidentTypeCreated',
      'SafeguardingIncidentTypeUpdated',
      'SafeguardingIncidentTypeRetired',
    ]);
    // A retired type cannot be chosen for a new report, nor edited.
    const withRetired = await report('teacher', { type_ids: [online] });
    expect(withRetired.status).toBe(422);
    expect(withRetired.body.detail).toMatch(/type_ids/);
    expect((await as('adminSg', 'PUT', `/safeguarding-incident-types/${online}`, { name: 'X' })).status).toBe(
      409,
    );
    // Who may manage: administrators with safeguarding access only.
    for (const role of ['admin', 'lead', 'teacher', 'partnerSee'] as const)
      expect((await as(role, 'POST', '/safeguarding-incident-types/', { name: 'Nope' })).status).toBe(403);
    expect((await as('anonymous', 'POST', '/safeguarding-incident-types/', { name: 'Nope' })).status).toBe(
      401,
    );
    expect((await as('partnerNoSee', 'GET', '/safeguarding-incident-types/')).status).toBe(403);
    expect((await as('adminSg', 'POST', '/safeguarding-incident-types/', { name: '' })).body.detail).toMatch(
      /name/,
    );
  });

  it('reporting: super admins, teachers and permitted partners, with validation naming the field', async () => {
    const { settle } = portal;
    const byTeacher = await settle(await report('teacher'));
    expect(byTeacher.status).toBe(201);
    expect((await report('admin')).status).toBe(201);
    const byPartner = await report('partnerSee', { type_ids: [bullying] });
    expect(byPartner.status).toBe(201);
    // Partners: own customer's students only; the selected-students variant linked students only.
    const otherCustomer = await report('partnerSee', { student_ids: [id.elmStudent] });
    expect(otherCustomer.status).toBe(403);
    expect((await report('linkContact')).status).toBe(201);
    const unlinked = await report('linkContact', { student_ids: [id.oakUnlinked] });
    expect(unlinked.status).toBe(403);
    expect((await report('linkContact', { student_ids: [id.oakStudent, id.oakUnlinked] })).status).toBe(403);
    expect((await report('partnerNoSee')).status).toBe(403);
    expect((await report('anonymous')).status).toBe(401);
    // Validation.
    const notStudent = await report('teacher', { student_ids: [id.teacher] });
    expect(notStudent).toMatchObject({
      status: 422,
      body: { detail: `student_ids: ${id.teacher} is not a student` },
    });
    const future = await report('teacher', { occurred_at: new Date(Date.now() + 2 * HOUR).toISOString() });
    expect(future).toMatchObject({ status: 422, body: { detail: 'occurred_at must not be in the future' } });
    const missing = await as('teacher', 'POST', '/safeguarding-incidents/', { student_ids: [] });
    expect(missing.status).toBe(422);
    expect(missing.body.detail).toMatch(/student_ids/);
    expect(missing.body.detail).toMatch(/description/);
    const badRisk = await report('teacher', { risk_level: 'extreme' });
    expect(badRisk.status).toBe(422);
    expect(badRisk.body.detail).toMatch(/risk_level/);
  });

  it('offers reporters the students they may report about, searchable by name', async () => {
    const names = async (role: Role, query = '') => {
      const answer = await as(role, 'GET', `/safeguarding-incidents/reportable-students?query=${query}`);
      expect(answer.status).toBe(200);
      return (answer.body.items as { full_name: string }[]).map((s) => s.full_name);
    };
    // A teacher without safeguarding access can still find any student to report about.
    expect(await names('teacher')).toEqual(['ada Test', 'ben Test', 'cara Test']);
    expect(await names('teacher', 'ben')).toEqual(['ben Test']);
    // A partner allowed to report about all their students sees only their own customer's.
    expect(await names('partnerSee')).toEqual(['ada Test', 'cara Test']);
    // Link contacts report about their linked students only.
    expect(await names('linkContact')).toEqual(['ada Test']);
    expect((await as('partnerNoSee', 'GET', '/safeguarding-incidents/reportable-students')).status).toBe(403);
    expect((await as('anonymous', 'GET', '/safeguarding-incidents/reportable-students')).status).toBe(401);
  });

  it('walks the workflow; illegal steps answer 409 naming the state; risk needs a reason; corrections are events', async () => {
    const { settle } = portal;
    const incident = (await settle(await report('teacher', { risk_level: 'low', lesson_id: 'lesson-42' })))
      .body.id as string;
    const step = (path: string, body: unknown = {}, role: Role = 'lead') =>
      as(role, 'POST', `/safeguarding-incidents/${incident}/${path}`, body);

    const summary = async () => (await as('lead', 'GET', '/safeguarding-incidents/summary')).body;
    const before = await summary();
    const early = await step('review');
    expect(early).toMatchObject({ status: 409 });
    expect(early.body.detail).toContain('reported');
    await settle(await step('acknowledge'));
    expect((await step('acknowledge')).body.detail).toBe(
      'Cannot acknowledge an incident that is acknowledged (allowed from: reported)',
    );
    await settle(await step('review', { lead_id: id.lead }));
    // the home page's counts: the review's lead claimed it; it is still open
    expect(await summary()).toEqual({ ...before, unclaimed: (before.unclaimed as number) - 1 });
    expect((await as('teacher', 'GET', '/safeguarding-incidents/summary')).status).toBe(403);
    expect((await step('review', { lead_id: id.teacher })).body.detail).toBe(
      'lead_id: not a safeguarding lead',
    );
    await settle(
      await step('actions', { description: 'Home visit', assignee_id: id.teacher, due_date: '2026-12-01' }),
    );
    await settle(
      await step('actions', {
        description: 'Referral for early help',
        assignee_id: id.lead,
        due_date: '2026-12-03',
        referral_agency: "Children's services",
        referral_reference: 'CS-1234',
      }),
    );
    expect((await step('actions', { description: 'x', assignee_id: id.lead })).body.detail).toMatch(
      /due_date/,
    );
    expect((await step('risk', { risk_level: 'high' })).body.detail).toMatch(/reason/);
    await settle(await step('risk', { risk_level: 'high', reason: 'Sibling disclosed more' }));
    expect((await step('partner-feedback', { feedback: 'too early' })).status).toBe(409);
    await settle(await step('partner-informed', { method: 'phone', note: 'Told the DSL at Oakfield' }));
    await settle(
      await step('partner-feedback', { feedback: 'Known to the school; family support in place' }),
    );
    await settle(
      await step(
        'corrections',
        { field: 'description', value: 'Came in hungry, no coat, tired', reason: 'Added detail' },
        'teacher',
      ),
    );
    expect(
      (await step('corrections', { field: 'description', value: 'x', reason: 'r' }, 'adminSg')).status,
    ).toBe(403);
    const closed = await settle(await step('close', { outcome: 'Support plan agreed' }));
    expect((await summary()).open).toBe((before.open as number) - 1);
    expect((await step('close', { outcome: 'again' })).body.detail).toContain('closed');
    expect((await step('risk', { risk_level: 'low', reason: 'x' })).status).toBe(409);

    const details = await as(
      'lead',
      'GET',
      `/safeguarding-incidents/${incident}`,
      undefined,
      closed.body.position as string,
    );
    expect(details.status).toBe(200);
    expect(details.body).toMatchObject({
      id: incident,
      status: 'closed',
      risk_level: 'high',
      lesson_id: 'lesson-42',
      description: 'Came in hungry, no coat, tired',
      reporter: { id: id.teacher, name: 'teacher Test' },
      // told apart by school (and year group, from a one-page profile: none here)
      students: [{ id: id.oakStudent, name: 'ada Test', school: 'Oakfield Academy', year_group: null }],
      types: [{ id: neglect, name: 'Neglect' }],
      customer_ids: [id.oak],
      assigned_lead_id: id.lead,
      actions: [
        { description: 'Home visit', assignee_id: id.teacher, due_date: '2026-12-01', referral: null },
        { referral: { agency: "Children's services", reference: 'CS-1234' } },
      ],
      partner_informed: [{ text: 'phone: Told the DSL at Oakfield' }],
      partner_feedback: [{ text: 'Known to the school; family support in place' }],
    });
    expect((details.body.timeline as { kind: string }[]).map((t) => t.kind)).toEqual([
      'reported',
      'acknowledged',
      'under_review',
      'action',
      'referral',
      'risk_changed',
      'partner_informed',
      'partner_feedback',
      'corrected',
      'closed',
    ]);
    const reopened = await settle(await step('reopen', { reason: 'New concern raised' }));
    expect(
      (
        await as(
          'lead',
          'GET',
          `/safeguarding-incidents/${incident}`,
          undefined,
          reopened.body.position as string,
        )
      ).body.status,
    ).toBe('under_review');
    const stream = await portal.running.infra.eventStore.readStream(`safeguarding-incident-${incident}`);
    expect(stream[0]!.data).toMatchObject({ description: 'Came in hungry again, no coat' });
    expect(stream.map((e) => e.type)).toContain('SafeguardingIncidentCorrected');
  });

  it('lists with filters and paging; the chronology places backdated reports where they happened', async () => {
    const { settle } = portal;
    const old = (
      await settle(
        await report('teacher', {
          occurred_at: '2025-03-01T10:00:00.000Z',
          type_ids: [bullying],
          risk_level: 'high',
        }),
      )
    ).body.id as string;
    const elmOne = (await settle(await report('lead', { student_ids: [id.elmStudent] }))).body.id as string;
    const byType = await as('adminSg', 'GET', `/safeguarding-incidents/?type_id=${bullying}&risk_level=high`);
    expect((byType.body.items as { id: string }[]).map((i) => i.id)).toEqual([old]);
    const byCustomer = await as('adminSg', 'GET', `/safeguarding-incidents/?customer_id=${id.elm}`);
    expect(byCustomer.body).toMatchObject({ total: 1, items: [{ id: elmOne }] });
    const byStudent = await as(
      'lead',
      'GET',
      `/safeguarding-incidents/?student_id=${id.elmStudent}&status=reported`,
    );
    expect(byStudent.body.total).toBe(1);
    const range = await as(
      'lead',
      'GET',
      '/safeguarding-incidents/?occurred_from=2025-01-01T00:00:00Z&occurred_to=2025-12-31T00:00:00Z',
    );
    expect((range.body.items as { id: string }[]).map((i) => i.id)).toEqual([old]);
    const statuses = await as(
      'lead',
      'GET',
      '/safeguarding-incidents/?status=reported&status=under_review&size=1',
    );
    expect(statuses.body).toMatchObject({ page: 1, size: 1 });
    expect(statuses.body.total as number).toBeGreaterThan(1);
    expect((await as('lead', 'GET', '/safeguarding-incidents/?status=lost')).body.detail).toMatch(/status/);
    // Newest report first, even though `old` happened first.
    const newest = await as('lead', 'GET', '/safeguarding-incidents/?size=2');
    expect((newest.body.items as { id: string }[])[0]!.id).toBe(elmOne);

    const chronology = await as(
      'lead',
      'GET',
      `/safeguarding-incidents/students/${id.oakStudent}/chronology?size=500`,
    );
    const items = chronology.body.items as { incident_id: string; occurred_at: string; kind: string }[];
    expect(items[0]).toMatchObject({
      incident_id: old,
      kind: 'reported',
      occurred_at: '2025-03-01T10:00:00.000Z',
    });
    const times = items.map((i) => i.occurred_at);
    expect([...times].sort()).toEqual(times);
    expect(items.some((i) => i.kind === 'referral')).toBe(true);
    expect(items.every((i) => i.incident_id !== elmOne)).toBe(true);
  });

  it('records every read of an incident as an event, visible to leads', async () => {
    const { settle } = portal;
    const incident = (await settle(await report('teacher'))).body.id as string;
    await as('adminSg', 'GET', `/safeguarding-incidents/${incident}`);
    await as('teacher', 'GET', `/safeguarding-incidents/${incident}`); // the reporter
    const last = await as('partnerSee', 'GET', `/safeguarding-incidents/${incident}`);
    expect(last.status).toBe(200);
    const views = await portal.running.infra.eventStore.readStream(`safeguarding-incident-views-${incident}`);
    expect(views.map((v) => [v.type, (v.data as { viewerId: string }).viewerId])).toEqual([
      ['SafeguardingIncidentViewed', id.adminSg],
      ['SafeguardingIncidentViewed', id.teacher],
      ['SafeguardingIncidentViewed', id.partnerSee],
    ]);
    // Reads never touch the incident's own stream (its expected revision stays put).
    expect(
      (await portal.running.infra.eventStore.readStream(`safeguarding-incident-${incident}`)).length,
    ).toBe(1);
    const log = await as(
      'lead',
      'GET',
      `/safeguarding-incidents/${incident}/views`,
      undefined,
      views.at(-1)!.position.toString(),
    );
    expect(log.body).toMatchObject({
      total: 3,
      items: [
        { viewer: { id: id.partnerSee }, via: 'partner' },
        { viewer: { id: id.teacher }, via: 'reporter' },
        { viewer: { id: id.adminSg, name: 'dsl.admin Test' }, via: 'details' },
      ],
    });
    expect((await as('adminSg', 'GET', `/safeguarding-incidents/${incident}/views`)).status).toBe(403);
  });

  it("partners see their own customer's incidents only", async () => {
    const { settle } = portal;
    await settle(await report('teacher', { student_ids: [id.elmStudent] }));
    const oakList = await as('partnerSee', 'GET', '/safeguarding-incidents/partner');
    const oakItems = oakList.body.items as { customer_ids: string[] }[];
    expect(oakItems.length).toBeGreaterThan(0);
    expect(oakItems.every((i) => i.customer_ids.includes(id.oak))).toBe(true);
    // A customer filter cannot widen the scope.
    const sneaky = await as('partnerSee', 'GET', `/safeguarding-incidents/partner?customer_id=${id.elm}`);
    expect(
      (sneaky.body.items as { customer_ids: string[] }[]).every((i) => i.customer_ids.includes(id.oak)),
    ).toBe(true);
    const elmList = await as('partnerElm', 'GET', '/safeguarding-incidents/partner');
    const elmItems = elmList.body.items as { id: string; customer_ids: string[] }[];
    expect(elmItems.every((i) => i.customer_ids.includes(id.elm))).toBe(true);
    const oakIncident = oakItems[0] as unknown as { id: string };
    expect((await as('partnerElm', 'GET', `/safeguarding-incidents/${oakIncident.id}`)).status).toBe(404);
  });

  it('gives each reader their view: leads the case, partners no case notes, the reporter what they reported', async () => {
    const { settle } = portal;
    const incident = (await settle(await report('teacher', { risk_level: 'low' }))).body.id as string;
    const step = (path: string, body: unknown = {}) =>
      as('lead', 'POST', `/safeguarding-incidents/${incident}/${path}`, body);
    await settle(await step('acknowledge'));
    await settle(await step('review'));
    await settle(
      await step('actions', {
        description: 'Referral for early help',
        assignee_id: id.lead,
        due_date: '2026-12-03',
        referral_agency: "Children's services",
        referral_reference: 'CS-REF-9876',
      }),
    );
    await settle(await step('risk', { risk_level: 'high', reason: 'RISK-REASON sibling disclosed more' }));
    await settle(await step('partner-informed', { method: 'phone', note: 'CONTACT-NOTE head was evasive' }));
    const last = await settle(await step('partner-feedback', { feedback: 'School knows the family' }));
    const position = last.body.position as string;
    const read = (role: Role) =>
      as(role, 'GET', `/safeguarding-incidents/${incident}`, undefined, position).then((a) => a.body);
    const pdf = async (role: Role) => {
      const res = await fetch(`${portal.base}/api/v1/safeguarding-incidents/${incident}/pdf`, {
        headers: { RequestVerificationToken: token[role]! },
      });
      expect(res.status).toBe(200);
      return pdfText(Buffer.from(await res.arrayBuffer()));
    };
    const CASE_NOTES = ['CS-REF-9876', 'RISK-REASON', 'CONTACT-NOTE'];
    const seen = (text: string) => CASE_NOTES.filter((n) => text.includes(n));

    // Safeguarding staff: the whole case.
    const lead = await read('lead');
    expect(lead).toMatchObject({
      audience: 'case',
      risk_level: 'high',
      assigned_lead_id: id.lead,
      actions: [{ referral: { agency: "Children's services", reference: 'CS-REF-9876' } }],
    });
    expect(seen(JSON.stringify(lead))).toEqual(CASE_NOTES);
    expect(seen(await pdf('lead'))).toEqual(CASE_NOTES);

    // The reporter (a teacher without safeguarding access): what they reported and its status.
    const reporter = await read('teacher');
    expect(Object.keys(reporter).sort()).toEqual(
      [
        'audience',
        'id',
        'status',
        'risk_level',
        'reporter',
        'students',
        'types',
        'occurred_at',
        'reported_at',
        'lesson_id',
        'description',
        'immediate_action',
        'lead_told_verbally',
        'acknowledged_at',
        'closed_at',
        'position',
      ].sort(),
    );
    expect(reporter).toMatchObject({ audience: 'reporter', status: 'partner_feedback', risk_level: 'low' });
    const reporterPdf = await pdf('teacher');
    expect(seen(reporterPdf)).toEqual([]);
    expect(reporterPdf).not.toContain("Children's services");
    expect(reporterPdf).toContain('Came in hungry again, no coat');

    // Partners who see their school's reports (decision 0037): what was done and that a referral was
    // made, to which agency; not its reference, the lead's reasons and notes, nor who is assigned.
    const partner = await read('partnerSee');
    expect(partner).toMatchObject({
      audience: 'partner',
      risk_level: 'high',
      actions: [{ description: 'Referral for early help', referral: { agency: "Children's services" } }],
      partner_feedback: [{ text: 'School knows the family' }],
    });
    for (const key of ['assigned_lead_id', 'assigned_lead', 'acknowledged_by', 'escalated_at'])
      expect([key, key in partner]).toEqual([key, false]);
    expect(seen(JSON.stringify(partner))).toEqual([]);
    expect((partner.timeline as { kind: string; summary: string }[]).map((t) => [t.kind, t.summary])).toEqual(
      [
        ['reported', 'Came in hungry again, no coat'],
        ['acknowledged', 'Acknowledged by a safeguarding lead'],
        ['under_review', 'Review started'],
        ['referral', "Referral to Children's services: Referral for early help (due 2026-12-03)"],
        ['risk_changed', 'Risk level changed'],
        ['partner_informed', 'Partner informed'],
        ['partner_feedback', 'School knows the family'],
      ],
    );
    const partnerPdf = await pdf('partnerSee');
    expect(seen(partnerPdf)).toEqual([]);
    expect(partnerPdf).toContain("referral to Children's services");
    const list = await as('partnerSee', 'GET', '/safeguarding-incidents/partner?size=500');
    const listed = (list.body.items as Record<string, unknown>[]).find((i) => i.id === incident)!;
    expect(listed).toMatchObject({ audience: 'partner' });
    expect(seen(JSON.stringify(listed))).toEqual([]);
  });

  it('verifies the hash chain and detects an event edited in the database', async () => {
    const { settle } = portal;
    const incident = (await settle(await report('teacher'))).body.id as string;
    await settle(await as('lead', 'POST', `/safeguarding-incidents/${incident}/acknowledge`));
    await settle(await as('lead', 'POST', `/safeguarding-incidents/${incident}/review`));
    const ok = await as('lead', 'GET', `/safeguarding-incidents/${incident}/verify`);
    expect(ok.body).toEqual({ valid: true, events: 3 });
    const stream = await portal.running.infra.eventStore.readStream(`safeguarding-incident-${incident}`);
    expect(stream.every((e) => typeof e.metadata.chainHash === 'string')).toBe(true);
    expect(stream[1]!.metadata.chainPrevious).toBe(stream[0]!.metadata.chainHash);
    // Someone with database access rewrites history.
    await portal.running.infra.sql.query(
      `UPDATE es_events SET data = jsonb_set(data, '{description}', '"Nothing happened"') WHERE stream = $1 AND revision = 0`,
      [`safeguarding-incident-${incident}`],
    );
    const broken = await as('lead', 'GET', `/safeguarding-incidents/${incident}/verify`);
    expect(broken.body).toEqual({ valid: false, events: 3, broken_at: 0 });
    expect((await as('adminSg', 'GET', `/safeguarding-incidents/${incident}/verify`)).status).toBe(403);
    expect(
      (await as('lead', 'GET', '/safeguarding-incidents/99999999-9999-4999-8999-999999999999/verify')).status,
    ).toBe(404);
  });

  it('authorization: every endpoint refuses the roles it should', async () => {
    const { settle } = portal;
    const incident = (await settle(await report('teacher'))).body.id as string;
    const type = neglect;
    const base = `/safeguarding-incidents/${incident}`;
    /** [method, path, body, roles allowed]: every other role must be refused (401 / 403 / 404). */
    const matrix: [string, string, unknown, Role[]][] = [
      [
        'GET',
        '/safeguarding-incident-types/',
        undefined,
        ['admin', 'adminSg', 'teacher', 'lead', 'partnerSee', 'partnerElm', 'linkContact'],
      ],
      [
        'GET',
        `/safeguarding-incident-types/${type}`,
        undefined,
        ['admin', 'adminSg', 'teacher', 'lead', 'partnerSee', 'partnerElm', 'linkContact'],
      ],
      ['POST', '/safeguarding-incident-types/', { name: 'Matrix' }, ['adminSg']],
      ['PUT', `/safeguarding-incident-types/${type}`, { guidance: 'Hunger, clothing, hygiene' }, ['adminSg']],
      ['GET', '/safeguarding-incidents/', undefined, ['adminSg', 'lead']],
      ['GET', '/safeguarding-incidents/partner', undefined, ['partnerSee', 'partnerElm']],
      ['GET', `/safeguarding-incidents/students/${id.oakStudent}/chronology`, undefined, ['adminSg', 'lead']],
      ['GET', base, undefined, ['adminSg', 'lead', 'teacher', 'partnerSee']],
      ['GET', `${base}/views`, undefined, ['lead']],
      ['GET', `${base}/verify`, undefined, ['lead']],
      ['POST', `${base}/acknowledge`, {}, ['lead']],
      ['POST', `${base}/review`, {}, ['lead']],
      [
        'POST',
        `${base}/actions`,
        { description: 'Check in', assignee_id: id.lead, due_date: '2026-12-01' },
        ['lead'],
      ],
      ['POST', `${base}/risk`, { risk_level: 'high', reason: 'Matrix' }, ['lead']],
      [
        'POST',
        `${base}/corrections`,
        { field: 'immediate_action', value: 'Matrix', reason: 'Matrix' },
        ['lead', 'teacher'],
      ],
      ['POST', `${base}/partner-informed`, { method: 'email', note: 'Matrix' }, ['lead']],
      ['POST', `${base}/partner-feedback`, { feedback: 'Matrix' }, ['lead']],
      ['POST', `${base}/close`, { outcome: 'Matrix' }, ['lead']],
      ['POST', `${base}/reopen`, { reason: 'Matrix' }, ['lead']],
    ];
    for (const [method, path, body, allowed] of matrix) {
      for (const role of ROLES) {
        const answer = await as(role, method, path, body);
        const label = `${role} ${method} ${path}`;
        if (allowed.includes(role)) expect([label, answer.status < 300]).toEqual([label, true]);
        else if (role === 'anonymous') expect([label, answer.status]).toEqual([label, 401]);
        else expect([label, [403, 404].includes(answer.status)]).toEqual([label, true]);
        if (answer.status < 300 && typeof answer.body.position === 'string') await settle(answer);
      }
    }
    // Retiring, last (it changes what the others see).
    const retire = (
      await settle(await as('adminSg', 'POST', '/safeguarding-incident-types/', { name: 'To retire' }))
    ).body.id as string;
    for (const role of ROLES.filter((r) => r !== 'adminSg'))
      expect((await as(role, 'DELETE', `/safeguarding-incident-types/${retire}`)).status).toBe(
        role === 'anonymous' ? 401 : 403,
      );
    expect((await as('adminSg', 'DELETE', `/safeguarding-incident-types/${retire}`)).status).toBe(200);
  });
});
