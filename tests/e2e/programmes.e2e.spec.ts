import { expect, test, type Page } from '@playwright/test';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { adminToken, api, createCustomer, createUser, signInAsAdmin } from './support/portal-api.js';
import { typeDay } from './support/day-input.js';

/**
 * Programmes (issue 15 items 3 and 4): an administrator creates a programme, adds a group with a lead
 * teacher and a student, and sees it on the programme's page, against the real server in Chromium.
 */
const artifacts = join(dirname(fileURLToPath(import.meta.url)), '.artifacts');
const shot = (page: Page, name: string) =>
  page.screenshot({ path: join(artifacts, `${name}.png`), fullPage: true });

test.use({ viewport: { width: 1400, height: 900 } });

test('an administrator creates a programme, adds a group with a teacher and a student, and sees it on the details page', async ({
  page,
  request,
}) => {
  const token = await adminToken(request);
  const suffix = Date.now().toString(36);
  const school = `Hawthorn ${suffix}`;
  const customerId = await createCustomer(request, token, school);
  await createUser(request, token, {
    email: `tara.${suffix}@programmes.example`,
    first_name: 'Tara',
    last_name: `Teacher${suffix}`,
    user_type: 'teacher',
  });
  const studentId = await createUser(request, token, {
    email: `sam.${suffix}@programmes.example`,
    first_name: 'Sam',
    last_name: `Student${suffix}`,
    user_type: 'student',
    customer_id: customerId,
  });

  await signInAsAdmin(page);
  await page.goto('/programmes/add');
  await expect(page.getByRole('heading', { name: 'Add a programme', level: 1 })).toBeVisible();
  // The form checks before it sends.
  await page.getByRole('button', { name: 'Create programme' }).click();
  await expect(page.getByText('Title is required')).toBeVisible();

  await page.getByRole('textbox', { name: 'Title' }).fill(`Maths GCSE recovery — ${suffix}`);
  await page.getByRole('combobox', { name: 'School' }).fill(`Hawthorn ${suffix}`);
  await page.getByRole('option', { name: school }).click();
  await typeDay(page.getByLabel('Start date'), '2026-09-07');
  await typeDay(page.getByLabel('End date'), '2027-07-16');
  await page.getByRole('button', { name: 'Create programme' }).click();

  await expect(
    page.getByRole('heading', { name: `Maths GCSE recovery — ${suffix}`, level: 1 }),
  ).toBeVisible();
  await expect(page.getByText('draft', { exact: true })).toBeVisible();
  await expect(page.getByText('No groups yet.')).toBeVisible();
  // The fields can be edited; a bad end date is refused before it is sent.
  await page.getByRole('button', { name: 'Edit' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit programme' });
  await typeDay(edit.getByLabel('End date'), '2026-01-01');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(edit.getByText('End date is before the start')).toBeVisible();
  await typeDay(edit.getByLabel('End date'), '2027-07-23');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(edit).toBeHidden();
  await expect(page.getByText('2027-07-23')).toBeVisible();
  await page.getByRole('button', { name: 'Activate' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Activate' }).click();
  await expect(page.getByText('active', { exact: true })).toBeVisible();

  await page.getByRole('link', { name: 'Add group' }).click();
  await expect(page.getByRole('heading', { name: 'Add a group', level: 1 })).toBeVisible();
  await page.getByRole('textbox', { name: 'Group name' }).fill('Group A');
  await page.getByRole('combobox', { name: 'Lead teacher' }).fill(`Teacher${suffix}`);
  await page.getByRole('option', { name: `Tara Teacher${suffix}` }).click();
  await page.getByRole('button', { name: 'Create group' }).click();

  await expect(page.getByRole('heading', { name: 'Group A', level: 1 })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Teachers of this group' })).toContainText(
    `Tara Teacher${suffix}`,
  );
  await page.getByRole('button', { name: 'Add student' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add a student' });
  await dialog.getByRole('combobox', { name: 'Student' }).fill(`Student${suffix}`);
  // Students are told apart by their school (issue 18).
  await page.getByRole('option', { name: `Sam Student${suffix} (${school})` }).click();
  await typeDay(dialog.getByLabel('First day'), '2026-09-07');
  await dialog.getByRole('button', { name: 'Add student' }).click();
  await expect(dialog).toBeHidden();
  const periods = page.getByRole('table', { name: 'Membership periods' });
  await expect(periods).toContainText(`Sam Student${suffix}`);
  await expect(periods).toContainText('2026-09-07');
  await shot(page, 'programmes-group');

  await page.getByRole('link', { name: `← Maths GCSE recovery — ${suffix}` }).click();
  const groupsTable = page.getByRole('table', { name: 'Groups of this programme' });
  await expect(groupsTable.getByRole('link', { name: 'Group A' })).toBeVisible();
  await expect(groupsTable).toContainText(`Tara Teacher${suffix} (lead)`);
  // The student is in the group today.
  await expect(groupsTable).toContainText(`Sam Student${suffix}`);
  await shot(page, 'programmes-details');
  // The student list is shared by every e2e file: take the test's student out of it (soft delete, ADR 0015).
  expect((await api(request, token, 'DELETE', `/api/v1/users/${studentId}`)).status).toBe(200);
});
