import { expect, test, type Page } from '@playwright/test';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { adminToken, api, createCustomer, createUser, signInAsAdmin } from './support/portal-api.js';

/**
 * The identity administration screens (issue 5): users/permissions, permission templates, networks and
 * the header network switcher, against the real server in Chromium.
 */

const artifacts = join(dirname(fileURLToPath(import.meta.url)), '.artifacts');
const shot = (page: Page, name: string) =>
  page.screenshot({ path: join(artifacts, `${name}.png`), fullPage: true });

const PLAIN_ADMIN = { email: 'plain.admin@identity.example', password: 'Plain-Admin-2026!' };

let token = '';
let adminId = '';
const partners: Record<'A' | 'B' | 'C', string> = { A: '', B: '', C: '' };

test.describe.configure({ mode: 'serial' });
test.use({ viewport: { width: 1400, height: 1000 } });

test.beforeAll(async ({ request }) => {
  token = await adminToken(request);
  const me = await api<{ id: string }>(request, token, 'GET', '/api/v1/users/me');
  adminId = me.body.id;
  // Spec §6: network modify needs admin plus the network permission; the first admin gets it.
  const granted = await api(request, token, 'PUT', `/api/v1/users/${adminId}/permissions`, {
    permissions: ['USER_IS_ADMIN', 'CAN_MODIFY_NETWORK'],
  });
  expect(granted.status, JSON.stringify(granted.body)).toBe(200);
  const customer = await createCustomer(request, token, 'Permwell School');
  for (const key of ['A', 'B', 'C'] as const) {
    partners[key] = await createUser(request, token, {
      email: `perm.partner.${key.toLowerCase()}@permwell.example`,
      first_name: 'Permy',
      last_name: `Partner${key}`,
      user_type: 'partner',
      customer_id: customer,
      customer_type: 'parent',
    });
  }
  await createUser(request, token, {
    email: PLAIN_ADMIN.email,
    first_name: 'Plain',
    last_name: 'Admin',
    user_type: 'super_admin',
    password: PLAIN_ADMIN.password,
  });
});

const holders = (page: Page) => page.getByRole('region', { name: 'Holders' });
const eligible = (page: Page) => page.getByRole('region', { name: 'Can be given' });

test('users/permissions: catalogue with the view/action split, holders, giving and taking, live refresh', async ({
  page,
  request,
}) => {
  await signInAsAdmin(page);
  await page.goto('/users/permissions');
  const catalogue = page.getByRole('navigation', { name: 'Permission catalogue' });
  await expect(catalogue.getByText(/^View \(\d+\)$/)).toBeVisible();
  await expect(catalogue.getByText(/^Actions \(\d+\)$/)).toBeVisible();
  await expect(catalogue.getByText(/^Internal permissions \(\d+\)$/)).toBeVisible();

  await page.getByRole('searchbox', { name: 'Find a permission' }).fill('parents');
  await catalogue.getByText('See Parents', { exact: true }).click();
  await expect(page).toHaveURL(/permission=PARTNER_CAN_SEE_PARENTS/);
  await expect(page.getByRole('heading', { name: 'See Parents', level: 2 })).toBeVisible();
  await expect(holders(page).getByText('Nobody holds it')).toBeVisible();
  await expect(eligible(page).getByText('Permy PartnerA')).toBeVisible();
  await expect(eligible(page).getByText('Permy PartnerC')).toBeVisible();

  // Search the eligible users (sent as query/name to /unassigned).
  const searched = page.waitForRequest(
    (r) => r.url().includes('/unassigned') && new URL(r.url()).searchParams.get('query') === 'PartnerB',
  );
  await page.getByRole('searchbox', { name: 'Search can be given' }).fill('PartnerB');
  await searched;
  await expect(eligible(page).getByText('Permy PartnerA')).toBeHidden();

  // One user, by the row's button; the body is {user_ids}.
  const assigned = page.waitForRequest((r) =>
    r.url().endsWith('/permissions/PARTNER_CAN_SEE_PARENTS/assign'),
  );
  await eligible(page).getByRole('button', { name: 'Give See Parents to Permy PartnerB' }).click();
  expect((await assigned).postDataJSON()).toEqual({ user_ids: [partners.B] });
  await expect(holders(page).getByText('Permy PartnerB')).toBeVisible();

  // Several users at once, by selection.
  await page.getByRole('searchbox', { name: 'Search can be given' }).fill('');
  await eligible(page).getByRole('checkbox', { name: 'Select Permy PartnerA' }).check();
  await eligible(page).getByRole('checkbox', { name: 'Select Permy PartnerC' }).check();
  await eligible(page).getByRole('button', { name: 'Give selected (2)' }).click();
  await expect(holders(page).getByText('Permy PartnerA')).toBeVisible();
  await expect(holders(page).getByText('Permy PartnerC')).toBeVisible();
  await expect(holders(page).getByText('1–3 of 3')).toBeVisible();
  await shot(page, 'identity-permissions');

  // Someone else takes it from C: the open screen follows live, without a reload.
  const taken = await api(request, token, 'PUT', '/api/v1/permissions/PARTNER_CAN_SEE_PARENTS/unassign', {
    user_ids: [partners.C],
  });
  expect(taken.status).toBe(200);
  await expect(holders(page).getByText('Permy PartnerC')).toBeHidden({ timeout: 10_000 });
  await expect(eligible(page).getByText('Permy PartnerC')).toBeVisible();

  // Taking it back through the screen.
  await holders(page).getByRole('button', { name: 'Remove See Parents from Permy PartnerA' }).click();
  await expect(holders(page).getByText('Permy PartnerA')).toBeHidden();
  const a = await api<{ permission_list: string[] }>(request, token, 'GET', `/api/v1/users/${partners.A}`);
  expect(a.body.permission_list).not.toContain('PARTNER_CAN_SEE_PARENTS');
  const b = await api<{ permission_list: string[] }>(request, token, 'GET', `/api/v1/users/${partners.B}`);
  expect(b.body.permission_list).toContain('PARTNER_CAN_SEE_PARENTS');
});

