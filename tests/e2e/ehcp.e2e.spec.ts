import { expect, test, type Page } from '@playwright/test';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  adminToken,
  api,
  createCustomer,
  createUser,
  deleteUsers,
  signInAsAdmin,
} from './support/portal-api.js';

const artifacts = join(dirname(fileURLToPath(import.meta.url)), '.artifacts');
const PASSWORD = 'Ehcp-e2e-2026!';

let studentId = '';
let token = '';
const created: string[] = [];
// Unique per worker: a retry runs beforeAll again after afterAll took the users out (soft delete keeps
// their e-mails taken).
const run = Date.now().toString(36);
const mail = (name: string) => `${name}.${run}@ehcpton.example`;

test.describe.configure({ mode: 'serial' });
test.use({ viewport: { width: 1400, height: 1000 } });

test.beforeAll(async ({ request }) => {
  token = await adminToken(request);
  const school = await createCustomer(request, token, 'Ehcpton Academy');
  studentId = await createUser(request, token, {
    email: mail('erin.ehcp'),
    first_name: 'Erin',
    last_name: 'Ehcp',
    user_type: 'student',
    customer_id: school,
  });
  // A school super admin with EHCP access (the role brings user relations access) and a colleague.
  const head = await api(request, token, 'POST', '/api/v1/users/', {
    email: mail('hana.head'),
    first_name: 'Hana',
    last_name: 'Head',
    user_type: 'partner',
    customer_id: school,
    customer_type: 'super-admin',
    permissions: ['CAN_ACCESS_AND_UPLOAD_EHCP'],
    password: PASSWORD,
  });
  expect(head.status, JSON.stringify(head.body)).toBe(201);
  created.push(studentId, (head.body as { id: string }).id);
  const sysadmin = await createUser(request, token, {
    email: mail('sam.sysadmin'),
    first_name: 'Sam',
    last_name: 'Sysadmin',
    user_type: 'partner',
    customer_id: school,
    customer_type: 'admin',
  });
  created.push(sysadmin);
  const teacher = await createUser(request, token, {
    email: mail('tia.noavail'),
    first_name: 'Tia',
    last_name: 'Noavail',
    user_type: 'teacher',
  });
  created.push(teacher);
});

// Other e2e files count users and permission holders: take ours out again (soft delete).
test.afterAll(async ({ request }) => {
  if (token) await deleteUsers(request, token, created);
});

async function signIn(page: Page, email: string, password: string) {
  await page.goto('/login');
  await page.getByRole('textbox', { name: 'Email' }).fill(email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
}

test('staff put a student on the EHCP reminder list from the student page', async ({ page }) => {
  await signInAsAdmin(page);
  await page.goto(`/users/${studentId}/details`);
  const card = page.getByRole('region', { name: 'EHCP' });
  await expect(card.getByText('No EHCP file is on record for this student.')).toBeVisible();
  const reminder = card.getByRole('switch', { name: 'EHCP reminder' });
  await expect(reminder).not.toBeChecked();
  await expect(card.getByRole('button', { name: 'Request EHCP' })).toHaveCount(0);
  await reminder.focus();
  await page.keyboard.press('Space');
  await expect(page.getByText('EHCP reminder set')).toBeVisible();
  await expect(reminder).toBeChecked();
  await page.screenshot({ path: join(artifacts, 'ehcp-student-card.png'), fullPage: true });

  await page.reload();
  await expect(
    page.getByRole('region', { name: 'EHCP' }).getByRole('switch', { name: 'EHCP reminder' }),
  ).toBeChecked();
});

test("a school's super admin requests the EHCP from a colleague", async ({ page }) => {
  await signIn(page, mail('hana.head'), PASSWORD);
  await page.goto(`/users/${studentId}/details`);
  const card = page.getByRole('region', { name: 'EHCP' });
  await card.getByRole('button', { name: 'Request EHCP' }).click();
  const dialog = page.getByRole('dialog', { name: 'Request the EHCP of Erin Ehcp' });
  await expect(dialog.getByRole('button', { name: 'Send request' })).toBeDisabled();
  await dialog.getByRole('combobox', { name: 'People to ask' }).click();
  // Only school users who can see students are offered: not the requester, not the student.
  await expect(page.getByRole('option')).toHaveText([/Sam Sysadmin/]);
  await page.getByRole('option', { name: /Sam Sysadmin/ }).click();
  await dialog.getByRole('heading', { name: 'Request the EHCP of Erin Ehcp' }).click();
  await expect(dialog.getByRole('button', { name: 'Send request' })).toBeEnabled();
  await page.screenshot({ path: join(artifacts, 'ehcp-request-dialog.png'), fullPage: true });
  await dialog.getByRole('button', { name: 'Send request' }).click();
  await expect(page.getByText('EHCP requested from 1 person')).toBeVisible();
  await expect(dialog).toBeHidden();
});

test('administrators download the teachers without availability report', async ({ page }) => {
  await signInAsAdmin(page);
  await page.goto('/users/teachers');
  const button = page.getByRole('button', { name: 'Teachers without availability' });
  await expect(button).toBeVisible();
  await page.screenshot({ path: join(artifacts, 'teachers-without-availability.png'), fullPage: true });
  const [download] = await Promise.all([page.waitForEvent('download'), button.click()]);
  expect(download.suggestedFilename()).toMatch(/^teachers-without-availability-\d{4}-\d{2}-\d{2}\.csv$/);
  const path = await download.path();
  const { readFile } = await import('node:fs/promises');
  const text = await readFile(path, 'utf8');
  expect(text).toContain(mail('tia.noavail'));
});
