import { expect, test, type Page } from '@playwright/test';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  adminToken,
  api,
  createCustomer,
  createUser,
  deleteUsers,
  signIn,
  tokenFor,
  type SeedUser,
} from './support/portal-api.js';

const artifacts = join(dirname(fileURLToPath(import.meta.url)), '.artifacts');

/**
 * my-users (spec §2, §6): a partner school's super system administrator sees their own school's users
 * only, opens and edits one, imports a CSV, and cannot reach the administrators' screens; a parent who
 * may see link contacts never sees their notes. Everything runs against the real server.
 */

test.describe.configure({ mode: 'serial' });
test.use({ viewport: { width: 1400, height: 1000 } });

// A fresh suffix per run: deleted users keep their login (decision 0015), so a retry must not reuse it.
const run = Date.now().toString(36);
const email = (name: string) => `${name}.${run}@oakbridge.example`;
const PASSWORD = 'oakbridge passphrase';
const ids: Record<string, string> = {};
let admin = '';

test.beforeAll(async ({ request }) => {
  admin = await adminToken(request);
  const oak = await createCustomer(request, admin, `Oakbridge School ${run}`);
  const elm = await createCustomer(request, admin, `Elm Academy ${run}`);
  const users: [string, SeedUser][] = [
    [
      'head',
      {
        email: email('hana'),
        first_name: 'Hana',
        last_name: 'Head',
        user_type: 'partner',
        customer_id: oak,
        customer_type: 'super-admin',
        password: PASSWORD,
      },
    ],
    [
      'parent',
      {
        email: email('paula'),
        first_name: 'Paula',
        last_name: 'Parent',
        user_type: 'partner',
        customer_id: oak,
        customer_type: 'parent',
        password: PASSWORD,
      },
    ],
    [
      'link',
      {
        email: email('lee'),
        first_name: 'Lee',
        last_name: 'Link',
        user_type: 'partner',
        customer_id: oak,
        customer_type: 'link-contact',
      },
    ],
    [
      'student',
      {
        email: email('sam'),
        first_name: 'Sam',
        last_name: 'Student',
        user_type: 'student',
        customer_id: oak,
      },
    ],
    [
      'elsewhere',
      {
        email: `eli.${run}@elm.example`,
        first_name: 'Eli',
        last_name: 'Elsewhere',
        user_type: 'student',
        customer_id: elm,
      },
    ],
  ];
  for (const [key, user] of users) ids[key] = await createUser(request, admin, user);
  // Notes (spec §6: parents cannot see additional user notes).
  const noted = await api(request, admin, 'PUT', `/api/v1/users/${ids.link}`, {
    notes: 'Prefers morning calls',
  });
  expect(noted.status).toBe(200);
  // The parent may see link contacts (granted by an administrator), so there is a user with notes to open.
  const parent = await api<{ permission_list: string[] }>(
    request,
    admin,
    'GET',
    `/api/v1/users/${ids.parent}`,
  );
  const granted = await api(request, admin, 'PUT', `/api/v1/users/${ids.parent}/permissions`, {
    permissions: [...parent.body.permission_list, 'PARTNER_CAN_SEE_LINK_CONTACTS'],
  });
  expect(granted.status, JSON.stringify(granted.body)).toBe(200);
});

test.afterAll(async ({ request }) => {
  const token = admin || (await adminToken(request));
  const found = await api<{ items: { id: string }[] }>(
    request,
    token,
    'GET',
    `/api/v1/users/?query=${run}&size=100`,
  );
  await deleteUsers(request, token, [
    ...new Set([...Object.values(ids), ...found.body.items.map((u) => u.id)]),
  ]);
});

const table = (page: Page, name: string) => page.getByRole('table', { name });

