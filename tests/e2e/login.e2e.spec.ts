import { expect, test, type Page } from '@playwright/test';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { E2E_BASE_URL, SUPERUSER } from './support/env.js';

const artifacts = join(dirname(fileURLToPath(import.meta.url)), '.artifacts');
const LOGIN_URL = `${E2E_BASE_URL}/login`;
const HOME_URL = `${E2E_BASE_URL}/dashboard`;

function loginForm(page: Page) {
  return {
    email: page.getByRole('textbox', { name: 'Email' }),
    password: page.getByRole('textbox', { name: 'Password', exact: true }),
    toggle: page.getByRole('button', { name: 'Show password' }),
    submit: page.getByRole('button', { name: 'Sign in', exact: true }),
    alert: page.getByRole('alert'),
  };
}

function storedItem(page: Page, key: string): Promise<string | null> {
  return page.evaluate((name) => window.localStorage.getItem(name), key);
}

test('a visitor without a session is sent from / to the login page', async ({ page }) => {
  await page.goto('/');
  await expect(page).toHaveURL(LOGIN_URL);
  await expect(page).toHaveTitle('Sign in · Tutoring Portal');
  await expect(page.getByRole('heading', { name: 'Sign in', exact: true })).toBeVisible();
  await expect(page.getByText('Tutoring Portal').first()).toBeVisible();
  const { email, password, submit } = loginForm(page);
  await expect(email).toBeFocused();
  await expect(password).toHaveAttribute('type', 'password');
  await expect(submit).toBeEnabled();
  await page.screenshot({ path: join(artifacts, 'login.png'), fullPage: true });
});

test('the form is keyboard operable and shows the server detail for a wrong password', async ({ page }) => {
  await page.goto('/login');
  const { email, password, toggle, alert } = loginForm(page);

  await expect(email).toBeFocused();
  await page.keyboard.type(SUPERUSER.email);
  await page.keyboard.press('Tab');
  await expect(password).toBeFocused();
  await page.keyboard.type('not-the-password');

  // The visibility toggle is reachable with Tab and operable with Space.
  await page.keyboard.press('Tab');
  await expect(toggle).toBeFocused();
  await page.keyboard.press('Space');
  await expect(password).toHaveAttribute('type', 'text');
  await expect(toggle).toHaveAttribute('aria-pressed', 'true');
  await page.keyboard.press('Space');
  await expect(password).toHaveAttribute('type', 'password');

  // Enter submits from the password field.
  await page.keyboard.press('Shift+Tab');
  await expect(password).toBeFocused();
  await page.keyboard.press('Enter');

  await expect(alert).toContainText('Incorrect email or password');
  await expect(page).toHaveURL(LOGIN_URL);
  await expect(password).toBeFocused(); // ready to retype
  expect(await storedItem(page, 'token')).toBeNull();
});

test('empty fields are flagged on the form without calling the server', async ({ page }) => {
  let calls = 0;
  await page.route('**/api/v1/login/access-token', (route) => {
    calls += 1;
    return route.continue();
  });
  await page.goto('/login');
  await page.keyboard.press('Enter');
  await expect(page.getByText('Enter your email address')).toBeVisible();
  await expect(loginForm(page).email).toBeFocused();
  expect(calls).toBe(0);
});

test('the right credentials open the portal, and logging out returns to the login page', async ({ page }) => {
  await page.goto('/login');
  const { email, password, submit } = loginForm(page);
  await email.fill(SUPERUSER.email);
  await password.fill(SUPERUSER.password);
  await submit.click();

  await expect(page).toHaveURL(HOME_URL);
  await expect(page.getByRole('heading', { level: 1 })).toContainText(/Good (morning|afternoon|evening)/);
  expect(await storedItem(page, 'token')).toBeTruthy();

  // The session survives a reload, and the login page sends a signed-in user on to the portal.
  await page.reload();
  await expect(page.getByRole('navigation', { name: 'Portal areas' })).toBeVisible();
  await page.goto('/login');
  await expect(page).toHaveURL(HOME_URL);

  // Logout clears storage except the two keys the spec keeps.
  await page.evaluate(() => {
    localStorage.setItem('browser_notifications_agreement', 'true');
    localStorage.setItem('half-term-reminder-modal-last-displayed-at', '"2026-11-01"');
    localStorage.setItem('cache_tutors', '{"value":[]}');
  });
  await page.getByRole('button', { name: /Account menu/ }).click();
  await page.getByRole('menuitem', { name: 'Log out' }).click();
  await expect(page).toHaveURL(LOGIN_URL);
  await expect(page.getByRole('heading', { name: 'Sign in', exact: true })).toBeVisible();
  expect(await storedItem(page, 'token')).toBeNull();
  expect(await storedItem(page, 'cache_tutors')).toBeNull();
  expect(await storedItem(page, 'browser_notifications_agreement')).toBe('true');
  expect(await storedItem(page, 'half-term-reminder-modal-last-displayed-at')).toBe('"2026-11-01"');

  await page.goto('/');
  await expect(page).toHaveURL(LOGIN_URL);
});

test('the button shows progress, and an unreachable portal is explained', async ({ page }) => {
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/v1/login/access-token', async (route) => {
    await held;
    await route.abort('connectionrefused');
  });
  await page.goto('/login');
  const { email, password, submit, alert } = loginForm(page);
  await email.fill(SUPERUSER.email);
  await password.fill(SUPERUSER.password);
  await password.press('Enter');

  await expect(submit).toHaveAttribute('data-loading', 'true');
  await expect(submit).toBeDisabled();
  release();
  await expect(alert).toContainText('The portal could not be reached');
  await expect(submit).toBeEnabled();

  // A server error (5xx) is explained the same way.
  await page.unrouteAll();
  await page.route('**/api/v1/login/access-token', (route) =>
    route.fulfill({ status: 502, contentType: 'text/html', body: '<h1>Bad Gateway</h1>' }),
  );
  const answered = page.waitForResponse('**/api/v1/login/access-token');
  await submit.click();
  expect((await answered).status()).toBe(502);
  await expect(alert).toContainText('The portal could not be reached');
  await expect(page).toHaveURL(LOGIN_URL);
});

test('unknown routes show the not-found page', async ({ page }) => {
  await page.goto('/no-such-page');
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  await page.goto('/notfound');
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  await page.goto('/forbidden');
  await expect(page.getByRole('heading', { name: 'Access denied' })).toBeVisible();
});