test('permission templates: create, list and search, edit, apply in the user editor, delete', async ({
  page,
  request,
}) => {
  await signInAsAdmin(page);
  await page.goto('/permission-templates');
  await expect(page.getByText('No templates yet')).toBeVisible();
  await page.getByRole('link', { name: 'New template' }).click();
  await expect(page).toHaveURL(/\/permission-templates\/new$/);

  // The name is required.
  await page.getByRole('button', { name: 'Create template' }).click();
  await expect(page.getByText('Name is required')).toBeVisible();

  await page.getByRole('textbox', { name: 'Name' }).fill('Attendance watcher');
  const view = page.getByRole('group', { name: 'View' });
  const actions = page.getByRole('group', { name: 'Actions' });
  await expect(view.getByRole('checkbox', { name: 'See Parents' })).toBeVisible();
  await expect(actions.getByRole('checkbox', { name: 'Join Lessons' })).toBeVisible();
  await view.getByRole('checkbox', { name: 'See Attendance' }).check();
  await view.getByRole('checkbox', { name: 'See Parents' }).check();
  await actions.getByRole('checkbox', { name: 'Join Lessons' }).check();
  await shot(page, 'identity-template-new');
  await page.getByRole('button', { name: 'Create template' }).click();
  await expect(page).toHaveURL(/\/permission-templates\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { name: 'Attendance watcher' })).toBeVisible();

  // Edit: rename and drop one permission.
  await page.getByRole('textbox', { name: 'Name' }).fill('Attendance and parents');
  await actions.getByRole('checkbox', { name: 'Join Lessons' }).uncheck();
  await page.getByRole('button', { name: 'Save template' }).click();
  await expect(page.getByRole('heading', { name: 'Attendance and parents' })).toBeVisible();
  const templateId = page.url().split('/').pop()!;
  const stored = await api<{ name: string; permissions: string[] }>(
    request,
    token,
    'GET',
    `/api/v1/permission-templates/${templateId}`,
  );
  expect(stored.body.permissions.sort()).toEqual(['PARTNER_CAN_SEE_ATTENDANCE', 'PARTNER_CAN_SEE_PARENTS']);

  // A second template by API, then the list: both, and the search narrows it.
  await api(request, token, 'POST', '/api/v1/permission-templates/', {
    name: 'Lessons only',
    permissions: ['PARTNER_CAN_JOIN_LESSONS'],
  });
  await page.goto('/permission-templates');
  const table = page.getByRole('table', { name: 'Permission templates' });
  await expect(table.getByRole('link', { name: 'Attendance and parents' })).toBeVisible();
  await expect(table.getByRole('link', { name: 'Lessons only' })).toBeVisible();
  await page.getByRole('searchbox', { name: 'Search' }).fill('lessons');
  await expect(table.getByRole('link', { name: 'Attendance and parents' })).toBeHidden();
  await shot(page, 'identity-templates');

  // Names are unique: the server's 409 shows on the name field.
  await page.getByRole('link', { name: 'New template' }).click();
  await page.getByRole('textbox', { name: 'Name' }).fill('lessons ONLY');
  await page.getByRole('button', { name: 'Create template' }).click();
  await expect(page.getByText('A permission template with this name already exists')).toBeVisible();
  await expect(page).toHaveURL(/\/permission-templates\/new$/);

  // Apply the template in a partner user's permission editor.
  await page.goto(`/users/${partners.C}/details`);
  await page.getByRole('combobox', { name: 'Apply template' }).click();
  await page.getByRole('option', { name: 'Attendance and parents' }).click();
  await expect(page.getByRole('checkbox', { name: 'See Attendance' })).toBeChecked();
  await expect(page.getByRole('checkbox', { name: 'See Parents' })).toBeChecked();
  await expect(page.getByRole('checkbox', { name: 'Join Lessons' })).not.toBeChecked();
  await shot(page, 'identity-apply-template');
  await page.getByRole('button', { name: 'Save permissions' }).click();
  await expect(page.getByText(/Permissions saved for/)).toBeVisible();
  const c = await api<{ permission_list: string[] }>(request, token, 'GET', `/api/v1/users/${partners.C}`);
  expect(c.body.permission_list).toEqual(
    expect.arrayContaining(['PARTNER_CAN_SEE_ATTENDANCE', 'PARTNER_CAN_SEE_PARENTS']),
  );

  // Delete, with confirmation.
  await page.goto(`/permission-templates/${templateId}`);
  await page.getByRole('button', { name: 'Delete template' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete this template?' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Delete template' }).click();
  await expect(page).toHaveURL(/\/permission-templates$/);
  await expect(
    page.getByRole('table', { name: 'Permission templates' }).getByText('Attendance and parents'),
  ).toBeHidden();
  const gone = await api(request, token, 'GET', `/api/v1/permission-templates/${templateId}`);
  expect(gone.status).toBe(404);
});

