import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { adminToken, api, createCustomer, tokenFor } from './support/portal-api.js';

/**
 * The account screens (issue 5): activation and partner registration from mailed single-use links, and the
 * signed-in user's own profile (each setting saved by its own call, the notification e-mail confirmed
 * through its mailed link), against the real server in Chromium.
 */

const artifacts = join(dirname(fileURLToPath(import.meta.url)), '.artifacts');
const shot = (page: Page, name: string) =>
  page.screenshot({ path: join(artifacts, `${name}.png`), fullPage: true });

/** The newest mailed link to `to` whose path matches `route` (the outbox keeps mails without SMTP). */
async function mailedLink(request: APIRequestContext, admin: string, to: string, route: string) {
  let link = '';
  const pattern = new RegExp(`${route.replace(/[/?]/g, '\\$&')}\\?token=[A-Za-z0-9_-]{43}`);
  await expect
    .poll(async () => {
      const res = await api<{ items: { to_address: string; body_text: string }[] }>(
        request,
        admin,
        'GET',
        '/api/v1/mail-outbox',
      );
      const mail = res.body.items.find((m) => m.to_address === to && pattern.test(m.body_text));
      link = pattern.exec(mail?.body_text ?? '')?.[0] ?? '';
      return link;
    })
    .not.toBe('');
  return link;
}

/** Other e2e files count users and permission holders: take this file's users out again (soft delete). */
async function removeUser(request: Parameters<typeof adminToken>[0], admin: string, id: string) {
  expect((await api(request, admin, 'DELETE', `/api/v1/users/${id}`)).status).toBe(200);
}

test('a user created without a password activates the account through the mailed link, once', async ({
  page,
  request,
}) => {
  const admin = await adminToken(request);
  const email = 'ada.active@account.example';
  const created = await api(request, admin, 'POST', '/api/v1/users/', {
    email,
    first_name: 'Ada',
    last_name: 'Active',
    user_type: 'teacher',
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const link = await mailedLink(request, admin, email, '/activate');

  await page.goto(link);
  await expect(page.getByRole('heading', { name: 'Welcome, Ada Active' })).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Email' })).toHaveValue(email);
  await page.getByRole('textbox', { name: 'New password', exact: true }).fill('short');
  await page.getByRole('textbox', { name: 'Repeat the new password' }).fill('other');
  await page.getByRole('button', { name: 'Activate account' }).click();
  await expect(page.getByText('Use at least 8 characters')).toBeVisible();
  await expect(page.getByText('The two passwords do not match')).toBeVisible();
  await shot(page, 'account-activate-errors');

  await page.getByRole('textbox', { name: 'New password', exact: true }).fill('Activated-2026!');
  await page.getByRole('textbox', { name: 'Repeat the new password' }).fill('Activated-2026!');
  await page.getByRole('button', { name: 'Activate account' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('status', { name: 'All set' })).toContainText('Your account is active');
  await expect(page.getByRole('textbox', { name: 'Email' })).toHaveValue(email);
  await shot(page, 'account-activate-login-notice');

  // The new password signs in, through the form the user lands on.
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill('Activated-2026!');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard/);
  expect(await tokenFor(request, email, 'Activated-2026!')).toBeTruthy();

  // The link works once; a missing token is just as invalid.
  const anonymous = await page.context().browser()!.newPage();
  await anonymous.goto(link);
  await expect(anonymous).toHaveURL(/\/activate\/invalid-token$/);
  await expect(anonymous.getByRole('heading', { name: 'This link is invalid or has expired' })).toBeVisible();
  await anonymous.goto('/activate');
  await expect(anonymous).toHaveURL(/\/activate\/invalid-token$/);
  await anonymous.close();
  await removeUser(request, admin, (created.body as { id: string }).id);
});

test('an invited partner registers through the invitation link, once', async ({ page, request }) => {
  const admin = await adminToken(request);
  const customer = await createCustomer(request, admin, 'Birchwood Invitation School');
  const email = 'priya.invited@account.example';
  const invited = await api(request, admin, 'POST', '/api/v1/customer-invitations', {
    email,
    customer_id: customer,
    customer_type: 'admin',
  });
  expect(invited.status, JSON.stringify(invited.body)).toBe(201);
  const link = await mailedLink(request, admin, email, '/register/partner/invite');

  await page.goto(link);
  await expect(page.getByRole('heading', { name: 'Create your account' })).toBeVisible();
  await expect(
    page.getByText('You are invited as System Administrator for Birchwood Invitation School'),
  ).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Email' })).toHaveValue(email);
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByText('Enter your first name')).toBeVisible();
  await expect(page.getByText('Enter your last name')).toBeVisible();
  await page.getByRole('textbox', { name: 'First name' }).fill('Priya');
  await page.getByRole('textbox', { name: 'Last name' }).fill('Invited');
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill('Invited-2026!');
  await page.getByRole('textbox', { name: 'Repeat the password' }).fill('Invited-2026!');
  await shot(page, 'account-register-partner');
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('status', { name: 'All set' })).toContainText('Your account has been created');

  const partner = await tokenFor(request, email, 'Invited-2026!');
  const me = await api<{
    id: string;
    first_name: string;
    last_name: string;
    user_type: string;
    customer_id: string;
  }>(request, partner, 'GET', '/api/v1/users/me');
  expect(me.body).toMatchObject({
    first_name: 'Priya',
    last_name: 'Invited',
    user_type: 'partner',
    customer_id: customer,
  });

  await page.goto(link);
  await expect(page).toHaveURL(/\/register\/partner\/invalid-token$/);
  await expect(page.getByRole('heading', { name: 'This link is invalid or has expired' })).toBeVisible();
  await removeUser(request, admin, me.body.id);
});

