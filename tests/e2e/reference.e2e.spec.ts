import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { E2E_BASE_URL, SUPERUSER } from './support/env.js';
import { api, tokenFor } from './support/portal-api.js';
import { typeDay } from './support/day-input.js';

const artifacts = join(dirname(fileURLToPath(import.meta.url)), '.artifacts');

async function adminToken(request: APIRequestContext): Promise<string> {
  const res = await request.post(`${E2E_BASE_URL}/api/v1/login/access-token`, {
    form: { username: SUPERUSER.email, password: SUPERUSER.password },
  });
  expect(res.ok()).toBe(true);
  return ((await res.json()) as { access_token: string }).access_token;
}

async function signIn(page: Page): Promise<void> {
  await page.goto('/login');
  await page.getByRole('textbox', { name: 'Email' }).fill(SUPERUSER.email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(SUPERUSER.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(`${E2E_BASE_URL}/dashboard`);
}

test.use({ viewport: { width: 1400, height: 900 } });

test('products: an admin adds a product, sees it in the list, opens it, and a change made elsewhere shows up live', async ({
  page,
  request,
}) => {
  const token = await adminToken(request);
  const suffix = Date.now().toString(36);
  const name = `Small group online ${suffix}`;
  await signIn(page);
  await page.goto('/products');
  await expect(page.getByRole('heading', { name: 'Products', level: 1 })).toBeVisible();

  await page.getByRole('button', { name: 'Add product' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add a product' });
  await dialog.getByRole('button', { name: 'Add product' }).click();
  await expect(dialog.getByText('Name is required')).toBeVisible();
  await dialog.getByRole('textbox', { name: 'Name' }).fill(name);
  await dialog.getByRole('combobox', { name: 'Delivery' }).click();
  await page.getByRole('option', { name: 'Online, group' }).click();
  await dialog.getByRole('textbox', { name: 'Largest group' }).fill('61');
  await dialog.getByRole('button', { name: 'Add product' }).click();
  // The server has the last word on the bounds, and names the field.
  await expect(dialog.getByText('Max group size must not be greater than 60')).toBeVisible();
  await dialog.getByRole('textbox', { name: 'Largest group' }).fill('6');
  await dialog.getByRole('button', { name: 'Add product' }).click();
  await expect(dialog).toBeHidden();

  await page.getByRole('searchbox', { name: 'Search products' }).fill(suffix);
  const table = page.getByRole('table', { name: 'Products' });
  await expect(table.getByRole('row')).toHaveCount(2);
  await expect(table.getByRole('row', { name })).toContainText('6 students');
  await table.getByRole('row', { name }).click();
  await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible();
  await expect(page.getByText('Online, group')).toBeVisible();

  // A colleague changes the lesson length through the API: this page follows without a reload.
  const id = page.url().split('/').pop()!;
  const res = await request.fetch(`${E2E_BASE_URL}/api/v1/products/${id}`, {
    method: 'PUT',
    headers: { RequestVerificationToken: token },
    data: { default_duration_minutes: 90 },
  });
  expect(res.status(), await res.text()).toBe(200);
  await expect(page.getByText('90 minutes')).toBeVisible();
  await page.screenshot({ path: join(artifacts, 'product-details-1400.png') });
});

test('term calendars: an admin adds a calendar, an overlapping term is refused on its row, and the list shows the terms', async ({
  page,
  request,
}) => {
  const token = await adminToken(request);
  const suffix = Date.now().toString(36);
  // Spec §6: creating a network needs an administrator with the network permission.
  const email = `net.${suffix}@reference.example`;
  const created = await api(request, token, 'POST', '/api/v1/users/', {
    email,
    first_name: 'Nia',
    last_name: 'Networks',
    user_type: 'super_admin',
    password: 'Networks-2026!',
    permissions: ['CAN_MODIFY_NETWORK'],
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const networker = await tokenFor(request, email, 'Networks-2026!');
  const networkName = `Calendar network ${suffix}`;
  await expect
    .poll(
      async () =>
        (
          await api(request, networker, 'POST', '/api/v1/networks/', {
            name: networkName,
            timezone: 'Europe/London',
            primary_colour: '#0f716c',
          })
        ).status,
    )
    .toBe(201);
  await signIn(page);
  await page.goto('/settings/term-calendars');
  await expect(page.getByRole('heading', { name: 'Term calendars', level: 1 })).toBeVisible();

  await page.getByRole('button', { name: 'Add calendar' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add a term calendar' });
  await dialog.getByRole('textbox', { name: 'Name' }).fill(`Calendar ${suffix}`);
  await dialog.getByRole('combobox', { name: 'Network' }).click();
  await page.getByRole('option', { name: networkName }).click();
  await typeDay(dialog.getByLabel('First day').first(), '2026-09-02');
  await typeDay(dialog.getByLabel('Last day').first(), '2026-12-18');
  await dialog.getByRole('button', { name: 'Add term' }).click();
  await dialog.getByRole('textbox', { name: 'Term' }).nth(1).fill('Spring');
  await typeDay(dialog.getByLabel('First day').nth(1), '2026-12-01');
  await typeDay(dialog.getByLabel('Last day').nth(1), '2027-03-26');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByText(/Overlaps term 0 \(Autumn/)).toBeVisible();
  await typeDay(dialog.getByLabel('First day').nth(1), '2027-01-05');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();

  await page.getByRole('searchbox', { name: 'Search term calendars' }).fill(suffix);
  const table = page.getByRole('table', { name: 'Term calendars' });
  await expect(table.getByRole('row')).toHaveCount(2);
  await expect(table).toContainText('Autumn 02.09.2026–18.12.2026 · Spring 05.01.2027–26.03.2027');
  await page.screenshot({ path: join(artifacts, 'term-calendars-1400.png') });
});