let northId = '';

test('networks: create with time zone and colour, details, edit; an admin without the network permission gets 403', async ({
  page,
  browser,
}) => {
  await signInAsAdmin(page);
  await page.goto('/networks');
  await expect(page.getByText('No networks yet')).toBeVisible();
  await page.getByRole('link', { name: 'New network' }).click();
  await page.getByRole('textbox', { name: 'Name' }).fill('North Network');
  const zone = page.getByRole('combobox', { name: 'Time zone' });
  await zone.click();
  await zone.fill('New_York');
  await page.getByRole('option', { name: 'America/New_York' }).click();
  await page.getByRole('textbox', { name: 'Primary colour' }).fill('#8e2c48');
  await page.getByRole('button', { name: 'Create network' }).click();
  await expect(page).toHaveURL(/\/networks\/details\/[0-9a-f-]{36}$/);
  northId = page.url().split('/').pop()!;
  await expect(page.getByRole('heading', { name: 'North Network' })).toBeVisible();
  await expect(page.getByText('America/New_York')).toBeVisible();
  await expect(page.getByText('#8e2c48')).toBeVisible();
  await shot(page, 'identity-network-details');

  // A second one, then edit the first one's name.
  await page.goto('/networks/new');
  await page.getByRole('textbox', { name: 'Name' }).fill('South Network');
  await page.getByRole('button', { name: 'Create network' }).click();
  await expect(page.getByRole('heading', { name: 'South Network' })).toBeVisible();
  await expect(page.getByText('Europe/London')).toBeVisible();
  await expect(page.getByText('#0f716c')).toBeVisible();

  await page.goto(`/networks/${northId}`);
  await page.getByRole('textbox', { name: 'Name' }).fill('North Network (NY)');
  await page.getByRole('button', { name: 'Save network' }).click();
  await expect(page.getByRole('heading', { name: 'North Network (NY)' })).toBeVisible();
  await page.goto('/networks');
  const table = page.getByRole('table', { name: 'Networks' });
  await expect(table.getByRole('link', { name: 'North Network (NY)' })).toBeVisible();
  await expect(table.getByRole('link', { name: 'South Network' })).toBeVisible();
  await shot(page, 'identity-networks');

  // An administrator without CAN_MODIFY_NETWORK reads, is told it is read only, and the server's 403 shows.
  const context = await browser.newContext();
  const other = await context.newPage();
  await other.goto('/login');
  await other.getByRole('textbox', { name: 'Email' }).fill(PLAIN_ADMIN.email);
  await other.getByRole('textbox', { name: 'Password', exact: true }).fill(PLAIN_ADMIN.password);
  await other.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(other).toHaveURL(/\/dashboard$/);
  await other.goto('/networks');
  await expect(other.getByRole('table', { name: 'Networks' }).getByText('South Network')).toBeVisible();
  await expect(other.getByText(/needs an administrator with the network permission/)).toBeVisible();
  await expect(other.getByRole('link', { name: 'New network' })).toBeHidden();
  await other.goto(`/networks/${northId}`);
  await other.getByRole('textbox', { name: 'Name' }).fill('Renamed by a plain admin');
  await other.getByRole('button', { name: 'Save network' }).click();
  const alert = other.getByRole('alert').filter({ hasText: 'Not allowed' });
  await expect(alert).toBeVisible();
  await expect(alert).toContainText('CAN_MODIFY_NETWORK');
  await other.screenshot({ path: join(artifacts, 'identity-network-403.png'), fullPage: true });
  await context.close();
});

