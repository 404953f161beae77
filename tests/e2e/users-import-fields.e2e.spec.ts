import { expect, test, type APIRequestContext } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { adminToken, api, createCustomer, createUser, signInAsAdmin } from './support/portal-api.js';
import { typeDay } from './support/day-input.js';

const artifacts = join(dirname(fileURLToPath(import.meta.url)), '.artifacts');

let token = '';
let customer = '';

test.describe.configure({ mode: 'serial' });
test.use({ viewport: { width: 1400, height: 1000 } });

test.beforeAll(async ({ request }) => {
  token = await adminToken(request);
  customer = await createCustomer(request, token, 'Importwell School');
});

// Whatever a failed test left behind goes too: other suites count users.
test.afterAll(async ({ request }) => {
  for (const user of await usersMatching(request, 'importwell.example'))
    await api(request, token, 'DELETE', `/api/v1/users/${user.id}`);
  await api(request, token, 'PUT', '/api/v1/users/custom_fields', { items: [] });
});

const csvFile = (name: string, text: string) => ({ name, mimeType: 'text/csv', buffer: Buffer.from(text) });

async function usersMatching(request: APIRequestContext, text: string) {
  const res = await api<{ items: { id: string; email: string }[]; total: number }>(
    request,
    token,
    'GET',
    `/api/v1/users/?query=${encodeURIComponent(text)}&size=100`,
  );
  expect(res.status).toBe(200);
  return res.body.items;
}

