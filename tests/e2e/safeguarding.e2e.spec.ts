import { expect, test } from '@playwright/test';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { adminToken, api, createCustomer, createUser, signedIn } from './support/portal-api.js';

const artifacts = join(dirname(fileURLToPath(import.meta.url)), '.artifacts');
const PASSWORD = 'Safeguarding-e2e-2026';

test('a teacher reports a concern, the lead sees it arrive live, acknowledges it, and both co-edit the write-up', async ({
  browser,
  request,
}) => {
  test.setTimeout(150_000);
  const admin = await adminToken(request);
  const suffix = Date.now().toString(36);
  const customer = await createCustomer(request, admin, `Hawthorn ${suffix}`);
  const student = await createUser(request, admin, {
    email: `jo.${suffix}@students.example.org`,
    first_name: 'Jo',
    last_name: `Rowan${suffix}`,
    user_type: 'student',
    customer_id: customer,
  });
  const leadEmail = `lead.${suffix}@tutors.example.org`;
  const reporterEmail = `reporter.${suffix}@tutors.example.org`;
  const lead = await api(request, admin, 'POST', '/api/v1/users/', {
    email: leadEmail,
    first_name: 'Lena',
    last_name: 'Lead',
    user_type: 'teacher',
    password: PASSWORD,
    permissions: ['CAN_LEAD_SAFEGUARDING'],
  });
  expect(lead.status, JSON.stringify(lead.body)).toBe(201);
  await createUser(request, admin, {
    email: reporterEmail,
    first_name: 'Ravi',
    last_name: 'Reporter',
    user_type: 'teacher',
    password: PASSWORD,
  });
  // Incident types are managed by an administrator with safeguarding access.
  const me = await api<{ id: string }>(request, admin, 'GET', '/api/v1/users/me');
  const granted = await api(request, admin, 'PUT', `/api/v1/users/${me.body.id}/permissions`, {
    permissions: ['USER_IS_ADMIN', 'CAN_ACCESS_SAFEGUARDING'],
  });
  expect(granted.status).toBe(200);
  // The guard reads permissions from the read model: read (with X-Min-Position) until it has the grant.
  await api(request, admin, 'GET', '/api/v1/users/me');
  const typeName = `Online safety ${suffix}`;
  const type = await api(request, admin, 'POST', '/api/v1/safeguarding-incident-types/', {
    name: typeName,
    guidance: 'Record what was shared, where and when. Do not forward images.',
  });
  expect(type.status, JSON.stringify(type.body)).toBe(201);

  const leadPage = await signedIn(browser, leadEmail, PASSWORD);
  await leadPage.goto('/safeguarding-incidents');
  await expect(leadPage.getByRole('heading', { name: 'Safeguarding incidents', level: 1 })).toBeVisible();

  // The reporter has no safeguarding access, yet reports from the dashboard.
  const reporter = await signedIn(browser, reporterEmail, PASSWORD);
  await reporter.getByRole('button', { name: 'Report a concern' }).click();
  const form = reporter.getByRole('dialog', { name: 'Report a safeguarding concern' });
  await form.getByRole('button', { name: 'Report incident' }).click();
  await expect(form.getByText('Choose at least one student')).toBeVisible();
  await form.getByPlaceholder('Search students by name').fill(`Rowan${suffix}`);
  await reporter.getByRole('option', { name: new RegExp(`Jo Rowan${suffix}`) }).click();
  await reporter.keyboard.press('Escape');
  await form.getByPlaceholder('Choose one or more').click();
  await reporter.getByRole('option', { name: typeName }).click();
  await reporter.keyboard.press('Escape');
  await expect(form.getByText('Do not forward images.')).toBeVisible();
  await form
    .getByRole('textbox', { name: 'What happened' })
    .fill('Jo said an older student asked for photos over a game chat.');
  await form
    .getByRole('textbox', { name: 'Immediate action taken' })
    .fill('Reassured Jo; told Jo not to reply.');
  await form.getByText('High', { exact: true }).click();
  await reporter.screenshot({ path: join(artifacts, 'safeguarding-report-form-1400.png') });
  await form.getByRole('button', { name: 'Report incident' }).click();
  await expect(reporter).toHaveURL(/\/safeguarding-incidents\/[0-9a-f-]{36}$/);
  const incidentId = reporter.url().split('/').pop()!;

  // The lead's open list shows it at once, marked new, with an alert.
  const row = leadPage.getByRole('row', { name: new RegExp(`Jo Rowan${suffix}`) });
  await expect(row).toBeVisible({ timeout: 5_000 });
  await expect(row).toContainText('New');
  await expect(row).toContainText('high risk');
  await expect(leadPage.getByText('New safeguarding incident')).toBeVisible();
  await leadPage.screenshot({ path: join(artifacts, 'safeguarding-triage-1400.png') });

  await row.click();
  await expect(leadPage).toHaveURL(new RegExp(`/safeguarding-incidents/${incidentId}$`));
  await leadPage.getByRole('button', { name: 'Acknowledge' }).click();
  await expect(leadPage.getByRole('button', { name: 'Start review (assign to me)' })).toBeVisible({
    timeout: 15_000,
  });

  // Reporter and lead write the write-up together and see each other's words as they type.
  const leadEditor = leadPage.getByRole('textbox', { name: 'Incident write-up' });
  const reporterEditor = reporter.getByRole('textbox', { name: 'Incident write-up' });
  await expect(leadEditor).toBeVisible({ timeout: 10_000 });
  await leadEditor.click();
  await leadPage.keyboard.type('Spoke with Jo at 14:10. ');
  await expect(reporterEditor).toContainText('Spoke with Jo at 14:10.', { timeout: 10_000 });
  await reporterEditor.click();
  await reporter.keyboard.press('Control+End');
  await reporter.keyboard.type('Jo showed me the chat.');
  await expect(leadEditor).toContainText('Jo showed me the chat.', { timeout: 10_000 });
  await expect(leadPage.getByText('Saved ✓')).toBeVisible();
  await expect(leadPage.getByLabel('Also here')).toBeVisible();

  await leadPage.getByRole('button', { name: 'Verify history' }).click();
  await expect(leadPage.getByText(/Intact: \d+ events, hash chain verified/)).toBeVisible();
  await leadPage.screenshot({ path: join(artifacts, 'safeguarding-incident-1400.png'), fullPage: true });
  // The reporter follows the concern from their own list: its stage changes there as the lead acts.
  await reporter.goto('/my-reported-concerns');
  const mine = reporter.getByRole('row', { name: new RegExp(`Jo Rowan${suffix}`) });
  await expect(mine).toContainText('Acknowledged');
  await leadPage.getByRole('button', { name: 'Start review (assign to me)' }).click();
  await expect(mine).toContainText('Under review', { timeout: 10_000 });
  await reporter.screenshot({ path: join(artifacts, 'safeguarding-my-reported-1400.png') });
  // The header's bell counted both steps as they happened; the inbox says what and marks them read.
  const bell = reporter.getByRole('link', { name: 'Notifications, 2 unread' });
  await expect(bell).toBeVisible({ timeout: 10_000 });
  await bell.click();
  await expect(reporter.getByRole('heading', { name: 'Notifications', level: 1 })).toBeVisible();
  await expect(reporter.getByText('A safeguarding lead acknowledged the concern you reported')).toBeVisible();
  await expect(reporter.getByText('The concern you reported is under review')).toBeVisible();
  await reporter.screenshot({ path: join(artifacts, 'notifications-1400.png') });
  await reporter.getByRole('button', { name: 'Mark all as read' }).click();
  await expect(
    reporter.getByRole('banner').getByRole('link', { name: 'Notifications', exact: true }),
  ).toBeVisible();
  await expect(reporter.getByText('New', { exact: true })).toHaveCount(0);

  // On a phone (390 px) the board is a list of cards that show each incident's risk and stage.
  await leadPage.setViewportSize({ width: 390, height: 844 });
  await leadPage.goto('/safeguarding-incidents');
  const card = leadPage
    .getByRole('list', { name: 'Safeguarding incidents' })
    .getByRole('listitem')
    .filter({ hasText: `Jo Rowan${suffix}` });
  await expect(card.getByText(/^(low|medium|high) risk$/i)).toBeVisible();
  await expect(card.getByText('Under review')).toBeVisible();
  expect(await leadPage.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBe(0);
  await leadPage.screenshot({ path: join(artifacts, 'safeguarding-board-390.png'), fullPage: true });

  // The student list is shared by every e2e file: take the test's student out of it (soft delete, ADR 0015).
  expect((await api(request, admin, 'DELETE', `/api/v1/users/${student}`)).status).toBe(200);
});
