import { expect, test, type Page } from '@playwright/test';
import { addMonths } from 'date-fns';
import { formatInTimeZone, fromZonedTime } from 'date-fns-tz';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { adminToken, api, createCustomer, createUser, signInAsAdmin } from './support/portal-api.js';

const artifacts = join(dirname(fileURLToPath(import.meta.url)), '.artifacts');

let teacherId = '';
let partnerId = '';

test.describe.configure({ mode: 'serial' });
test.use({ viewport: { width: 1400, height: 1000 } });

test.beforeAll(async ({ request }) => {
  const token = await adminToken(request);
  const customer = await createCustomer(request, token, 'Detailton College');
  teacherId = await createUser(request, token, {
    email: 'dora.detail@example.com',
    first_name: 'Dora',
    last_name: 'Detail',
    user_type: 'teacher',
    timezone: 'America/New_York',
  });
  partnerId = await createUser(request, token, {
    email: 'pat.partner@detailton.example',
    first_name: 'Pat',
    last_name: 'Partner',
    user_type: 'partner',
    customer_id: customer,
    customer_type: 'admin',
  });
});

const account = (page: Page) => page.getByRole('heading', { name: 'Account' }).locator('..');

async function confirmIn(page: Page, title: string): Promise<void> {
  const dialog = page.getByRole('dialog', { name: title });
  await dialog.getByRole('button', { name: title }).click();
  await expect(dialog).toBeHidden();
}