const primaryFilled = (page: Page) =>
  page.evaluate(() =>
    getComputedStyle(document.documentElement).getPropertyValue('--mantine-primary-color-filled').trim(),
  );

test('header network switcher: switching changes the primary colour and the timezone banner at once', async ({
  page,
  request,
}) => {
  await signInAsAdmin(page);
  await page.goto('/dashboard');
  const switcher = page.getByRole('button', { name: /^Active network: .*Switch network$/ });
  await expect(switcher).toBeVisible();

  // North (America/New_York, #8e2c48): the admin's clock (Europe/London) differs.
  await switcher.click();
  const switched = page.waitForRequest(
    (r) => r.method() === 'PUT' && r.url().endsWith(`/api/v1/users/${adminId}/active_network/${northId}`),
  );
  await page.getByRole('menuitem', { name: /North Network \(NY\)/ }).click();
  await switched;
  await expect(
    page.getByRole('button', { name: 'Active network: North Network (NY). Switch network' }),
  ).toBeVisible();
  await expect.poll(() => primaryFilled(page)).toBe('#8e2c48');
  const banner = page.getByTestId('timezone-mismatch');
  await expect(banner).toContainText('North Network (NY)');
  await expect(banner).toContainText('5 hours');
  await shot(page, 'identity-switcher-north');

  // Stored for the next visit: the user details in storage name the new network.
  const stored = await page.evaluate(() => window.localStorage.getItem('user_details'));
  expect(stored).toContain(northId);
  await page.reload();
  await expect.poll(() => primaryFilled(page)).toBe('#8e2c48');

  // South (Europe/London, default dark teal): no banner, default colour.
  await page.getByRole('button', { name: /Switch network$/ }).click();
  await page.getByRole('menuitem', { name: /South Network/ }).click();
  await expect(
    page.getByRole('button', { name: 'Active network: South Network. Switch network' }),
  ).toBeVisible();
  await expect(banner).toBeHidden();
  await expect.poll(() => primaryFilled(page)).toBe('#0f716c');
  const me = await api<{ active_network_id: string }>(request, token, 'GET', '/api/v1/users/me');
  expect(me.body.active_network_id).not.toBe(northId);
  await page.getByRole('button', { name: /Switch network$/ }).click();
  await shot(page, 'identity-switcher-menu');
});
