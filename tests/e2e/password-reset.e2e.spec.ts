import { expect, test, type APIRequestContext } from '@playwright/test';
import { E2E_BASE_URL, SUPERUSER } from './support/env.js';

const TEACHER = 'forgetful.teacher@example.com';

async function adminToken(request: APIRequestContext): Promise<string> {
  const res = await request.post(`${E2E_BASE_URL}/api/v1/login/access-token`, {
    form: { username: SUPERUSER.email, password: SUPERUSER.password },
  });
  expect(res.status()).toBe(200);
  return ((await res.json()) as { access_token: string }).access_token;
}

test('a user who forgot their password gets a link by e-mail and chooses a new one', async ({
  page,
  request,
}) => {
  const admin = await adminToken(request);
  const created = await request.post(`${E2E_BASE_URL}/api/v1/users/`, {
    headers: { RequestVerificationToken: admin },
    data: {
      email: TEACHER,
      first_name: 'Fay',
      last_name: 'Forgetful',
      user_type: 'teacher',
      password: 'first passphrase',
    },
  });
  expect([201, 409]).toContain(created.status());

  await page.goto('/login');
  await page.getByRole('link', { name: 'Forgot your password?' }).click();
  await expect(page).toHaveURL(/\/passwordreset$/);
  await page.getByRole('textbox', { name: 'Email' }).fill(TEACHER);
  await page.getByRole('button', { name: 'Send recovery link' }).click();
  await expect(page.getByRole('heading', { name: 'Check your e-mail' })).toBeVisible();

  // Without SMTP_URL the mail is kept in the outbox, which administrators can read.
  let link = '';
  await expect
    .poll(async () => {
      const res = await request.get(`${E2E_BASE_URL}/api/v1/mail-outbox`, {
        headers: { RequestVerificationToken: admin },
      });
      const mails = ((await res.json()) as { items: { to_address: string; body_text: string }[] }).items;
      const mail = mails.find((m) => m.to_address === TEACHER);
      link = /\/passwordreset\?token=[A-Za-z0-9_-]{43}/.exec(mail?.body_text ?? '')?.[0] ?? '';
      return link;
    })
    .not.toBe('');

  await page.goto(link);
  await page.getByRole('textbox', { name: 'New password', exact: true }).fill('short');
  await page.getByRole('textbox', { name: 'Repeat the new password' }).fill('short');
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByText('Use at least 8 characters')).toBeVisible();

  await page.getByRole('textbox', { name: 'New password', exact: true }).fill('second passphrase');
  await page.getByRole('textbox', { name: 'Repeat the new password' }).fill('second passphrase');
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByRole('heading', { name: 'Password changed' })).toBeVisible();

  // The link works once.
  await page.goto(link);
  await page.getByRole('textbox', { name: 'New password', exact: true }).fill('third passphrase');
  await page.getByRole('textbox', { name: 'Repeat the new password' }).fill('third passphrase');
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByRole('alert')).toContainText('invalid or has expired');

  const signIn = await request.post(`${E2E_BASE_URL}/api/v1/login/access-token`, {
    form: { username: TEACHER, password: 'second passphrase' },
  });
  expect(signIn.status()).toBe(200);
});
