import { expect, test } from '@playwright/test';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  adminToken,
  api,
  createCustomer,
  createUser,
  deleteUsers,
  signedIn,
  tokenFor,
} from './support/portal-api.js';

const artifacts = join(dirname(fileURLToPath(import.meta.url)), '.artifacts');
const PASSWORD = 'Safeguarding-presence-2026';

// Other e2e files count students and teachers: take ours out again at the end (soft delete).
const created: string[] = [];
test.afterAll(async ({ request }) => {
  if (created.length) await deleteUsers(request, await adminToken(request), created);
});

test('lead B’s open board shows lead A viewing an incident without a reload, the claim live, and clears when A leaves', async ({
  browser,
  request,
}) => {
  test.setTimeout(150_000);
  const admin = await adminToken(request);
  const suffix = Date.now().toString(36);
  const customer = await createCustomer(request, admin, `Larch ${suffix}`);
  const student = await createUser(request, admin, {
    email: `mo.${suffix}@students.example.org`,
    first_name: 'Mo',
    last_name: `Birch${suffix}`,
    user_type: 'student',
    customer_id: customer,
  });
  created.push(student);
  const leads = { a: `ada.${suffix}@tutors.example.org`, b: `ben.${suffix}@tutors.example.org` };
  for (const [key, first] of [
    ['a', 'Ada'],
    ['b', 'Ben'],
  ] as const) {
    const made = await api(request, admin, 'POST', '/api/v1/users/', {
      email: leads[key],
      first_name: first,
      last_name: 'Lead',
      user_type: 'teacher',
      password: PASSWORD,
      permissions: ['CAN_LEAD_SAFEGUARDING'],
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    created.push((made.body as { id: string }).id);
  }
  const me = await api<{ id: string }>(request, admin, 'GET', '/api/v1/users/me');
  await api(request, admin, 'PUT', `/api/v1/users/${me.body.id}/permissions`, {
    permissions: ['USER_IS_ADMIN', 'CAN_ACCESS_SAFEGUARDING'],
  });
  const type = await api<{ id: string }>(request, admin, 'POST', '/api/v1/safeguarding-incident-types/', {
    name: `Wellbeing ${suffix}`,
    guidance: 'Changes in mood or behaviour.',
  });
  expect(type.status, JSON.stringify(type.body)).toBe(201);
  const leadA = await tokenFor(request, leads.a, PASSWORD);
  const reported = await api<{ id: string }>(request, leadA, 'POST', '/api/v1/safeguarding-incidents/', {
    student_ids: [student],
    type_ids: [type.body.id],
    occurred_at: new Date(Date.now() - 3_600_000).toISOString(),
    description: 'Mo seemed withdrawn and said they were not sleeping.',
    immediate_action: 'Checked in after the lesson.',
    lead_told_verbally: false,
  });
  expect(reported.status, JSON.stringify(reported.body)).toBe(201);
  const incidentId = reported.body.id;

  // Lead B has the triage board open; nobody views the incident yet, nobody has claimed it.
  const b = await signedIn(browser, leads.b, PASSWORD);
  await b.goto('/safeguarding-incidents');
  const row = b.getByRole('row', { name: new RegExp(`Mo Birch${suffix}`) });
  await expect(row).toBeVisible();
  await expect(row).toContainText('Not claimed');
  await expect(row.getByRole('group', { name: /^Viewing/ })).toHaveCount(0);

  // Lead A opens the incident: B's board names A on that row, without a reload.
  const a = await signedIn(browser, leads.a, PASSWORD);
  await a.goto(`/safeguarding-incidents/${incidentId}`);
  await expect(a.getByText('Nobody else has it open')).toBeVisible();
  await expect(row.getByRole('group', { name: 'Viewing: Ada Lead' })).toBeVisible({ timeout: 3_000 });

  // B claims it from the board; A's page shows the claim live, B's row says "Claimed by you".
  await row.getByRole('button', { name: /^Claim/ }).click();
  await expect(row).toContainText('Claimed by you');
  await expect(a.getByText('Claimed by Ben Lead')).toBeVisible({ timeout: 5_000 });
  // Keyboard users get the name too: Tab from the row's Release button to the avatar shows its tooltip.
  await row.getByRole('button', { name: /^Release/ }).focus();
  await b.keyboard.press('Tab');
  await expect(b.getByRole('tooltip', { name: 'Ada Lead is viewing' })).toBeVisible();
  await b.screenshot({ path: join(artifacts, 'safeguarding-presence-board-1400.png') });

  // B opens it too: A's header shows B as also viewing; B goes back to the board: gone again.
  await row.click();
  await expect(b).toHaveURL(new RegExp(`/safeguarding-incidents/${incidentId}$`));
  await expect(a.getByRole('group', { name: 'Also viewing: Ben Lead' })).toBeVisible({ timeout: 3_000 });
  await expect(b.getByRole('group', { name: 'Also viewing: Ada Lead' })).toBeVisible();
  await expect(b.getByRole('button', { name: /^Release \(/ })).toBeVisible();
  await a.screenshot({ path: join(artifacts, 'safeguarding-presence-incident-1400.png') });
  await b.goBack();
  await expect(a.getByText('Nobody else has it open')).toBeVisible({ timeout: 3_000 });

  // A closes the tab: B's board no longer shows A.
  const boardRow = b.getByRole('row', { name: new RegExp(`Mo Birch${suffix}`) });
  await expect(boardRow.getByRole('group', { name: 'Viewing: Ada Lead' })).toBeVisible();
  await a.context().close();
  await expect(boardRow.getByRole('group', { name: /^Viewing/ })).toHaveCount(0, { timeout: 3_000 });

  // The student list is shared by every e2e file: take the test's student out of it (soft delete).
  expect((await api(request, admin, 'DELETE', `/api/v1/users/${student}`)).status).toBe(200);
});
