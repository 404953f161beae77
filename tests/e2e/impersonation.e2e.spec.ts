import { expect, test } from '@playwright/test';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { adminToken, createUser, signInAsAdmin, tokenFor } from './support/portal-api.js';

const artifacts = join(dirname(fileURLToPath(import.meta.url)), '.artifacts');

/**
 * The client's half of impersonation (spec §4). POST /api/v1/login/{id}/access-token is not on this
 * branch yet, so its answer is stubbed with a real token of the target user (obtained by password);
 * everything after it — /users/me, the session switch, the kept admin token, stopping — is real.
 */
test('an administrator signs in as a user, sees the banner, and stops impersonating', async ({
  page,
  request,
}) => {
  const admin = await adminToken(request);
  const ivyId = await createUser(request, admin, {
    email: 'ivy.impersonated@example.com',
    first_name: 'Ivy',
    last_name: 'Impersonated',
    user_type: 'teacher',
    password: 'ivy passphrase',
  });
  const ivyToken = await tokenFor(request, 'ivy.impersonated@example.com', 'ivy passphrase');
  let asked = '';
  await page.route('**/api/v1/login/*/access-token', (route) => {
    asked = new URL(route.request().url()).pathname;
    return route.fulfill({
      status: 200,
      contentType: 'application/json',
      body: JSON.stringify({ access_token: ivyToken, token_type: 'bearer' }),
    });
  });

  await signInAsAdmin(page);
  const ownToken = await page.evaluate(() => localStorage.getItem('token'));
  await page.goto(`/users/${ivyId}/details`);
  await page.getByRole('button', { name: 'Sign in as' }).click();
  await page
    .getByRole('dialog', { name: 'Sign in as this user' })
    .getByRole('button', { name: 'Sign in as' })
    .click();

  expect(asked).toBe(`/api/v1/login/${ivyId}/access-token`);
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(
    page.getByRole('status').filter({ hasText: 'You are signed in as Ivy Impersonated' }),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: /Account menu for Ivy Impersonated/ })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBe(ivyToken);
  expect(JSON.parse((await page.evaluate(() => localStorage.getItem('admin_token')))!)).toMatchObject({
    value: ownToken,
  });
  await page.screenshot({ path: join(artifacts, 'impersonating.png') });

  await page.getByRole('button', { name: 'Stop impersonating' }).click();
  await expect(page).toHaveURL(/\/users$/);
  await expect(page.getByRole('button', { name: /Account menu for Portal Administrator/ })).toBeVisible();
  await expect(page.getByText('You are signed in as')).toHaveCount(0);
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBe(ownToken);
  expect(await page.evaluate(() => localStorage.getItem('admin_token'))).toBeNull();
});