test('the profile saves each setting, updates the timezone banner and confirms the notification e-mail', async ({
  page,
  request,
}) => {
  const admin = await adminToken(request);
  // Spec §6: creating a network needs admin plus the network permission.
  const networker = await api(request, admin, 'POST', '/api/v1/users/', {
    email: 'net.admin@account.example',
    first_name: 'Nia',
    last_name: 'Networks',
    user_type: 'super_admin',
    password: 'Networks-2026!',
    permissions: ['CAN_MODIFY_NETWORK'],
  });
  expect(networker.status, JSON.stringify(networker.body)).toBe(201);
  const networkAdmin = await tokenFor(request, 'net.admin@account.example', 'Networks-2026!');
  let networkId = '';
  await expect
    .poll(async () => {
      const res = await api<{ id: string }>(request, networkAdmin, 'POST', '/api/v1/networks', {
        name: 'London Account Network',
        timezone: 'Europe/London',
        primary_colour: '#0f716c',
      });
      networkId = res.body.id;
      return res.status;
    })
    .toBe(201);
  const email = 'tom.profile@account.example';
  const password = 'Profile-2026!';
  const created = await api(request, admin, 'POST', '/api/v1/users/', {
    email,
    first_name: 'Tom',
    last_name: 'Profile',
    user_type: 'teacher',
    password,
    network_id: networkId,
    timezone: 'Europe/London',
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);

  await page.goto('/login');
  await page.getByRole('textbox', { name: 'Email' }).fill(email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard/);
  await page.goto('/profile');
  await expect(page.getByRole('heading', { name: 'Your profile' })).toBeVisible();
  await expect(page.getByText(/apart from/)).toHaveCount(0);

  // Names.
  const names = page.getByRole('form', { name: 'Name' });
  await names.getByRole('textbox', { name: 'First name' }).fill('');
  await names.getByRole('button', { name: 'Save name' }).click();
  await expect(names.getByText('Enter your first name')).toBeVisible();
  await names.getByRole('textbox', { name: 'First name' }).fill('Thomas');
  await names.getByRole('textbox', { name: 'Last name' }).fill('Profiled');
  await names.getByRole('button', { name: 'Save name' }).click();
  await expect(page.getByText('Your name has been saved.')).toBeVisible();

  // Time zone: a searchable list; saving refreshes the session, so the mismatch banner appears.
  const zone = page.getByRole('form', { name: 'Time zone' });
  await zone.getByRole('combobox', { name: 'Time zone' }).fill('Asia/Tok');
  await page.getByRole('option', { name: 'Asia/Tokyo' }).click();
  await zone.getByRole('button', { name: 'Save time zone' }).click();
  await expect(page.getByText('Your time zone has been saved.')).toBeVisible();
  await expect(page.getByText(/Your timezone is 9 hours apart from London Account Network/)).toBeVisible();

  // Birth date: typed as dd.MM.yyyy.
  const birth = page.getByRole('form', { name: 'Birth date' });
  await birth.getByRole('textbox', { name: 'Birth date' }).fill('14.03.1990');
  await birth.getByRole('textbox', { name: 'Birth date' }).blur();
  await birth.getByRole('button', { name: 'Save birth date' }).click();
  await expect(page.getByText('Your birth date has been saved.')).toBeVisible();
  await expect(birth.getByText('Saved: 14.03.1990')).toBeVisible();

  // Lessons per week: 0–50.
  const lessons = page.getByRole('form', { name: 'Lessons per week' });
  const lessonsInput = lessons.getByRole('textbox', { name: 'Requested number of lessons per week' });
  await lessonsInput.fill('51');
  await lessons.getByRole('button', { name: 'Save lessons' }).click();
  await expect(lessons.getByText('Enter a whole number from 0 to 50')).toBeVisible();
  await lessonsInput.fill('3');
  await lessons.getByRole('button', { name: 'Save lessons' }).click();
  await expect(page.getByText('Your requested number of lessons has been saved.')).toBeVisible();

  // Weekly summary switch.
  await page.getByRole('switch', { name: 'Receive the weekly summary reports by e-mail' }).click();
  await expect(page.getByText('Your weekly summary setting has been saved.')).toBeVisible();
  await expect(
    page.getByRole('switch', { name: 'Receive the weekly summary reports by e-mail' }),
  ).toBeChecked();

  // Notification e-mail: pending until the mailed link is opened while signed in.
  const notify = page.getByRole('form', { name: 'Notification e-mail' });
  await notify.getByRole('textbox', { name: 'New notification e-mail' }).fill('not-an-address');
  await notify.getByRole('button', { name: 'Send confirmation link' }).click();
  await expect(notify.getByText('Enter a valid e-mail address')).toBeVisible();
  await notify.getByRole('textbox', { name: 'New notification e-mail' }).fill('tom.home@account.example');
  await notify.getByRole('button', { name: 'Send confirmation link' }).click();
  await expect(page.getByTestId('pending-notification-email')).toContainText('tom.home@account.example');
  await shot(page, 'account-profile-pending');

  const link = await mailedLink(request, admin, 'tom.home@account.example', '/profile');
  await page.goto(link);
  await expect(page.getByText('Notification e-mail confirmed')).toBeVisible();
  await expect(page).toHaveURL(/\/profile$/);
  await expect(page.getByTestId('notification-email')).toHaveText('tom.home@account.example');
  await expect(page.getByTestId('pending-notification-email')).toHaveCount(0);
  await shot(page, 'account-profile-confirmed');

  // Everything persisted (read back through the API).
  const token = await tokenFor(request, email, password);
  const me = await api<Record<string, unknown>>(request, token, 'GET', '/api/v1/users/me');
  expect(me.body).toMatchObject({
    first_name: 'Thomas',
    last_name: 'Profiled',
    timezone: 'Asia/Tokyo',
    birth_date: '1990-03-14',
    requested_number_of_lessons_per_week: 3,
    receive_weekly_summary_reports: true,
    notification_email: 'tom.home@account.example',
    pending_notification_email: null,
  });

  // The confirmation link works once.
  await page.goto(link);
  await expect(page.getByRole('alert').filter({ hasText: 'The address was not confirmed' })).toContainText(
    'invalid, has already been used or has expired',
  );
  await removeUser(request, admin, (created.body as { id: string }).id);
});