test('an admin imports students: a bad row imports nothing; the fixed file shows progress and the new users', async ({
  page,
  request,
}) => {
  const header = 'first_name,last_name,email,type,customer_id';
  const good = [
    `Ivy,Importer,ivy.importer@importwell.example,student,${customer}`,
    `Ian,Importer,ian.importer@importwell.example,student,${customer}`,
  ];
  const bad = `Isla,Importer,isla.importer(at)importwell.example,student,${customer}`;

  await signInAsAdmin(page);
  await page.goto('/users/students');
  await page.getByRole('link', { name: 'Import', exact: true }).click();
  await expect(page).toHaveURL(/\/users\/import\/students$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Import students' })).toBeVisible();
  const columns = page.getByRole('table', { name: 'Expected columns' });
  await expect(columns.getByRole('row', { name: /customer_id/ })).toContainText('Yes');
  const template = page.getByRole('link', { name: 'Download a template CSV' });
  await expect(template).toHaveAttribute('download', 'students-import-template.csv');
  expect(decodeURIComponent((await template.getAttribute('href'))!)).toContain(
    'first_name,last_name,email,type,customer_id,login,timezone,notes',
  );

  // Wrong kind of file: refused before upload.
  const input = page.getByLabel('Drag a CSV file here, or choose one');
  await input.setInputFiles({
    name: 'users.xlsx',
    mimeType: 'application/vnd.ms-excel',
    buffer: Buffer.from('x'),
  });
  await expect(page.getByRole('alert').filter({ hasText: 'is not a CSV file' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Import', exact: true })).toBeDisabled();

  // One bad row: the table names it, and nobody is created.
  await input.setInputFiles(csvFile('students.csv', [header, good[0], bad, good[1]].join('\n')));
  await page.getByRole('button', { name: 'Import', exact: true }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Nothing was imported' })).toContainText(
    'No user was created',
  );
  const errors = page.getByRole('table', { name: 'Errors in the file' });
  await expect(errors.locator('tbody tr')).toHaveCount(1);
  await expect(errors.locator('tbody tr').first()).toHaveText(/^3\s*email\s*is not a valid e-mail address$/);
  await page.screenshot({ path: join(artifacts, 'users-import-errors.png'), fullPage: true });
  expect(await usersMatching(request, 'importwell.example')).toHaveLength(0);

  // The fixed file: hold the answer back so the progress from the live channel can be seen.
  await page.getByRole('button', { name: 'Import another file' }).click();
  const fixed = bad.replace('(at)', '@');
  await input.setInputFiles(csvFile('students.csv', [header, good[0], fixed, good[1]].join('\n')));
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/v1/users/import?*', async (route) => {
    const response = await route.fetch();
    await held;
    await route.fulfill({ response });
  });
  await page.getByRole('checkbox', { name: 'Create the users with generated passwords' }).check();
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Import', exact: true }).click();
  await expect(page.getByText('Creating users: 3 of 3 rows')).toBeVisible();
  await expect(page.getByRole('progressbar', { name: 'Import progress' })).toHaveAttribute(
    'aria-valuenow',
    '100',
  );
  await page.screenshot({ path: join(artifacts, 'users-import-progress.png') });
  release();
  await expect(page.getByRole('status').filter({ hasText: 'Import complete' })).toContainText(
    '3 users were created',
  );
  // The generated passwords arrive once, as a CSV naming each new user.
  const passwords = await download;
  expect(passwords.suggestedFilename()).toMatch(/^passwords-students-\d{4}-\d{2}-\d{2}\.csv$/);
  const lines = readFileSync(await passwords.path(), 'utf8')
    .replace(/^\uFEFF/, '')
    .trim()
    .split(/\r?\n/);
  expect(lines[0]).toBe('id,login,email,full_name,password');
  expect(
    lines
      .slice(1)
      .map((l) => l.split(',')[1])
      .sort(),
  ).toEqual([
    'ian.importer@importwell.example',
    'isla.importer@importwell.example',
    'ivy.importer@importwell.example',
  ]);
  await expect(page.getByText('Passwords downloaded once')).toBeVisible();
  await page.screenshot({ path: join(artifacts, 'users-import-success.png'), fullPage: true });

  await page.getByRole('link', { name: 'Back to students' }).click();
  await expect(page).toHaveURL(/\/users\/students$/);
  await page.getByRole('searchbox', { name: 'Search' }).fill('Importer');
  const list = page.getByRole('table', { name: 'Students' });
  await expect(list.locator('tbody tr')).toHaveCount(3);
  await expect(list).toContainText('isla.importer@importwell.example');

  // Out again, so other suites' counts are unaffected; the list follows live.
  const created = await usersMatching(request, 'importwell.example');
  expect(created).toHaveLength(3);
  for (const user of created)
    expect((await api(request, token, 'DELETE', `/api/v1/users/${user.id}`)).status).toBe(200);
  await expect(page.getByText('No users match the search')).toBeVisible();
});

test('custom fields: defined with the server’s errors on the right inputs, then filled in on a user', async ({
  page,
  request,
}) => {
  const teacher = await createUser(request, token, {
    email: 'fenna.fields@importwell.example',
    first_name: 'Fenna',
    last_name: 'Fields',
    user_type: 'teacher',
  });
  await signInAsAdmin(page);
  await page.goto('/fields');
  await expect(page.getByRole('heading', { level: 1, name: 'Custom fields' })).toBeVisible();
  await expect(page.getByText('No custom fields yet')).toBeVisible();

  await page.getByRole('button', { name: 'Add field' }).click();
  const first = page.getByRole('group', { name: 'Custom field 1' });
  await first.getByRole('textbox', { name: 'Name' }).fill('Dietary needs');
  await page.getByRole('button', { name: 'Add field' }).click();
  const second = page.getByRole('group', { name: 'Custom field 2' });
  await second.getByRole('textbox', { name: 'Name' }).fill('dietary needs');
  await second.getByRole('combobox', { name: 'Type' }).click();
  await page.getByRole('option', { name: 'Choice from a list' }).click();
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(second.getByText('A choice field needs at least one option')).toBeVisible();
  await second.getByRole('combobox', { name: 'Options' }).fill('Red');
  await second.getByRole('combobox', { name: 'Options' }).press('Enter');
  await second.getByRole('combobox', { name: 'Options' }).fill('Blue');
  await second.getByRole('combobox', { name: 'Options' }).press('Enter');
  // The server refuses a name used twice (ignoring case) and names the input.
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(second.getByText('"dietary needs" is already the name of items.0')).toBeVisible();
  await expect(first.getByText(/already the name/)).toHaveCount(0);
  await second.getByRole('textbox', { name: 'Name' }).fill('School house');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText('Custom fields saved.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Save changes' })).toBeDisabled();
  await page.screenshot({ path: join(artifacts, 'custom-fields.png'), fullPage: true });
  const saved = await api<{ items: { name: string; type: string; options: string[] }[] }>(
    request,
    token,
    'GET',
    '/api/v1/users/custom_fields',
  );
  expect(saved.body.items.map((f) => [f.name, f.type, f.options])).toEqual([
    ['Dietary needs', 'text', []],
    ['School house', 'select', ['Red', 'Blue']],
  ]);

  await page.goto(`/users/${teacher}`);
  await page.getByRole('textbox', { name: 'Dietary needs' }).fill('Vegetarian');
  await page.getByRole('combobox', { name: 'School house' }).click();
  await page.getByRole('option', { name: 'Blue' }).click();
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page).toHaveURL(new RegExp(`/users/${teacher}/details$`));
  const card = page.getByRole('region', { name: 'Custom fields' });
  await expect(card).toContainText('Dietary needs');
  await expect(card).toContainText('Vegetarian');
  await expect(card).toContainText('Blue');
  await page.screenshot({ path: join(artifacts, 'user-custom-fields.png'), fullPage: true });

  // Clean up: no fields (a required one would affect other suites), no user.
  expect((await api(request, token, 'PUT', '/api/v1/users/custom_fields', { items: [] })).status).toBe(200);
  expect((await api(request, token, 'DELETE', `/api/v1/users/${teacher}`)).status).toBe(200);
});

