import { expect, test, type Page } from '@playwright/test';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { adminToken, api, createUser, signInAsAdmin } from './support/portal-api.js';

const artifacts = join(dirname(fileURLToPath(import.meta.url)), '.artifacts');
const DATE_TIME = /\d{2}\.\d{2}\.\d{4} \d{2}:\d{2}/;

let userId = '';

test.use({ viewport: { width: 1400, height: 1000 } });

test.beforeAll(async ({ request }) => {
  const token = await adminToken(request);
  userId = await createUser(request, token, {
    email: 'audrey.audit@example.com',
    first_name: 'Audrey',
    last_name: 'Audit',
    user_type: 'teacher',
  });
  for (const [path, body] of [
    [`/api/v1/users/${userId}/block`, undefined],
    [`/api/v1/users/${userId}/unblock`, undefined],
    [`/api/v1/users/${userId}/permissions`, { permissions: ['USER_IS_TEACHER', 'CAN_BLOCK_USERS'] }],
    [`/api/v1/users/${userId}`, { last_name: 'Audit-Jones' }],
  ] as const) {
    const res = await api(request, token, 'PUT', path, body);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }
});

const timeline = (page: Page) =>
  page.getByRole('list', { name: 'History' }).or(page.locator('[aria-label="History"]'));
const stateAt = (page: Page) => page.locator('[aria-label="Account at this point"]');
const effective = (page: Page) => page.locator('[aria-label="Effective permissions"]');

test('the audit screen: timeline with who and when, a slider back in time, and live events', async ({
  page,
  request,
}) => {
  await signInAsAdmin(page);
  await page.goto(`/users/${userId}/details`);
  await page.getByRole('link', { name: 'Audit' }).click();
  await expect(page).toHaveURL(new RegExp(`/users/${userId}/audit$`));
  await expect(page.getByRole('heading', { level: 1, name: 'Audrey Audit-Jones: history' })).toBeVisible();
  await expect(page).toHaveTitle('Audit · Audrey Audit-Jones · Tutoring Portal');

  const items = timeline(page).locator('.mantine-Timeline-item');
  await expect(items).toHaveCount(5);
  await expect(items.nth(0)).toContainText('Account created (audrey.audit@example.com)');
  await expect(items.nth(1)).toContainText('Account blocked');
  await expect(items.nth(2)).toContainText('Account unblocked');
  await expect(items.nth(3)).toContainText('Permissions changed: + Block Users');
  await expect(items.nth(4)).toContainText('Profile updated: last name');
  await expect(items.nth(1)).toContainText('by Portal Administrator');
  await expect(items.nth(1)).toContainText(DATE_TIME);

  // The slider starts at the latest event: the account as it is now.
  await expect(page.getByText('Account as it was after event 5 of 5')).toBeVisible();
  await expect(effective(page)).toContainText('Block Users');

  // Back to the first event with the keyboard: the state at that time is fetched and shown.
  const slider = page.getByRole('slider');
  await slider.focus();
  const first = page.waitForRequest((r) => r.url().includes(`/audit/users/${userId}/state?at=`));
  await page.keyboard.press('Home');
  await first;
  await expect(page.getByText('Account as it was after event 1 of 5')).toBeVisible();
  await expect(stateAt(page)).toContainText('Audrey Audit'); // before the rename
  await expect(stateAt(page)).not.toContainText('Audit-Jones');
  await expect(effective(page)).not.toContainText('Block Users');

  // One step on: the account was blocked then.
  await page.keyboard.press('ArrowRight');
  await expect(page.getByText('Account as it was after event 2 of 5')).toBeVisible();
  await expect(stateAt(page)).toContainText(/BlockedYes/);
  await page.screenshot({ path: join(artifacts, 'user-audit.png'), fullPage: true });

  // A timeline entry is a way to the same point.
  await items.nth(3).getByRole('button').click();
  await expect(page.getByText('Account as it was after event 4 of 5')).toBeVisible();
  await expect(effective(page)).toContainText('Block Users');
  await page.keyboard.press('End');

  // New events append live, and the slider follows the latest when it was there.
  await page.getByRole('button', { name: 'Profile updated: last name' }).click();
  await expect(page.getByText('Account as it was after event 5 of 5')).toBeVisible();
  const token = await adminToken(request);
  const blocked = await api(request, token, 'PUT', `/api/v1/users/${userId}/block`);
  expect(blocked.status).toBe(200);
  await expect(items).toHaveCount(6);
  await expect(items.nth(5)).toContainText('Account blocked');
  await expect(page.getByText('Account as it was after event 6 of 6')).toBeVisible();
  await expect(stateAt(page)).toContainText(/BlockedYes/);
});

test('the audit link and screen need the audit permission', async ({ page, request }) => {
  const token = await adminToken(request);
  const teacher = await createUser(request, token, {
    email: 'no.audit@example.com',
    first_name: 'Nora',
    last_name: 'Noaudit',
    user_type: 'teacher',
    password: 'teacher passphrase',
  });
  expect(teacher).toBeTruthy();
  await page.goto('/login');
  await page.getByRole('textbox', { name: 'Email' }).fill('no.audit@example.com');
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill('teacher passphrase');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto(`/users/${userId}/audit`);
  await expect(page.getByText('Your account does not have permission to open User audit.')).toBeVisible();
});
