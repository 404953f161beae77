import { expect, test, type Browser, type Page } from '@playwright/test';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { adminToken, api, createUser, signedIn, signInAsAdmin } from './support/portal-api.js';

const artifacts = join(dirname(fileURLToPath(import.meta.url)), '.artifacts');

// Unique per worker: a retry runs beforeAll again after afterAll took the user out (soft delete keeps
// the e-mail taken).
const TEACHER = {
  email: `liv.live.${Date.now().toString(36)}@tutors.example`,
  password: 'Live-Session-2026!',
};
let token = '';
let teacherId = '';

test.describe.configure({ mode: 'serial' });
test.use({ viewport: { width: 1400, height: 1000 } });

test.beforeAll(async ({ request }) => {
  token = await adminToken(request);
  teacherId = await createUser(request, token, {
    email: TEACHER.email,
    first_name: 'Liv',
    last_name: 'Live',
    user_type: 'teacher',
    password: TEACHER.password,
  });
});

// Other e2e files count teachers: take ours out again (soft delete).
test.afterAll(async ({ request }) => {
  if (teacherId) await api(request, token, 'DELETE', `/api/v1/users/${teacherId}`).catch(() => undefined);
});

/** The teacher, signed in through the form in a browser context of their own. */
async function teacherPage(browser: Browser): Promise<Page> {
  const page = await signedIn(browser, TEACHER.email, TEACHER.password);
  await expect(page.getByRole('status', { name: 'Live connection: Live' })).toBeVisible();
  return page;
}

test('an administrator blocks a user from the users list; the user, signed in elsewhere, is sent to Login', async ({
  page,
  browser,
}) => {
  const teacher = await teacherPage(browser);

  await signInAsAdmin(page);
  await page.goto('/users/teachers');
  await page.getByRole('searchbox', { name: 'Search' }).fill('Liv Live');
  await page.getByRole('row', { name: /Liv Live/ }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Liv Live' })).toBeVisible();
  const account = page.getByRole('heading', { name: 'Account' }).locator('..');
  await account.getByRole('button', { name: 'Block' }).click();
  const dialog = page.getByRole('dialog', { name: 'Block user' });
  await dialog.getByRole('button', { name: 'Block user' }).click();
  await expect(dialog).toBeHidden();

  // The teacher's open tab is signed out without any action of theirs (live session end, within seconds).
  await expect(teacher).toHaveURL(/\/login$/, { timeout: 5000 });
  expect(await teacher.evaluate(() => window.localStorage.getItem('token'))).toBeNull();
  await teacher.screenshot({ path: join(artifacts, 'blocked-user-sent-to-login.png') });
  // …and cannot sign in again while blocked.
  await teacher.getByRole('textbox', { name: 'Email' }).fill(TEACHER.email);
  await teacher.getByRole('textbox', { name: 'Password', exact: true }).fill(TEACHER.password);
  await teacher.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(teacher.getByRole('alert')).toBeVisible();
  await expect(teacher).toHaveURL(/\/login$/);

  await account.getByRole('button', { name: 'Unblock' }).click();
  await page
    .getByRole('dialog', { name: 'Unblock user' })
    .getByRole('button', { name: 'Unblock user' })
    .click();
  await teacher.context().close();
});

test('a permission given or taken by an administrator reaches the signed-in user live', async ({
  browser,
}) => {
  const teacher = await teacherPage(browser);
  await teacher.goto('/homeworks');
  await expect(teacher.getByText('No access', { exact: true })).toBeVisible();

  const grant = async (permissions: string[]) => {
    const res = await api(teacher.request, token, 'PUT', `/api/v1/users/${teacherId}/permissions`, {
      permissions,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  };

  // Given: the open screen opens up without a reload (the homeworks area itself is not built yet).
  await grant(['USER_IS_TEACHER', 'CAN_ACCESS_HOMEWORKS_PANEL']);
  await expect(teacher.getByText(/The Homeworks area is not built yet/)).toBeVisible({ timeout: 10_000 });

  // Taken: it closes again.
  await grant(['USER_IS_TEACHER']);
  await expect(teacher.getByText('No access', { exact: true })).toBeVisible({ timeout: 10_000 });
  await teacher.context().close();
});

test('the account menu changes the password: the current one is checked, then every session ends', async ({
  browser,
}) => {
  const teacher = await teacherPage(browser);
  const other = await teacherPage(browser);

  await teacher.getByRole('button', { name: /Account menu for Liv Live/ }).click();
  await teacher.getByRole('menuitem', { name: 'Change password' }).click();
  const form = teacher.getByRole('form', { name: 'Change password' });
  await expect(form).toBeVisible();
  await form.getByLabel('Current password').fill('not-my-password');
  await form.getByLabel('New password').first().fill('A-brand-new-2026!');
  await form.getByLabel('New password again').fill('A-brand-new-2026!');
  await form.getByRole('button', { name: 'Change password' }).click();
  await expect(form.getByText('Is not your current password')).toBeVisible();
  await teacher.screenshot({ path: join(artifacts, 'profile-change-password.png'), fullPage: true });

  await form.getByLabel('Current password').fill(TEACHER.password);
  await form.getByRole('button', { name: 'Change password' }).click();
  await expect(teacher).toHaveURL(/\/login$/);
  await expect(
    teacher.getByText('Your password has been changed. Sign in with the new password.'),
  ).toBeVisible();
  // The other open tab's session ended too (live session end).
  await expect(other).toHaveURL(/\/login$/, { timeout: 10_000 });

  await teacher.getByRole('textbox', { name: 'Password', exact: true }).fill('A-brand-new-2026!');
  await teacher.getByRole('textbox', { name: 'Email' }).fill(TEACHER.email);
  await teacher.getByRole('button', { name: 'Sign in', exact: true }).click();
  // Signed in with the new password (back in the portal).
  await expect(teacher.getByRole('button', { name: /Account menu for Liv Live/ })).toBeVisible();
  await teacher.context().close();
  await other.context().close();
});