test('the activity panel shows real figures: active students, who is online, permission changes', async ({
  page,
  request,
}) => {
  const student = await createUser(request, token, {
    email: 'abel.active@importwell.example',
    first_name: 'Abel',
    last_name: 'Active',
    user_type: 'student',
    customer_id: customer,
  });
  const count = await api<{ count: number }>(request, token, 'GET', '/api/v1/users/students/count/active');
  expect(count.body.count).toBeGreaterThanOrEqual(1);

  await signInAsAdmin(page);
  await page.goto('/users/activity');
  // The first visit loads the screen's code: allow for a busy machine.
  await expect(page.getByRole('heading', { level: 1, name: 'User activity' })).toBeVisible({
    timeout: 15_000,
  });
  await expect(page.getByTestId('active-now')).toHaveText(String(count.body.count));
  // The admin's own tab is online.
  await expect(page.getByTestId('online-now')).not.toHaveText('0');
  const online = page.getByRole('region', { name: 'Online now' });
  await expect(online.getByRole('link').first()).toBeVisible();
  // Today's row counts the student created above.
  const today = new Date().toISOString().slice(0, 10);
  const report = page.getByRole('table', { name: 'Active students per period' });
  const todayRow = report.getByRole('row', { name: new RegExp(`^${today}`) });
  await expect(todayRow).toBeVisible();
  expect(Number((await todayRow.locator('td').nth(1).textContent()) ?? '0')).toBeGreaterThanOrEqual(1);

  // Only this customer's students: Abel is the one active now; the per-day figure is the server's report.
  await page.getByRole('combobox', { name: 'Customer' }).click();
  await page.getByRole('option', { name: 'Importwell School' }).click();
  await expect(page.getByTestId('active-now')).toHaveText('1');
  const csv = await request.get(
    `/api/v1/users/students/count/active/report?customer_id=${customer}&date_from=${today}&date_to=${today}`,
    { headers: { RequestVerificationToken: token } },
  );
  const reported = (await csv.text()).trim().split(/\r?\n/)[1]!.split(',')[1]!;
  expect(Number(reported)).toBeGreaterThanOrEqual(1);
  await expect(todayRow.locator('td').nth(1)).toHaveText(reported);

  const changes = page.getByRole('table', { name: 'Recent permission changes' });
  await expect(changes.getByRole('row', { name: /Abel Active/ }).first()).toContainText('Account created');
  await page.screenshot({ path: join(artifacts, 'users-activity.png'), fullPage: true });

  // A reversed range is refused in the form, not sent.
  await typeDay(page.getByLabel('From'), '2030-01-01');
  await expect(page.getByText('The start date must be on or before the end date.')).toBeVisible();

  expect((await api(request, token, 'DELETE', `/api/v1/users/${student}`)).status).toBe(200);
});
