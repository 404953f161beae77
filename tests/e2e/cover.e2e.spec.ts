import { expect, test } from '@playwright/test';
import { adminToken, api, createCustomer, createUser, signedIn } from './support/portal-api.js';

// Needs the programmes API (programmes and groups, issue 15) for its setup; skipped where it is absent.
const stamp = Date.now().toString(36);
const OWNER = { email: `olga.owner.${stamp}@tutors.example`, password: 'Cover-Owner-2026!' };
const COVER = { email: `carl.cover.${stamp}@tutors.example`, password: 'Cover-Taker-2026!' };
let token = '';
let lessonId = '';
const userIds: string[] = [];

const plusDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ request }) => {
  token = await adminToken(request);
  const ownerId = await createUser(request, token, {
    email: OWNER.email,
    first_name: 'Olga',
    last_name: 'Owner',
    user_type: 'teacher',
    password: OWNER.password,
  });
  const coverId = await createUser(request, token, {
    email: COVER.email,
    first_name: 'Carl',
    last_name: 'Cover',
    user_type: 'teacher',
    password: COVER.password,
  });
  const granted = await api(request, token, 'PUT', `/api/v1/users/${coverId}/permissions`, {
    permissions: ['USER_IS_TEACHER', 'CAN_ACCESS_COVER_REQUESTS'],
  });
  expect(granted.status, JSON.stringify(granted.body)).toBe(200);
  userIds.push(ownerId, coverId);
  const customerId = await createCustomer(request, token, `Cover School ${stamp}`);
  const programme = await api<{ id: string }>(request, token, 'POST', '/api/v1/programmes/', {
    title: 'Cover maths',
    customer_id: customerId,
    kind: 'lesson',
    start_date: plusDays(-7),
    timezone: 'Europe/London',
  });
  test.skip(programme.status === 404, 'needs the programmes API');
  expect(programme.status, JSON.stringify(programme.body)).toBe(201);
  await api(request, token, 'PUT', `/api/v1/programmes/${programme.body.id}/activate`, {});
  const group = await api<{ id: string }>(request, token, 'POST', '/api/v1/groups/', {
    programme_id: programme.body.id,
    name: 'Cover A',
    teachers: [{ teacher_id: ownerId, role: 'lead' }],
  });
  expect(group.status, JSON.stringify(group.body)).toBe(201);
  const lesson = await api<{ id: string }>(request, token, 'POST', '/api/v1/lessons/', {
    programme_id: programme.body.id,
    group_id: group.body.id,
    teacher_id: ownerId,
    timezone: 'Europe/London',
    local_date: plusDays(7),
    local_start: '12:00',
    duration_minutes: 45,
  });
  expect(lesson.status, JSON.stringify(lesson.body)).toBe(201);
  lessonId = lesson.body.id;
});

test.afterAll(async ({ request }) => {
  for (const id of userIds) await api(request, token, 'DELETE', `/api/v1/users/${id}`).catch(() => undefined);
});

test('a teacher requests cover on the lesson page; another accepts the broadcast and the lesson shows them as cover', async ({
  browser,
}) => {
  const owner = await signedIn(browser, OWNER.email, OWNER.password);
  await owner.goto(`/lessons/${lessonId}`);
  await owner.getByRole('button', { name: 'Request cover' }).click();
  const dialog = owner.getByRole('dialog', { name: 'Request cover' });
  await dialog.getByRole('textbox', { name: 'Reason' }).fill('Hospital appointment');
  await dialog.getByRole('button', { name: 'Request cover' }).click();
  await expect(dialog).toBeHidden();

  const cover = await signedIn(browser, COVER.email, COVER.password);
  await cover.goto('/cover-requests');
  await expect(cover.getByRole('heading', { level: 1, name: 'Cover requests' })).toBeVisible();
  const row = cover.getByRole('row').filter({ hasText: 'Hospital appointment' });
  await row.getByRole('button', { name: 'Accept' }).click();
  // Filled: it is no longer open for anyone, and it is now among the cover teacher's own requests.
  await expect(row).toBeHidden({ timeout: 10_000 });
  await cover.getByText('My requests').click();
  await expect(
    cover.getByRole('row').filter({ hasText: 'Hospital appointment' }).getByText('filled'),
  ).toBeVisible();

  await cover.goto(`/lessons/${lessonId}`);
  await expect(cover.locator('#main-content').getByText('Carl Cover')).toBeVisible();
  await owner.context().close();
  await cover.context().close();
});
