import { expect, test } from '@playwright/test';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  adminToken,
  api,
  createCustomer,
  createUser,
  signedIn,
  signInAsAdmin,
} from './support/portal-api.js';

const artifacts = join(dirname(fileURLToPath(import.meta.url)), '.artifacts');

// Needs the programmes API (programmes and groups, issue 15) besides lessons: the setup goes through it.
const TEACHER = {
  email: `lena.lessons.${Date.now().toString(36)}@tutors.example`,
  password: 'Lessons-Week-2026!',
};
let token = '';
let teacherId = '';
let programmeId = '';
let groupId = '';

// Today in London, the zone of the programme, its schedule and the teacher's week: the UTC date is
// London's yesterday between 23:00 and 24:00 UTC in summer, which put the first lesson in last week.
const today = () => new Date().toLocaleDateString('en-CA', { timeZone: 'Europe/London' });
const plusDays = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

test.describe.configure({ mode: 'serial' });
test.use({ viewport: { width: 1400, height: 1000 } });

test.beforeAll(async ({ request }) => {
  token = await adminToken(request);
  teacherId = await createUser(request, token, {
    email: TEACHER.email,
    first_name: 'Lena',
    last_name: 'Lessons',
    user_type: 'teacher',
    password: TEACHER.password,
  });
  const customerId = await createCustomer(request, token, `Lessons School ${Date.now().toString(36)}`);
  const programme = await api<{ id: string }>(request, token, 'POST', '/api/v1/programmes/', {
    title: 'Weekly maths',
    customer_id: customerId,
    kind: 'lesson',
    start_date: plusDays(today(), -7),
    timezone: 'Europe/London',
  });
  expect(programme.status, JSON.stringify(programme.body)).toBe(201);
  programmeId = programme.body.id;
  await api(request, token, 'PUT', `/api/v1/programmes/${programmeId}/activate`, {});
  const group = await api<{ id: string }>(request, token, 'POST', '/api/v1/groups/', {
    programme_id: programmeId,
    name: 'Maths A',
    teachers: [{ teacher_id: teacherId, role: 'lead' }],
  });
  expect(group.status, JSON.stringify(group.body)).toBe(201);
  groupId = group.body.id;
});

test.afterAll(async ({ request }) => {
  if (teacherId) await api(request, token, 'DELETE', `/api/v1/users/${teacherId}`).catch(() => undefined);
});

test("a weekly schedule fills the teacher's open week without a reload; a cancelled lesson leaves it", async ({
  page,
  browser,
  request,
}) => {
  const teacher = await signedIn(browser, TEACHER.email, TEACHER.password);
  await teacher.goto('/my-lessons');
  await expect(teacher.getByRole('heading', { level: 1, name: 'My lessons' })).toBeVisible();
  await expect(teacher.getByText('No lessons this week.')).toBeVisible();
  const items = teacher.getByTestId('week-item');

  // Every day at noon from today, for a week: this week has at least today's lesson.
  const created = await api<{ planned: number }>(
    request,
    token,
    'POST',
    `/api/v1/programmes/${programmeId}/schedules`,
    {
      group_id: groupId,
      teacher_id: teacherId,
      timezone: 'Europe/London',
      weekdays: [1, 2, 3, 4, 5, 6, 7],
      local_start: '12:00',
      duration_minutes: 45,
      valid_from: today(),
      valid_until: plusDays(today(), 6),
    },
  );
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  expect(created.body.planned).toBe(7);
  await expect(items.first()).toBeVisible({ timeout: 10_000 });
  const before = await items.count();
  expect(before).toBeGreaterThan(0);
  await teacher.screenshot({ path: join(artifacts, 'my-lessons-week.png') });

  // Her home page lists today's lesson (issue 18: the Monday-morning home).
  await teacher.goto('/dashboard');
  const todays = teacher.getByRole('region', { name: "Today's lessons" });
  await expect(todays.getByRole('link', { name: /Weekly maths · Maths A/ })).toBeVisible();
  await teacher.screenshot({ path: join(artifacts, 'home-teacher.png') });
  await teacher.goto('/my-lessons');
  await expect(items).toHaveCount(before);

  // The administrator cancels the first of them on its page.
  const lessons = await api<{ items: { id: string; starts_at: string }[] }>(
    request,
    token,
    'GET',
    `/api/v1/lessons/?group_id=${groupId}`,
  );
  const first = lessons.body.items[0]!;
  await signInAsAdmin(page);
  await page.goto(`/lessons/${first.id}`);
  await page.getByRole('button', { name: 'Cancel lesson' }).click();
  const dialog = page.getByRole('dialog', { name: 'Cancel the lesson' });
  await dialog.getByRole('textbox', { name: 'Reason' }).fill('Teacher training day');
  await dialog.getByRole('button', { name: 'Cancel the lesson' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('Cancelled', { exact: true })).toBeVisible();
  await page.screenshot({ path: join(artifacts, 'lesson-cancelled.png') });

  // …and it disappears from the teacher's open week, without a reload.
  await expect(items).toHaveCount(before - 1, { timeout: 10_000 });
  await teacher.context().close();
});

test("the teachers' grid shows a teacher's lessons beside their free time, and the reports download", async ({
  page,
  request,
}) => {
  // Lena is free on weekdays 08:00–18:00 (her recurring week); her noon lessons sit inside it.
  const set = await api(request, token, 'POST', `/api/v1/users/${teacherId}/availability`, {
    availabilities: [0, 1, 2, 3, 4].map((day) => ({ day_of_week: day, start_minute: 480, end_minute: 1080 })),
  });
  expect(set.status, JSON.stringify(set.body)).toBe(200);
  // The week of a lesson still planned: the first of the seven was cancelled above, and on a Sunday
  // it is the only one in the current week (this test failed on Sundays before it asked for a week).
  const lessons = await api<{ items: { local_date: string; status: string }[] }>(
    request,
    token,
    'GET',
    `/api/v1/lessons/?group_id=${groupId}&status=planned`,
  );
  expect(lessons.status, JSON.stringify(lessons.body)).toBe(200);
  const planned = lessons.body.items[0];
  expect(planned, 'a lesson still planned').toBeDefined();
  await signInAsAdmin(page);
  await page.goto(`/timetables/teachers?q=Lena%20Lessons&week=${planned!.local_date}`);
  await expect(page.getByRole('heading', { level: 1, name: "Teachers' timetables" })).toBeVisible();
  const row = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: /Lena Lessons/ }) });
  await expect(row).toBeVisible();
  await expect(row.getByRole('link', { name: 'Weekly maths' }).first()).toBeVisible();
  await expect(row.getByText(/^Free \d\d:\d\d–\d\d:\d\d$/).first()).toBeVisible();
  await page.screenshot({ path: join(artifacts, 'teachers-timetables.png') });

  await page.goto('/reports/students-with-lessons');
  await expect(page.getByRole('heading', { name: 'Students with lessons' })).toBeVisible();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(
    /^students-with-lessons-\d{4}-\d\d-\d\d-\d{4}-\d\d-\d\d\.csv$/,
  );
  await page.screenshot({ path: join(artifacts, 'reports.png') });
});
