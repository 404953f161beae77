import { expect, test, type Page } from '@playwright/test';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { adminToken, api, createUser, deleteUsers, signInAsAdmin } from './support/portal-api.js';

const artifacts = join(dirname(fileURLToPath(import.meta.url)), '.artifacts');

interface History {
  items: { type: string; actor_id: string | null; impersonator_id: string | null }[];
}

const timeline = (page: Page) =>
  page.getByRole('list', { name: 'History' }).or(page.locator('[aria-label="History"]'));

/**
 * Impersonation end to end against the real server (spec §4; docs/decisions/0012): the administrator
 * gets a session of a teacher from POST /api/v1/login/{id}/access-token, works as her, stops, and what
 * she did while impersonated names the administrator in her audit history.
 */
test('an administrator signs in as a teacher, acts as her, stops, and the audit names the impersonator', async ({
  page,
  request,
}) => {
  const admin = await adminToken(request);
  const me = await api<{ id: string }>(request, admin, 'GET', '/api/v1/users/me');
  // A fresh teacher per attempt: a retry must not find the name changed by the first one.
  const login = `ivy.${Date.now().toString(36)}@example.com`;
  const ivyId = await createUser(request, admin, {
    email: login,
    first_name: 'Ivy',
    last_name: 'Impersonated',
    user_type: 'teacher',
    password: 'ivy passphrase',
  });

  try {
    await signInAsAdmin(page);
    const ownToken = await page.evaluate(() => localStorage.getItem('token'));
    await page.goto(`/users/${ivyId}/details`);
    const issued = page.waitForResponse(
      (r) => r.url().endsWith(`/api/v1/login/${ivyId}/access-token`) && r.request().method() === 'POST',
    );
    await page.getByRole('button', { name: 'Sign in as' }).click();
    await page
      .getByRole('dialog', { name: 'Sign in as this user' })
      .getByRole('button', { name: 'Sign in as' })
      .click();
    expect((await issued).status()).toBe(200);

    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(
      page.getByRole('status').filter({ hasText: 'You are signed in as Ivy Impersonated' }),
    ).toBeVisible();
    await expect(page.getByRole('button', { name: /Account menu for Ivy Impersonated/ })).toBeVisible();
    const ivyToken = await page.evaluate(() => localStorage.getItem('token'));
    expect(ivyToken).not.toBe(ownToken);
    expect(JSON.parse((await page.evaluate(() => localStorage.getItem('admin_token')))!)).toMatchObject({
      value: ownToken,
    });
    // The issued session is Ivy's own, on the server too.
    expect((await api<{ id: string }>(request, ivyToken!, 'GET', '/api/v1/users/me')).body.id).toBe(ivyId);
    await page.screenshot({ path: join(artifacts, 'impersonating.png') });

    // Working as Ivy: she changes her name on her profile.
    await page.goto('/profile');
    const name = page.getByRole('form', { name: 'Name' });
    await name.getByRole('textbox', { name: 'Last name' }).fill('Renamed');
    await name.getByRole('button', { name: 'Save name' }).click();
    await expect(page.getByText('Your name has been saved.')).toBeVisible();

    await page.getByRole('button', { name: 'Stop impersonating' }).click();
    await expect(page).toHaveURL(/\/users$/);
    await expect(page.getByRole('button', { name: /Account menu for Portal Administrator/ })).toBeVisible();
    await expect(page.getByText('You are signed in as')).toHaveCount(0);
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBe(ownToken);
    expect(await page.evaluate(() => localStorage.getItem('admin_token'))).toBeNull();
    // Stopping ended the impersonation session on the server (decision 0039); the administrator's lives on.
    await expect
      .poll(async () => (await api(request, ivyToken!, 'GET', '/api/v1/users/me')).status)
      .toBe(401);
    expect((await api(request, ownToken!, 'GET', '/api/v1/users/me')).status).toBe(200);

    // The event Ivy's session wrote carries the administrator as impersonator.
    const history = await api<History>(request, admin, 'GET', `/api/v1/audit/users/${ivyId}/history`);
    const renamed = history.body.items.find((e) => e.type === 'UserProfileUpdated');
    expect(renamed).toMatchObject({ actor_id: ivyId, impersonator_id: me.body.id });
    expect(history.body.items.find((e) => e.type === 'UserCreated')).toMatchObject({ impersonator_id: null });

    await page.goto(`/users/${ivyId}/audit`);
    await expect(
      timeline(page).locator('.mantine-Timeline-item').filter({ hasText: 'impersonation started' }),
    ).toContainText('by Portal Administrator');
    const entry = timeline(page).locator('.mantine-Timeline-item').filter({ hasText: 'Profile updated' });
    await expect(entry).toContainText('by Ivy Renamed · impersonated by Portal Administrator');
    await page.screenshot({ path: join(artifacts, 'impersonation-audit.png'), fullPage: true });
  } finally {
    await deleteUsers(request, admin, [ivyId]);
  }
});
