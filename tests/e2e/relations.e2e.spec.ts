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
  signedIn,
  tokenFor,
} from './support/portal-api.js';

/**
 * Partner ↔ student relations (ADR 0034): an administrator links a student to a link contact on the
 * contact's details page; the link contact, signed in elsewhere, sees the student appear without a
 * reload and can open them; a partner super-admin manages links on partner/relationships.
 */

const artifacts = join(dirname(fileURLToPath(import.meta.url)), '.artifacts');
const shot = (page: Page, name: string) =>
  page.screenshot({ path: join(artifacts, `${name}.png`), fullPage: true });
const PASSWORD = 'Relations-e2e-2026';

test.use({ viewport: { width: 1400, height: 900 } });

// Unique per worker (a retry after afterAll took the users out needs new e-mails), and taken out again
// at the end: other e2e files count students and partner users.
const run = Date.now().toString(36);
const created: string[] = [];
const make = async (...args: Parameters<typeof createUser>) => {
  const id = await createUser(...args);
  created.push(id);
  return id;
};
test.afterAll(async ({ request }) => {
  if (created.length) await deleteUsers(request, await adminToken(request), created);
});

test('an administrator links a student to a link contact, who sees the student appear live', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(90_000);
  const token = await adminToken(request);
  const school = await createCustomer(request, token, 'Rowan Park Academy');
  const contactId = await make(request, token, {
    email: `lina.link.${run}@rowan.example`,
    first_name: 'Lina',
    last_name: 'Linkwell',
    user_type: 'partner',
    customer_id: school,
    customer_type: 'link-contact',
    password: PASSWORD,
  });
  const studentId = await make(request, token, {
    email: `sami.student.${run}@rowan.example`,
    first_name: 'Sami',
    last_name: 'Rowanson',
    user_type: 'student',
    customer_id: school,
  });
  await make(request, token, {
    email: `other.student.${run}@rowan.example`,
    first_name: 'Otto',
    last_name: 'Unlinked',
    user_type: 'student',
    customer_id: school,
  });

  // The link contact watches their own page: nobody linked yet.
  const contact = await signedIn(browser, `lina.link.${run}@rowan.example`, PASSWORD);
  await contact.goto(`/users/${contactId}/details`);
  const theirCard = contact.getByRole('region', { name: 'Linked students' });
  await expect(theirCard.getByText('No linked students yet.')).toBeVisible({ timeout: 15_000 });
  await expect(theirCard.getByRole('button', { name: 'Edit linked students' })).toHaveCount(0);
  // Before the link, the student is not theirs to see.
  expect(
    (
      await api(
        request,
        await tokenFor(request, `lina.link.${run}@rowan.example`, PASSWORD),
        'GET',
        `/api/v1/users/${studentId}`,
      )
    ).status,
  ).toBe(404);

  // The administrator links Sami on the contact's details page.
  await signInAsAdmin(page);
  await page.goto(`/users/${contactId}/details`);
  const card = page.getByRole('region', { name: 'Linked students' });
  // Generous waits: the build machine is shared and slow under load.
  await expect(card.getByText('No linked students yet.')).toBeVisible({ timeout: 15_000 });
  await card.getByRole('button', { name: 'Edit linked students' }).click();
  const dialog = page.getByRole('dialog', { name: 'Linked students of Lina Linkwell' });
  const students = dialog.getByRole('combobox', { name: 'Students' });
  await students.click();
  await students.fill('Sami');
  await page.getByRole('option', { name: /Sami Rowanson/ }).click();
  // Close the option list (click outside it, inside the dialog) before saving.
  await dialog.getByText(/Choose students of Rowan Park Academy/).click();
  await expect(page.getByRole('listbox', { name: 'Students' })).toBeHidden();
  await shot(page, 'relations-edit-linked-students');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden({ timeout: 15_000 });
  await expect(card.getByRole('link', { name: 'Sami Rowanson' })).toBeVisible();
  await shot(page, 'relations-admin-partner-details');

  // The link contact's page updates in place (live), and the student's details now open for them.
  await expect(theirCard.getByRole('link', { name: 'Sami Rowanson' })).toBeVisible({ timeout: 10_000 });
  await expect(theirCard.getByText('Otto Unlinked')).toHaveCount(0);
  await shot(contact, 'relations-link-contact-sees-student');
  await theirCard.getByRole('link', { name: 'Sami Rowanson' }).click();
  await expect(contact.getByRole('heading', { name: 'Sami Rowanson', level: 1 })).toBeVisible();

  // The student's own details page (admin) names the linked contact.
  await page.goto(`/users/${studentId}/details`);
  const partners = page.getByRole('region', { name: 'Linked customer users' });
  await expect(partners.getByRole('link', { name: 'Lina Linkwell' })).toBeVisible();
  await shot(page, 'relations-student-details');
  await contact.context().close();
});

test('a partner super-admin manages links on partner/relationships', async ({ browser, request }) => {
  test.setTimeout(90_000);
  const token = await adminToken(request);
  const school = await createCustomer(request, token, 'Birch Hill School');
  await make(request, token, {
    email: `head.${run}@birch.example`,
    first_name: 'Helen',
    last_name: 'Birch',
    user_type: 'partner',
    customer_id: school,
    customer_type: 'super-admin',
    password: PASSWORD,
  });
  const parentId = await make(request, token, {
    email: `paula.parent.${run}@birch.example`,
    first_name: 'Paula',
    last_name: 'Parent',
    user_type: 'partner',
    customer_id: school,
    customer_type: 'parent',
  });
  await make(request, token, {
    email: `ned.contact.${run}@birch.example`,
    first_name: 'Ned',
    last_name: 'Contact',
    user_type: 'partner',
    customer_id: school,
    customer_type: 'link-contact',
  });
  await make(request, token, {
    email: `kai.student.${run}@birch.example`,
    first_name: 'Kai',
    last_name: 'Birchley',
    user_type: 'student',
    customer_id: school,
  });

  const head = await signedIn(browser, `head.${run}@birch.example`, PASSWORD);
  await head.getByRole('link', { name: 'Relationships' }).click();
  await expect(head.getByRole('heading', { name: 'Relationships', level: 1 })).toBeVisible();
  await expect(
    head.getByRole('navigation', { name: 'Link contacts' }).getByText('Ned Contact'),
  ).toBeVisible();
  await shot(head, 'relations-partner-relationships');
  await head.getByRole('tab', { name: 'Parents / carers' }).click();
  await expect(head).toHaveURL(/\/partner\/relationships\/parents$/);
  const card = head.getByRole('region', { name: 'Linked students' });
  await expect(card.getByText('No linked students yet.')).toBeVisible();
  await card.getByRole('button', { name: 'Edit linked students' }).click();
  const students = head.getByRole('combobox', { name: 'Students' });
  await students.click();
  await head.getByRole('option', { name: /Kai Birchley/ }).click();
  await head
    .getByRole('dialog')
    .getByText(/Choose students of Birch Hill School/)
    .click();
  await head.getByRole('dialog').getByRole('button', { name: 'Save' }).click();
  await expect(card.getByRole('link', { name: 'Kai Birchley' })).toBeVisible();
  const linked = await api<{ items: { login: string }[] }>(
    request,
    token,
    'GET',
    `/api/v1/users/${parentId}/linked-students`,
  );
  expect(linked.body.items.map((s) => s.login)).toEqual([`kai.student.${run}@birch.example`]);
  await head.context().close();
});
