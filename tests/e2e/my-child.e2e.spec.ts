import { expect, test } from '@playwright/test';
import {
  adminToken,
  api,
  startedLessonUtc,
  createCustomer,
  createUser,
  signedIn,
} from './support/portal-api.js';
import { seriousViolations } from './support/walk.js';

// A parent's "my child" page (issue 18, decision 0062): the child's timetable, attendance this half
// term with the latest marks, released reports and the school's contacts; a parent of two picks one.
const stamp = Date.now().toString(36);
const PARENT = { email: `pia.parent.${stamp}@family.example`, password: 'My-Child-Page-2026!' };
const ANN = `Ann Kid${stamp}`;
const BEN = `Ben Kid${stamp}`;
let token = '';
const userIds: string[] = [];

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ request }) => {
  token = await adminToken(request);
  const teacherId = await createUser(request, token, {
    email: `tom.teacher.${stamp}@tutors.example`,
    first_name: 'Tom',
    last_name: 'Tutor',
    user_type: 'teacher',
  });
  const customerId = await createCustomer(request, token, `Family School ${stamp}`);
  const headId = await createUser(request, token, {
    email: `hana.head.${stamp}@school.example`,
    first_name: 'Hana',
    last_name: 'Head',
    user_type: 'partner',
    customer_id: customerId,
    customer_type: 'super-admin',
  });
  const parentId = await createUser(request, token, {
    email: PARENT.email,
    first_name: 'Pia',
    last_name: 'Parent',
    user_type: 'partner',
    customer_id: customerId,
    customer_type: 'parent',
    password: PARENT.password,
    // The timetable's week is the viewer's; UTC matches the lesson's wall clock below.
    timezone: 'UTC',
  });
  const students: string[] = [];
  for (const name of [ANN, BEN]) {
    const [first, last] = name.split(' ');
    students.push(
      await createUser(request, token, {
        email: `${first!.toLowerCase()}.${stamp}@pupils.example`,
        first_name: first!,
        last_name: last!,
        user_type: 'student',
        customer_id: customerId,
      }),
    );
  }
  userIds.push(teacherId, headId, parentId, ...students);
  const linked = await api(request, token, 'PUT', `/api/v1/users/${parentId}/linked-students`, {
    student_ids: students,
  });
  expect(linked.status, JSON.stringify(linked.body)).toBeLessThan(300);
  const programme = await api<{ id: string }>(request, token, 'POST', '/api/v1/programmes/', {
    title: 'Family maths',
    customer_id: customerId,
    kind: 'lesson',
    start_date: new Date(Date.now() - 7 * 86_400_000).toISOString().slice(0, 10),
    timezone: 'UTC',
  });
  expect(programme.status, JSON.stringify(programme.body)).toBe(201);
  await api(request, token, 'PUT', `/api/v1/programmes/${programme.body.id}/activate`, {});
  const group = await api<{ id: string }>(request, token, 'POST', '/api/v1/groups/', {
    programme_id: programme.body.id,
    name: 'Maths A',
    teachers: [{ teacher_id: teacherId, role: 'lead' }],
  });
  expect(group.status, JSON.stringify(group.body)).toBe(201);
  const added = await api(request, token, 'POST', `/api/v1/groups/${group.body.id}/students`, {
    student_id: students[0],
    from: new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10),
  });
  expect(added.status, JSON.stringify(added.body)).toBeLessThan(300);
  // A lesson that has begun today (UTC wall clock), marked present.
  const lesson = await api<{ id: string }>(request, token, 'POST', '/api/v1/lessons/', {
    programme_id: programme.body.id,
    group_id: group.body.id,
    teacher_id: teacherId,
    timezone: 'UTC',
    ...startedLessonUtc(),
    duration_minutes: 60,
  });
  expect(lesson.status, JSON.stringify(lesson.body)).toBe(201);
  const marked = await api(request, token, 'PUT', `/api/v1/lessons/${lesson.body.id}/register`, {
    client_key: `my-child-${stamp}`,
    entries: [{ student_id: students[0], mark: 'present' }],
  });
  expect(marked.status, JSON.stringify(marked.body)).toBeLessThan(300);
});

test.afterAll(async ({ request }) => {
  for (const id of userIds) await api(request, token, 'DELETE', `/api/v1/users/${id}`).catch(() => undefined);
});

test('a parent opens "My child": timetable, attendance, reports and contacts; then picks their other child', async ({
  browser,
}) => {
  const page = await signedIn(browser, PARENT.email, PARENT.password);
  await page
    .getByRole('navigation', { name: 'Portal areas' })
    .getByRole('link', { name: 'My child' })
    .click();
  await expect(page.getByRole('heading', { level: 1, name: ANN })).toBeVisible();
  await expect(page.getByText(`Family School ${stamp}`).first()).toBeVisible();

  const timetable = page.getByRole('region', { name: 'Timetable' });
  await expect(timetable.getByText('Family maths · Maths A')).toBeVisible();
  await expect(timetable.getByText('With Tom Tutor')).toBeVisible();
  await expect(timetable.getByText(/^This week \(from \d{2}\.\d{2}\.\d{4}\)$/)).toBeVisible();

  const attendance = page.getByRole('region', { name: 'Attendance' });
  await expect(attendance.getByText('100 %')).toBeVisible();
  await expect(attendance.getByText('Present', { exact: true })).toBeVisible();

  await expect(page.getByRole('region', { name: 'Half-term reports' })).toContainText(
    'No report has been released to the school yet.',
  );
  const contacts = page.getByRole('region', { name: 'Contact the school' });
  await expect(contacts.getByText('Hana Head')).toBeVisible();
  await expect(contacts.getByRole('link', { name: `hana.head.${stamp}@school.example` })).toHaveAttribute(
    'href',
    `mailto:hana.head.${stamp}@school.example`,
  );
  await page.screenshot({ path: 'tests/e2e/.artifacts/my-child.png', fullPage: true });
  expect(await seriousViolations(page), 'axe on my-child').toEqual([]);

  // The other child: no lessons yet, no marks.
  await page
    .getByRole('textbox', { name: 'Child' })
    .or(page.getByRole('combobox', { name: 'Child' }))
    .first()
    .click();
  await page.getByRole('option', { name: new RegExp(BEN) }).click();
  await expect(page.getByRole('heading', { level: 1, name: BEN })).toBeVisible();
  await expect(
    page.getByRole('region', { name: 'Timetable' }).getByText('No lessons.').first(),
  ).toBeVisible();
  await expect(page.getByRole('region', { name: 'Attendance' }).getByText('No marks yet.')).toBeVisible();
  await page.context().close();
});

test('the parent home links each child to their page and shows reports released', async ({ browser }) => {
  const page = await signedIn(browser, PARENT.email, PARENT.password);
  await page.goto('/dashboard');
  await expect(page.getByRole('region', { name: 'Reports released' })).toContainText(
    'No half-term report has been released to you yet.',
  );
  await expect(page.getByLabel(/^Loading/)).toHaveCount(0);
  expect(await seriousViolations(page), 'axe on the parent home').toEqual([]);
  const students = page.getByRole('region', { name: 'Your students' });
  await students.getByRole('link', { name: `${BEN}: timetable, attendance and reports` }).click();
  await expect(page.getByRole('heading', { level: 1, name: BEN })).toBeVisible();
  await page.context().close();
});