test('details show the profile; contacts are added, edited and removed with field errors', async ({
  page,
}) => {
  await signInAsAdmin(page);
  await page.goto(`/users/${teacherId}/details`);
  await expect(page.getByRole('heading', { level: 1, name: 'Dora Detail' })).toBeVisible();
  await expect(page).toHaveTitle('Dora Detail · Tutoring Portal');
  await expect(page.getByText('Teacher', { exact: true }).first()).toBeVisible();
  await expect(page.getByText('America/New_York', { exact: true })).toBeVisible();
  await expect(page.getByText('No contacts yet.')).toBeVisible();
  await page.screenshot({ path: join(artifacts, 'user-details.png'), fullPage: true });

  await page.getByRole('button', { name: 'Add contact' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add contact' });
  await expect(dialog.getByRole('textbox', { name: 'Name' })).toBeFocused();
  await dialog.getByRole('button', { name: 'Add contact' }).click();
  await expect(dialog.getByText('Name should not be empty')).toBeVisible();
  await dialog.getByRole('textbox', { name: 'Name' }).fill('Morris Detail');
  await dialog.getByRole('textbox', { name: 'Relationship' }).fill('Father');
  await dialog.getByRole('textbox', { name: 'E-mail' }).fill('not-mail');
  await dialog.getByRole('button', { name: 'Add contact' }).click();
  await expect(dialog.getByText('Email must be an email')).toBeVisible();
  await dialog.getByRole('textbox', { name: 'E-mail' }).fill('morris@example.com');
  await dialog.getByRole('button', { name: 'Add contact' }).click();
  await expect(dialog).toBeHidden();
  const contacts = page.getByRole('table', { name: 'Contacts' });
  await expect(contacts.getByRole('row', { name: /Morris Detail/ })).toContainText('Father');

  await page.getByRole('button', { name: 'Edit contact Morris Detail' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit contact' });
  await edit.getByRole('textbox', { name: 'Phone' }).fill('+44 20 7946 0000');
  await edit.getByRole('button', { name: 'Save contact' }).click();
  await expect(edit).toBeHidden();
  await expect(contacts.getByRole('row', { name: /Morris Detail/ })).toContainText('+44 20 7946 0000');

  await page.getByRole('button', { name: 'Remove contact Morris Detail' }).click();
  await confirmIn(page, 'Remove contact');
  await expect(page.getByText('No contacts yet.')).toBeVisible();
});

test('block and unblock, quality issue with a reason, and a refused action explained in the dialog', async ({
  page,
}) => {
  await signInAsAdmin(page);
  await page.goto(`/users/${teacherId}/details`);
  await account(page).getByRole('button', { name: 'Block' }).click();
  await expect(page.getByRole('dialog', { name: 'Block user' })).toContainText(
    'cannot sign in until unblocked',
  );
  await confirmIn(page, 'Block user');
  await expect(page.getByText('Blocked', { exact: true })).toBeVisible();
  await account(page).getByRole('button', { name: 'Unblock' }).click();
  await confirmIn(page, 'Unblock user');
  await expect(page.getByText('Blocked', { exact: true })).toHaveCount(0);

  await account(page).getByRole('button', { name: 'Set quality issue' }).click();
  const dialog = page.getByRole('dialog', { name: 'Set quality issue' });
  await expect(dialog.getByRole('button', { name: 'Set quality issue' })).toBeDisabled();
  await dialog.getByRole('textbox', { name: 'Reason' }).fill('Late marking of homework');
  await confirmIn(page, 'Set quality issue');
  await expect(account(page)).toContainText('Quality issue: Late marking of homework');
  await expect(page.getByText('Quality issue', { exact: true })).toBeVisible();
  await account(page).getByRole('button', { name: 'Clear quality issue' }).click();
  await confirmIn(page, 'Clear quality issue');
  await expect(account(page).getByRole('button', { name: 'Set quality issue' })).toBeVisible();

  // A refusal from the server stays in the dialog, in words.
  await page.route('**/api/v1/users/*/block', (route) =>
    route.fulfill({
      status: 409,
      contentType: 'application/json',
      body: '{"detail":"User is already blocked"}',
    }),
  );
  await account(page).getByRole('button', { name: 'Block' }).click();
  const refused = page.getByRole('dialog', { name: 'Block user' });
  await refused.getByRole('button', { name: 'Block user' }).click();
  await expect(refused.getByRole('alert')).toContainText('User is already blocked');
  await page.screenshot({ path: join(artifacts, 'user-action-error.png') });
  await refused.getByRole('button', { name: 'Cancel' }).click();
  await page.unrouteAll();
});

test('deactivation at a chosen time is sent in the user timezone; deactivate now and activate', async ({
  page,
}) => {
  await signInAsAdmin(page);
  await page.goto(`/users/${teacherId}/details`);
  await account(page).getByRole('button', { name: 'Deactivate' }).click();
  const dialog = page.getByRole('dialog', { name: 'Deactivate user' });
  await dialog.getByText('At a date and time').click();
  await expect(dialog.getByText("In the user's timezone (America/New_York)")).toBeVisible();
  await dialog.getByRole('button', { name: 'Access ends at' }).click();
  // Next month, the 15th, 14:30 — on the user's wall clock.
  const target = addMonths(new Date(), 1);
  await page.getByRole('button', { name: 'Next month' }).click();
  await page
    .getByRole('button', { name: new RegExp(`^15 ${formatInTimeZone(target, 'UTC', 'MMMM yyyy')}$`) })
    .click();
  await page.getByLabel('Hours').fill('14');
  await page.getByLabel('Minutes').fill('30');
  await page.getByRole('button', { name: 'Confirm date and time' }).click();
  const sent = page.waitForRequest('**/deactivate/schedule');
  await dialog.getByRole('button', { name: 'Deactivate user' }).click();
  const body = (await sent).postDataJSON() as { date: string };
  const wall = `${formatInTimeZone(target, 'UTC', 'yyyy-MM')}-15T14:30:00`;
  expect(body.date).toBe(fromZonedTime(wall, 'America/New_York').toISOString());
  await expect(dialog).toBeHidden();
  await expect(page.getByText('Deactivation scheduled', { exact: true })).toBeVisible();
  await expect(account(page)).toContainText(
    `Access ends on 15.${formatInTimeZone(target, 'UTC', 'MM.yyyy')} 14:30 (America/New_York)`,
  );

  await account(page).getByRole('button', { name: 'Deactivate' }).click();
  await confirmIn(page, 'Deactivate user');
  await expect(page.getByText('Deactivated', { exact: true })).toBeVisible();
  await account(page).getByRole('button', { name: 'Activate' }).click();
  await confirmIn(page, 'Activate user');
  await expect(page.getByText('Active', { exact: true })).toBeVisible();
});

test('permissions editor: view and action lists with readable labels, saved as the full list', async ({
  page,
  request,
}) => {
  await signInAsAdmin(page);
  await page.goto(`/users/${partnerId}/details`);
  const editor = page.getByRole('heading', { name: 'Permissions' }).locator('../..');
  const view = editor.getByRole('group', { name: 'View' });
  const actions = editor.getByRole('group', { name: 'Actions' });
  await expect(view.getByRole('checkbox', { name: 'See All Students Details' })).toBeVisible();
  await expect(actions.getByRole('checkbox', { name: 'Add New Students' })).toBeVisible();
  // Separately granted permissions are not offered (spec §6).
  await expect(editor.getByRole('checkbox', { name: 'Set Absence Reason' })).toHaveCount(0);
  await expect(editor.getByRole('button', { name: 'Save permissions' })).toBeDisabled();

  // A customer System Administrator starts without the super-sysadmin permissions (spec §6).
  await expect(view.getByRole('checkbox', { name: 'See Super Sysadmins' })).not.toBeChecked();
  await expect(actions.getByRole('checkbox', { name: 'Join Lessons' })).toBeChecked();
  await view.getByRole('checkbox', { name: 'See Super Sysadmins' }).check();
  await actions.getByRole('checkbox', { name: 'Join Lessons' }).uncheck();
  const sent = page.waitForRequest('**/permissions');
  await editor.getByRole('button', { name: 'Save permissions' }).click();
  const body = (await sent).postDataJSON() as { permissions: string[] };
  expect(body.permissions).toEqual(
    expect.arrayContaining(['USER_IS_PARTNER', 'PARTNER_CAN_SEE_SUPER_SYSADMINS']),
  );
  expect(body.permissions).not.toContain('PARTNER_CAN_JOIN_LESSONS');
  await expect(page.getByText(`Permissions saved for Pat Partner.`)).toBeVisible();
  await page.screenshot({ path: join(artifacts, 'user-permissions.png'), fullPage: true });

  await page.reload();
  await expect(view.getByRole('checkbox', { name: 'See Super Sysadmins' })).toBeChecked();
  await expect(actions.getByRole('checkbox', { name: 'Join Lessons' })).not.toBeChecked();
  const token = await adminToken(request);
  const stored = await api<{ permission_list: string[] }>(
    request,
    token,
    'GET',
    `/api/v1/users/${partnerId}`,
  );
  expect(stored.body.permission_list).toEqual(
    expect.arrayContaining(['USER_IS_PARTNER', 'PARTNER_CAN_SEE_SUPER_SYSADMINS']),
  );
  expect(stored.body.permission_list).not.toContain('PARTNER_CAN_JOIN_LESSONS');
});

test('edit page: field errors from the server, then the change shows on the details', async ({ page }) => {
  await signInAsAdmin(page);
  await page.goto(`/users/${teacherId}/details`);
  await page.getByRole('link', { name: 'Edit' }).click();
  await expect(page).toHaveURL(new RegExp(`/users/${teacherId}$`));
  await expect(page.getByRole('heading', { level: 1, name: 'Edit Dora Detail' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Save changes' })).toBeDisabled();
  await page.getByRole('textbox', { name: 'Timezone' }).fill('Nowhere/Special');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText(/^Timezone must be a valid/)).toBeVisible();
  await page.screenshot({ path: join(artifacts, 'user-edit.png') });
  await page.getByRole('textbox', { name: 'Timezone' }).fill('Europe/Berlin');
  await page.getByRole('textbox', { name: 'Last name' }).fill('Detail-Smith');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page).toHaveURL(new RegExp(`/users/${teacherId}/details$`));
  await expect(page.getByRole('heading', { level: 1, name: 'Dora Detail-Smith' })).toBeVisible();
  await expect(page.getByText('Europe/Berlin', { exact: true })).toBeVisible();
});

test('a parent does not see notes, nor actions they may not take', async ({ page, request }) => {
  const token = await adminToken(request);
  const customer = await createCustomer(request, token, 'Notesbury School');
  const parentId = await createUser(request, token, {
    email: 'paula.parent@notesbury.example',
    first_name: 'Paula',
    last_name: 'Parent',
    user_type: 'partner',
    customer_id: customer,
    customer_type: 'parent',
    password: 'parent passphrase',
  });
  const noted = await api(request, token, 'PUT', `/api/v1/users/${parentId}`, { notes: 'Internal remark' });
  expect(noted.status).toBe(200);
  await page.goto('/login');
  await page.getByRole('textbox', { name: 'Email' }).fill('paula.parent@notesbury.example');
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill('parent passphrase');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto(`/users/${parentId}/details`);
  await expect(page.getByRole('heading', { level: 1, name: 'Paula Parent' })).toBeVisible();
  await expect(page.getByText('Parent / Carer', { exact: true })).toBeVisible();
  await expect(page.getByText('Notes', { exact: true })).toHaveCount(0);
  await expect(page.getByText('Internal remark')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Deactivate' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Block' })).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'Permissions' })).toHaveCount(0);
});
