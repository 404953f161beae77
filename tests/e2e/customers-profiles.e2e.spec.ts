import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { E2E_BASE_URL, SUPERUSER } from './support/env.js';

const artifacts = join(dirname(fileURLToPath(import.meta.url)), '.artifacts');

async function adminToken(request: APIRequestContext): Promise<string> {
  const res = await request.post(`${E2E_BASE_URL}/api/v1/login/access-token`, {
    form: { username: SUPERUSER.email, password: SUPERUSER.password },
  });
  expect(res.ok()).toBe(true);
  return ((await res.json()) as { access_token: string }).access_token;
}

async function api<T>(
  request: APIRequestContext,
  token: string,
  method: 'POST' | 'PUT',
  path: string,
  data: unknown,
) {
  const res = await request.fetch(`${E2E_BASE_URL}/api/v1${path}`, {
    method,
    headers: { RequestVerificationToken: token },
    data,
  });
  expect(res.status(), await res.text()).toBeLessThan(300);
  return (await res.json()) as T;
}

/** A student of a new school with a one-page profile (progress 30). */
async function profiledStudent(request: APIRequestContext, token: string) {
  const suffix = Date.now().toString(36);
  const customer = await api<{ id: string }>(request, token, 'POST', '/customers/', {
    name: `Birch ${suffix}`,
  });
  const student = await api<{ id: string }>(request, token, 'POST', '/users/', {
    email: `pupil.${suffix}@example.org`,
    first_name: 'Robin',
    last_name: `Ash${suffix}`,
    user_type: 'student',
    customer_id: customer.id,
  });
  const profile = await api<{ id: string }>(request, token, 'POST', '/one-page-profiles/', {
    user_id: student.id,
    preferred_name: 'Rob',
    year_group: 'Year 8',
    favourite_subjects: ['Art'],
    progress: 30,
  });
  madeStudents.push(student.id);
  return { suffix, profile };
}

// The student list is shared by every e2e file (users-list counts it): each test's student is taken out
// of it (soft delete, ADR 0015) after the test, whether it passed or not.
const madeStudents: string[] = [];
test.afterEach(async ({ request }) => {
  const token = await adminToken(request);
  for (const id of madeStudents.splice(0)) {
    const removed = await request.delete(`${E2E_BASE_URL}/api/v1/users/${id}`, {
      headers: { RequestVerificationToken: token },
    });
    expect(removed.status()).toBe(200);
  }
});

async function signIn(page: Page): Promise<void> {
  await page.goto('/login');
  await page.getByRole('textbox', { name: 'Email' }).fill(SUPERUSER.email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(SUPERUSER.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(`${E2E_BASE_URL}/dashboard`);
}

test.use({ viewport: { width: 1400, height: 900 } });

test('customers: add one, open it, rename it, and a change made elsewhere shows up live', async ({
  page,
  request,
}) => {
  const token = await adminToken(request);
  const suffix = Date.now().toString(36);
  await signIn(page);
  await page.goto('/customers');
  await expect(page.getByRole('heading', { name: 'Customers', level: 1 })).toBeVisible();

  await page.getByRole('button', { name: 'Add customer' }).click();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Name is required')).toBeVisible();
  await page.getByRole('textbox', { name: 'Name' }).fill(`Maple Grove ${suffix}`);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('heading', { name: `Maple Grove ${suffix}`, level: 1 })).toBeVisible();
  const id = page.url().split('/').pop()!;

  // A colleague renames it through the API: this page follows without a reload.
  await api(request, token, 'PUT', `/customers/${id}`, { name: `Maple Grove Academy ${suffix}` });
  await expect(page.getByRole('heading', { name: `Maple Grove Academy ${suffix}`, level: 1 })).toBeVisible();

  await page.getByRole('link', { name: '← Customers' }).click();
  await page.getByRole('searchbox', { name: 'Search customers' }).fill(`academy ${suffix}`);
  await expect(page.getByRole('table', { name: 'Customers' }).getByRole('row')).toHaveCount(2);
  await page.screenshot({ path: join(artifacts, 'customers-1400.png') });
});

test('one-page profiles: list with progress, edit a profile, and a progress above 100 is refused by the server', async ({
  page,
  request,
}) => {
  const token = await adminToken(request);
  const { suffix, profile } = await profiledStudent(request, token);

  await signIn(page);
  await page.goto('/users/one-page-profiles');
  await page.getByRole('searchbox', { name: 'Search students' }).fill(`Ash${suffix}`);
  const row = page.getByRole('row', { name: new RegExp(`Robin Ash${suffix}`) });
  await expect(row).toContainText('Likes to be called Rob');
  await expect(row.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '30');
  await row.click();
  await expect(page).toHaveURL(`${E2E_BASE_URL}/one-page-profiles/${profile.id}/details`);

  await page.getByRole('textbox', { name: 'Hobbies' }).fill('Climbing and chess');
  const slider = page.getByRole('slider');
  await slider.focus();
  for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowRight');
  await expect(page.getByText('How complete is this profile? 50%')).toBeVisible();
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText('Profile saved')).toBeVisible();
  await page.screenshot({ path: join(artifacts, 'one-page-profile-1400.png'), fullPage: true });

  const reread = await request.get(`${E2E_BASE_URL}/api/v1/one-page-profiles/${profile.id}`, {
    headers: { RequestVerificationToken: token },
  });
  expect(await reread.json()).toMatchObject({ hobbies: 'Climbing and chess', progress: 50 });
  const refused = await request.put(`${E2E_BASE_URL}/api/v1/one-page-profiles/${profile.id}`, {
    headers: { RequestVerificationToken: token },
    data: { progress: 101 },
  });
  expect(refused.status()).toBe(422);
});
