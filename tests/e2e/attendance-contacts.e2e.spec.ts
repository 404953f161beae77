import { expect, test } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SUPERUSER } from './support/env.js';
import { adminToken, api, createCustomer, createUser, deleteUsers, signedIn } from './support/portal-api.js';

// A school's attendance contacts (decision 0061, ADR 0066): kept by partners with "edit attendance
// contacts", read by the school's other partners, offered only among its users who see attendance.
const artifacts = join(dirname(fileURLToPath(import.meta.url)), '.artifacts');
const stamp = Date.now().toString(36);
const PASSWORD = 'Contacts-Keeper-2026!';
const SEES = ['USER_IS_PARTNER', 'PARTNER_CAN_SEE_ATTENDANCE'];
const people = {
  head: {
    first: 'Hana',
    last: `Head${stamp}`,
    type: 'super-admin',
    perms: [...SEES, 'PARTNER_CAN_EDIT_ATTENDANCE_CONTACTS'],
  },
  office: { first: 'Omar', last: `Office${stamp}`, type: 'admin', perms: SEES },
  link: { first: 'Lee', last: `Link${stamp}`, type: 'link-contact', perms: SEES },
  reader: { first: 'Rita', last: `Reader${stamp}`, type: 'admin', perms: SEES },
  parent: { first: 'Pat', last: `Parent${stamp}`, type: 'parent', perms: ['USER_IS_PARTNER'] },
} as const;
type Who = keyof typeof people;
const email = (who: Who) => `${who}.${stamp}@contacts.example`;
const name = (who: Who) => `${people[who].first} ${people[who].last}`;
const ids: Partial<Record<Who, string>> = {};
let token = '';
let customerId = '';

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ request }) => {
  token = await adminToken(request);
  customerId = await createCustomer(request, token, `Contacts School ${stamp}`);
  for (const who of Object.keys(people) as Who[]) {
    const p = people[who];
    ids[who] = await createUser(request, token, {
      email: email(who),
      first_name: p.first,
      last_name: p.last,
      user_type: 'partner',
      customer_id: customerId,
      customer_type: p.type,
      password: PASSWORD,
    });
    const set = await api(request, token, 'PUT', `/api/v1/users/${ids[who]}/permissions`, {
      permissions: p.perms,
    });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
  }
});

test.afterAll(async ({ request }) => {
  await deleteUsers(request, token, Object.values(ids));
});

test('a school keeps its attendance contacts: only users who see attendance are offered, others read the list live, a refusal names the contact', async ({
  browser,
  request,
}) => {
  const reader = await signedIn(browser, email('reader'), PASSWORD);
  await reader.goto('/attendance');
  const readerCard = reader.getByRole('region', { name: 'Attendance contacts' });
  await expect(readerCard.getByText('No attendance contacts yet')).toBeVisible();
  // Read-only for those who may not change it: no controls.
  await expect(readerCard.getByRole('button', { name: 'Save contacts' })).toHaveCount(0);
  await expect(readerCard.getByRole('combobox')).toHaveCount(0);

  const head = await signedIn(browser, email('head'), PASSWORD);
  await head.goto('/attendance');
  const card = head.getByRole('region', { name: 'Attendance contacts' });
  await expect(card.getByText('No attendance contacts yet')).toBeVisible();
  const pick = card.getByRole('combobox', { name: 'Add a contact' });
  await expect(pick).toBeEnabled();
  // The parent does not see attendance: not offered.
  const offered = await pick.locator('option').allTextContents();
  expect(offered.join('|')).toContain(name('office'));
  expect(offered.join('|')).toContain(name('link'));
  expect(offered.join('|')).not.toContain(name('parent'));

  // By keyboard: choose the office, a daily digest, Enter on Add; then the head themself, each change.
  await pick.focus();
  await pick.selectOption({ label: `${name('office')} (System administrator)` });
  await card.getByRole('combobox', { name: 'E-mails', exact: true }).selectOption('daily');
  await card.getByRole('button', { name: 'Add', exact: true }).focus();
  await head.keyboard.press('Enter');
  await pick.selectOption({ label: `${name('head')} (Super system administrator)` });
  await card.getByRole('combobox', { name: 'E-mails', exact: true }).selectOption('each-change');
  await card.getByRole('button', { name: 'Add', exact: true }).click();
  const table = card.getByRole('table', { name: 'Attendance contacts' });
  await expect(table.getByRole('row')).toHaveCount(3);
  await card.getByRole('button', { name: 'Save contacts' }).click();
  await expect(card.getByRole('button', { name: 'Save contacts' })).toBeDisabled();

  // The reader's open page follows without a reload.
  const readerTable = readerCard.getByRole('table', { name: 'Attendance contacts' });
  await expect(readerTable.getByRole('row').filter({ hasText: name('office') })).toContainText(
    'One daily digest',
    { timeout: 10_000 },
  );
  await expect(readerTable.getByRole('row').filter({ hasText: name('head') })).toContainText(
    'An e-mail for each alert',
  );
  // Readers see who is told and how often, not their e-mail addresses.
  await expect(readerCard.getByText(email('office'))).toHaveCount(0);
  await expect(card.getByText(email('office'))).toBeVisible();

  // The link contact stops seeing attendance while the head is choosing them: the save is refused and
  // the message names them and the field.
  await pick.selectOption({ label: `${name('link')} (Link contact)` });
  await card.getByRole('button', { name: 'Add', exact: true }).click();
  const revoked = await api(request, token, 'PUT', `/api/v1/users/${ids.link}/permissions`, {
    permissions: ['USER_IS_PARTNER'],
  });
  expect(revoked.status).toBe(200);
  await card.getByRole('button', { name: 'Save contacts' }).click();
  const alert = card.getByRole('alert').filter({ hasText: 'The contacts were not saved' });
  await expect(alert).toContainText(name('link'));
  await expect(alert).toContainText('contacts[2].user_id');
  await expect(alert).toContainText('does not see attendance');
  await expect(table.getByRole('row').filter({ hasText: name('link') })).toContainText('Not accepted');
  mkdirSync(artifacts, { recursive: true });
  await head.screenshot({ path: join(artifacts, 'attendance-contacts-1400.png'), fullPage: true });
  // Removing them brings the draft back to the saved list.
  await card.getByRole('button', { name: `Remove ${name('link')}` }).click();
  await expect(alert).toHaveCount(0);
  await expect(card.getByRole('button', { name: 'Save contacts' })).toBeDisabled();
  await reader.context().close();
  await head.context().close();
});

test('staff keep any school’s contacts on its customer page', async ({ browser }) => {
  const page = await signedIn(browser, SUPERUSER.email, SUPERUSER.password);
  await page.goto(`/customers/details/${customerId}`);
  const card = page.getByRole('region', { name: 'Attendance contacts' });
  const row = card.getByRole('row').filter({ hasText: name('office') });
  await expect(row).toBeVisible();
  await row.getByRole('combobox', { name: `E-mails for ${name('office')}` }).selectOption('each-change');
  await card.getByRole('button', { name: 'Save contacts' }).click();
  await expect(card.getByRole('button', { name: 'Save contacts' })).toBeDisabled();
  await page.reload();
  await expect(
    page
      .getByRole('region', { name: 'Attendance contacts' })
      .getByRole('combobox', { name: `E-mails for ${name('office')}` }),
  ).toHaveValue('each-change');
  await page.context().close();
});
