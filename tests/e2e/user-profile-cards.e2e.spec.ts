import { expect, test } from '@playwright/test';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { adminToken, api, createCustomer, createUser, signInAsAdmin } from './support/portal-api.js';

const artifacts = join(dirname(fileURLToPath(import.meta.url)), '.artifacts');

let token = '';
let studentId = '';
let teacherId = '';
// Unique per worker: a retry runs beforeAll again after afterAll took the users out.
const run = Date.now().toString(36);

test.describe.configure({ mode: 'serial' });
test.use({ viewport: { width: 1400, height: 1000 } });

test.beforeAll(async ({ request }) => {
  token = await adminToken(request);
  const school = await createCustomer(request, token, 'Filebrook Academy');
  studentId = await createUser(request, token, {
    email: `fay.files.${run}@students.example`,
    first_name: 'Fay',
    last_name: 'Files',
    user_type: 'student',
    customer_id: school,
  });
  teacherId = await createUser(request, token, {
    email: `avi.available.${run}@tutors.example`,
    first_name: 'Avi',
    last_name: 'Available',
    user_type: 'teacher',
  });
});

// Other e2e files count students and teachers: take ours out again (soft delete).
test.afterAll(async ({ request }) => {
  for (const id of [studentId, teacherId])
    if (id) await api(request, token, 'DELETE', `/api/v1/users/${id}`).catch(() => undefined);
});

const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');

test('an EHCP is uploaded with progress, becomes the latest EHCP, opens by a signed link and is deleted', async ({
  page,
}) => {
  await signInAsAdmin(page);
  await page.goto(`/users/${studentId}/details`);
  await expect(page.getByRole('heading', { level: 1, name: 'Fay Files' })).toBeVisible();
  const card = page.getByRole('heading', { name: 'Files' }).locator('..').locator('..');
  await expect(card.getByText('No files yet.')).toBeVisible();
  await expect(card.getByText('none on record')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'One-page profile' }).locator('..')).toContainText(
    'Not started yet.',
  );

  // A concern about this student is reported from their page, the student already chosen.
  await page.getByRole('button', { name: 'Report a concern' }).click();
  const report = page.getByRole('dialog', { name: 'Report a safeguarding concern' });
  await expect(report.getByText('Fay Files (Filebrook Academy)')).toBeVisible();
  await report
    .getByRole('button', { name: 'Close' })
    .or(page.locator('.mantine-Modal-close'))
    .first()
    .click();
  await expect(report).toBeHidden();

  // A file type the storage service refuses is stopped before any upload.
  await card.locator('input[type=file]').setInputFiles({
    name: 'tool.exe',
    mimeType: 'application/x-msdownload',
    buffer: Buffer.from('MZ'),
  });
  await expect(card.getByText(/tool\.exe is not a PDF/)).toBeVisible();
  await expect(card.getByRole('button', { name: 'Upload', exact: true })).toBeDisabled();

  await card.locator('input[type=file]').setInputFiles({
    name: 'ehcp-2026.pdf',
    mimeType: 'application/pdf',
    buffer: PDF,
  });
  await card.getByRole('button', { name: 'Upload', exact: true }).click();
  await expect(page.getByText('ehcp-2026.pdf uploaded.')).toBeVisible();
  const files = card.getByRole('table', { name: 'Student files' });
  await expect(files.getByRole('row', { name: /ehcp-2026\.pdf/ })).toContainText('EHCP');
  await expect(card.getByText(/Latest EHCP:\s*ehcp-2026\.pdf/)).toBeVisible();
  await page.screenshot({ path: join(artifacts, 'user-details-student-files.png'), fullPage: true });

  // The server's own view agrees: the file is the student's latest EHCP.
  const view = await api<{ student_profile: { latest_ehcp_file: { file_name: string } | null } }>(
    page.request,
    token,
    'GET',
    `/api/v1/users/${studentId}`,
  );
  expect(view.body.student_profile.latest_ehcp_file?.file_name).toBe('ehcp-2026.pdf');

  // Opening it goes through a signed, expiring download link that serves the same bytes.
  const storageRequest = page
    .context()
    .waitForEvent('request', (r) => r.url().includes('/api/v1/storage/download'));
  await files.getByRole('button', { name: 'ehcp-2026.pdf' }).click();
  const signedUrl = (await storageRequest).url();
  const download = await page.request.get(signedUrl);
  expect(download.status()).toBe(200);
  expect(Buffer.from(await download.body()).equals(PDF)).toBe(true);
  for (const other of page.context().pages()) if (other !== page) await other.close();

  await card.getByRole('checkbox', { name: 'Select ehcp-2026.pdf' }).check();
  await card.getByRole('button', { name: 'Delete file' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete files' });
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await expect(dialog).toBeHidden();
  await expect(card.getByText('No files yet.')).toBeVisible();
  await expect(card.getByText('none on record')).toBeVisible();
});

test('availability: times are added with overlap checks, saved, and one week gets its own list', async ({
  page,
}) => {
  await signInAsAdmin(page);
  await page.goto(`/users/${teacherId}/details`);
  const card = page.getByRole('heading', { name: 'Availability' }).locator('..').locator('..');
  await expect(card.getByText('No availability set.')).toBeVisible();

  await card.getByRole('button', { name: 'Edit times' }).click();
  await card.getByRole('textbox', { name: 'From' }).fill('09:00');
  await card.getByRole('textbox', { name: 'To' }).fill('12:00');
  await card.getByRole('button', { name: 'Add' }).click();
  await card.getByRole('textbox', { name: 'From' }).fill('11:00');
  await card.getByRole('textbox', { name: 'To' }).fill('13:00');
  await card.getByRole('button', { name: 'Add' }).click();
  await expect(card.getByRole('alert')).toHaveText('Overlaps Monday 09:00–12:00.');
  await card.getByRole('textbox', { name: 'From' }).fill('06:00');
  await card.getByRole('button', { name: 'Add' }).click();
  await expect(card.getByRole('alert')).toContainText('within the working day');
  await card.getByRole('button', { name: 'Save availability' }).click();
  await expect(page.getByText('Availability saved.')).toBeVisible();

  const times = card.getByRole('table', { name: 'Available times' });
  await expect(times.getByRole('row', { name: /Monday/ })).toContainText('09:00');
  await expect(times.getByRole('row', { name: /Monday/ })).toContainText('12:00');

  // The server holds the recurring list.
  const recurring = await api<{ availabilities: unknown[]; week: string | null }>(
    page.request,
    token,
    'GET',
    `/api/v1/users/${teacherId}/availability`,
  );
  expect(recurring.body.availabilities).toEqual([{ day_of_week: 0, start_minute: 540, end_minute: 720 }]);

  // A single week follows the recurring list until it is given its own.
  await card.getByText('One week', { exact: true }).click();
  await expect(card.getByText(/no list of its own/)).toBeVisible();
  await card.getByRole('button', { name: /Set this week/ }).click();
  await card.getByRole('button', { name: 'Remove Monday 09:00–12:00' }).click();
  await card.getByRole('button', { name: 'Save availability' }).click();
  await expect(page.getByText(/Availability for the week of .* saved\./)).toBeVisible();
  await expect(card.getByText('No availability set.')).toBeVisible();
  await page.screenshot({ path: join(artifacts, 'user-details-availability.png'), fullPage: true });

  // The recurring week is untouched.
  await card.getByText('Every week', { exact: true }).click();
  await expect(card.getByRole('table', { name: 'Available times' })).toContainText('Monday');
});
