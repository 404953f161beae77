import { expect, test, type ConsoleMessage, type Page } from '@playwright/test';
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

/**
 * Collects Content-Security-Policy violations: the `securitypolicyviolation` events of every document
 * the page loads, and Chromium's console reports ("Refused to ... because it violates ...").
 */
async function watchCsp(page: Page): Promise<() => Promise<string[]>> {
  const console: string[] = [];
  page.on('console', (message: ConsoleMessage) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) console.push(message.text());
  });
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (e) =>
      seen.push(`${e.violatedDirective} ${e.blockedURI}`),
    );
  });
  return async () => [
    ...console,
    ...(await page.evaluate(() => (window as unknown as { cspViolations?: string[] }).cspViolations ?? [])),
  ];
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

test('the login page, the portal with its live and collaboration sockets, and Swagger UI run under the CSP', async ({
  page,
}) => {
  const violations = await watchCsp(page);
  const answer = await page.goto('/login');
  const csp = answer?.headers()['content-security-policy'] ?? '';
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).toContain("script-src 'self'");
  expect(answer?.headers()['referrer-policy']).toBe('no-referrer');
  await expect(page.getByRole('heading', { name: 'Sign in', exact: true })).toBeVisible();
  expect(await violations()).toEqual([]);

  // Signed in: Mantine's injected styles, the dashboard and the /live websocket.
  const { email, password, submit } = loginForm(page);
  await email.fill(SUPERUSER.email);
  await password.fill(SUPERUSER.password);
  await submit.click();
  await expect(page).toHaveURL(HOME_URL);
  await expect(page.getByRole('status', { name: 'Live connection: Live' })).toBeVisible();
  // A y-websocket connection to /collab is allowed by connect-src (the document kind does not exist:
  // the server refuses the upgrade, which is not a CSP matter).
  const collabAllowed = await page.evaluate(
    () =>
      new Promise<boolean>((resolve) => {
        try {
          const ws = new WebSocket(`ws://${location.host}/collab/none:none`);
          ws.onerror = () => resolve(true);
          ws.onopen = () => {
            ws.close();
            resolve(true);
          };
        } catch {
          resolve(false);
        }
      }),
  );
  expect(collabAllowed).toBe(true);
  expect(await violations()).toEqual([]);

  // Swagger UI: its scripts are files, its inline styles are allowed.
  await page.goto('/api/docs');
  await expect(page.locator('.swagger-ui .info .title')).toContainText('Tutoring Portal API');
  await expect(page.getByText('/api/v1/login/access-token').first()).toBeVisible();
  expect(await violations()).toEqual([]);
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

test('the right credentials open the portal, and logging out ends the session and returns to the login page', async ({
  page,
  request,
}) => {
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
  const token = await storedItem(page, 'token');
  const loggedOut = page.waitForResponse(
    (r) => r.url().endsWith('/api/v1/logout') && r.request().method() === 'POST',
  );
  await page.getByRole('button', { name: /Account menu/ }).click();
  await page.getByRole('menuitem', { name: 'Log out' }).click();
  expect((await loggedOut).status()).toBe(204);
  await expect(page).toHaveURL(LOGIN_URL);
  // The server ended the session: the old token is refused (decision 0039).
  const refused = await request.get('/api/v1/users/me', { headers: { RequestVerificationToken: token! } });
  expect(refused.status()).toBe(401);
  await expect(page.getByRole('heading', { name: 'Sign in', exact: true })).toBeVisible();
  expect(await storedItem(page, 'token')).toBeNull();
  expect(await storedItem(page, 'cache_tutors')).toBeNull();
  expect(await storedItem(page, 'browser_notifications_agreement')).toBe('true');
  expect(await storedItem(page, 'half-term-reminder-modal-last-displayed-at')).toBe('"2026-11-01"');

  await page.goto('/');
  await expect(page).toHaveURL(LOGIN_URL);
});

test('logging out still signs out here when the server cannot be reached', async ({ page }) => {
  await page.goto('/login');
  const { email, password, submit } = loginForm(page);
  await email.fill(SUPERUSER.email);
  await password.fill(SUPERUSER.password);
  await submit.click();
  await expect(page).toHaveURL(HOME_URL);
  let attempts = 0;
  await page.route('**/api/v1/logout', (route) => {
    attempts += 1;
    return route.abort('connectionrefused');
  });
  await page.getByRole('button', { name: /Account menu/ }).click();
  await page.getByRole('menuitem', { name: 'Log out' }).click();
  await expect(page).toHaveURL(LOGIN_URL);
  expect(attempts).toBe(1);
  expect(await storedItem(page, 'token')).toBeNull();
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