test('a school super administrator sees only their school, opens and edits a student', async ({ page }) => {
  await signIn(page, email('hana'), PASSWORD);
  await page.getByRole('link', { name: 'My users' }).click();
  await expect(page).toHaveURL(/\/my-users$/);
  await expect(page.getByRole('heading', { level: 1, name: 'My users' })).toBeVisible();
  const tabs = page.getByRole('tablist', { name: 'Kinds of users' });
  await expect(tabs.getByRole('tab')).toHaveText([
    'All',
    'Students',
    'Super system administrators',
    'System administrators',
    'Link contacts',
    'Parents / carers',
  ]);

  const all = table(page, 'All my users');
  for (const name of ['Hana Head', 'Paula Parent', 'Lee Link', 'Sam Student'])
    await expect(all.getByRole('link', { name })).toBeVisible();
  await expect(all.getByText('Eli Elsewhere')).toHaveCount(0);
  await expect(all.getByText('Parent / Carer')).toBeVisible();
  await page.screenshot({ path: join(artifacts, 'my-users.png'), fullPage: true });

  // Add user offers the kinds the school's super administrator may add, for their own school.
  await page.getByRole('button', { name: 'Add user' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add user' });
  await expect(dialog.getByRole('combobox', { name: 'Customer' })).toHaveCount(0);
  await dialog.getByRole('combobox', { name: 'Type' }).click();
  await expect(page.getByRole('option')).toHaveText([
    'Student',
    'Super system administrator',
    'System administrator',
    'Link contact',
    'Parent / carer',
  ]);
  await page.getByRole('option', { name: 'Link contact' }).click();
  await page.screenshot({ path: join(artifacts, 'my-users-add.png') });
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();

  await tabs.getByRole('tab', { name: 'Parents / carers' }).click();
  await expect(page).toHaveURL(/\/my-users\?tab=parents$/);
  const parents = table(page, 'Parents / carers');
  await expect(parents.getByRole('link', { name: 'Paula Parent' })).toBeVisible();
  await expect(parents.getByRole('row')).toHaveCount(2); // header + Paula

  await tabs.getByRole('tab', { name: 'All' }).click();
  // Typed only once the All tab's list is there. On a loaded machine one run kept the list unfiltered,
  // likely because the text reached the parents tab's search box as that tab went away.
  await expect(table(page, 'All my users')).toBeVisible();
  await page.getByRole('searchbox', { name: 'Search' }).fill('sam');
  await expect(table(page, 'All my users').getByRole('row')).toHaveCount(2);
  await table(page, 'All my users').getByRole('link', { name: 'Sam Student' }).click();

  await expect(page).toHaveURL(new RegExp(`/my-users/${ids.student}/details$`));
  await expect(page.getByRole('heading', { level: 1, name: 'Sam Student' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Deactivate' })).toBeVisible();
  // Administrators' tools are not offered to a partner.
  await expect(page.getByRole('button', { name: 'Sign in as' })).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Audit' })).toHaveCount(0);
  await page.screenshot({ path: join(artifacts, 'my-user-details.png'), fullPage: true });

  await page.getByRole('link', { name: 'Edit' }).click();
  await expect(page).toHaveURL(new RegExp(`/my-users/students/${ids.student}$`));
  await expect(page.getByLabel('New password')).toBeVisible();
  await page.screenshot({ path: join(artifacts, 'my-user-edit.png'), fullPage: true });
  await page.getByRole('textbox', { name: 'Last name' }).fill('Studious');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page).toHaveURL(new RegExp(`/my-users/${ids.student}/details$`));
  await expect(page.getByRole('heading', { level: 1, name: 'Sam Studious' })).toBeVisible();

  // Another school's student is not found, and the administrators' screens are closed.
  await page.goto(`/my-users/${ids.elsewhere}/details`);
  await expect(page).toHaveURL(/\/notfound$/);
  await page.goto('/users');
  await expect(page.getByText('Your account does not have permission to open Users.')).toBeVisible();
  await page.goto('/users/admins');
  await expect(page.getByText('Your account does not have permission to open Administrators.')).toBeVisible();
});

test('the super administrator imports students from a CSV; a bad row imports nothing', async ({ page }) => {
  await signIn(page, email('hana'), PASSWORD);
  await page.goto('/my-users');
  await page.getByRole('link', { name: 'Import' }).click();
  await expect(page).toHaveURL(/\/my-users\/import\/students$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Import students' })).toBeVisible();

  const choose = async (files: { name: string; mimeType: string; buffer: Buffer }) => {
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'CSV file' }).click();
    await (await chooser).setFiles(files);
  };
  const csv = (rows: string[]) => ({
    name: 'students.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(['first_name,last_name,email,type', ...rows].join('\n')),
  });
  await choose(csv([`Ivy,Imported,${email('ivy')},student`, `Bad,Row,not-an-email,student`]));
  await page.getByRole('button', { name: 'Import', exact: true }).click();
  const errors = page.getByRole('table', { name: 'Rows with errors' });
  await expect(errors.getByRole('cell', { name: '3', exact: true })).toBeVisible();
  await expect(errors.getByRole('cell', { name: 'email', exact: true })).toBeVisible();
  await page.screenshot({ path: join(artifacts, 'my-users-import-errors.png'), fullPage: true });

  await choose(csv([`Ivy,Imported,${email('ivy')},student`]));
  await page.getByRole('button', { name: 'Import', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: '1 user(s) imported' })).toBeVisible();
  await page.getByRole('link', { name: 'See students' }).click();
  await expect(table(page, 'Students').getByRole('link', { name: 'Ivy Imported' })).toBeVisible();
});

test('a parent who may see link contacts opens one and sees no notes', async ({ page, request }) => {
  const parentToken = await tokenFor(request, email('paula'), PASSWORD);
  const asParent = await api<{ notes: string | null }>(
    request,
    parentToken,
    'GET',
    `/api/v1/users/${ids.link}`,
  );
  expect(asParent.status).toBe(200);
  expect(asParent.body.notes).toBeNull();
  const asHead = await api<{ notes: string | null }>(
    request,
    await tokenFor(request, email('hana'), PASSWORD),
    'GET',
    `/api/v1/users/${ids.link}`,
  );
  expect(asHead.body.notes).toBe('Prefers morning calls');

  await signIn(page, email('paula'), PASSWORD);
  await page.goto('/my-users');
  await expect(page.getByRole('tablist', { name: 'Kinds of users' }).getByRole('tab')).toHaveText([
    'All',
    'Link contacts',
  ]);
  // A parent may add nobody: no add or import.
  await expect(page.getByRole('button', { name: 'Add user' })).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Import' })).toHaveCount(0);
  await table(page, 'All my users').getByRole('link', { name: 'Lee Link' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Lee Link' })).toBeVisible();
  await expect(page.getByText('Prefers morning calls')).toHaveCount(0);
  await expect(page.getByText('Notes', { exact: true })).toHaveCount(0);
  // Read-only: a parent holds no edit, disable or password permission.
  await expect(page.getByRole('link', { name: 'Edit' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Deactivate' })).toHaveCount(0);
  await page.screenshot({ path: join(artifacts, 'my-users-parent.png'), fullPage: true });

  await page.goto('/my-users/import/students');
  await expect(page.getByText('You cannot add students')).toBeVisible();
});
