import { expect, test } from '@playwright/test';
import {
  adminToken,
  api,
  createCustomer,
  createUser,
  deleteUsers,
  signedIn,
  signInAsAdmin,
} from './support/portal-api.js';

// Issue 18 item 6: two pupils of the same name are told apart by school and year group wherever one is
// picked: the group enrolment picker, the planned-absence picker and the safeguarding report's picker.
const PASSWORD = 'Told-Apart-2026!';
const stamp = Date.now().toString(36);
const NAME = `Alex Same${stamp}`;
const OAK = `Oak School ${stamp}`;
const ELM = `Elm School ${stamp}`;
const ids: string[] = [];
let group = '';
const contact = `lc.${stamp}@told-apart.example`;

test.describe.configure({ mode: 'serial', timeout: 120_000 });

test.beforeAll(async ({ request }) => {
  const token = await adminToken(request);
  const ok = (res: { status: number; body: unknown }) =>
    expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
  const oak = await createCustomer(request, token, OAK);
  const elm = await createCustomer(request, token, ELM);
  const [first, last] = NAME.split(' ') as [string, string];
  const students: string[] = [];
  for (const [school, year] of [
    [oak, 'Year 7'],
    [elm, 'Year 9'],
  ] as const) {
    const id = await createUser(request, token, {
      email: `alex.${year.slice(-1)}.${stamp}@told-apart.example`,
      first_name: first,
      last_name: last,
      user_type: 'student',
      customer_id: school,
    });
    students.push(id);
    ok(await api(request, token, 'POST', '/api/v1/one-page-profiles/', { user_id: id, year_group: year }));
  }
  const linkContact = await createUser(request, token, {
    email: contact,
    first_name: 'Lee',
    last_name: 'Contact',
    user_type: 'partner',
    customer_id: oak,
    customer_type: 'link-contact',
    password: PASSWORD,
  });
  ids.push(...students, linkContact);
  ok(
    await api(request, token, 'PUT', `/api/v1/users/${linkContact}/linked-students`, {
      student_ids: [students[0]],
    }),
  );
  const programme = await api<{ id: string }>(request, token, 'POST', '/api/v1/programmes/', {
    title: `Told apart ${stamp}`,
    customer_id: oak,
    kind: 'lesson',
    start_date: new Date().toISOString().slice(0, 10),
    timezone: 'UTC',
  });
  ok(programme);
  const created = await api<{ id: string }>(request, token, 'POST', '/api/v1/groups/', {
    programme_id: programme.body.id,
    name: 'Group T',
    teachers: [],
  });
  ok(created);
  group = created.body.id;
});

test.afterAll(async ({ request }) => {
  await deleteUsers(request, await adminToken(request), ids).catch(() => undefined);
});

test('pickers show each student with school and year group', async ({ page }) => {
  await signInAsAdmin(page);

  // A group's enrolment picker lists the programme's school's students.
  await page.goto(`/groups/${group}`);
  await page.getByRole('button', { name: 'Add student' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add a student' });
  await dialog.getByRole('combobox', { name: 'Student' }).fill(NAME);
  await expect(page.getByRole('option', { name: NAME })).toHaveText([`${NAME} (${OAK}, Year 7)`]);
  await page.keyboard.press('Escape');

  // Reporting a concern: both pupils of that name, each with school and year group.
  await page.goto('/dashboard');
  await page.getByRole('button', { name: 'Report a concern' }).first().click();
  const report = page.getByRole('dialog', { name: 'Report a safeguarding concern' });
  await report.getByPlaceholder('Search students by name').fill(NAME);
  const options = page.getByRole('option', { name: NAME });
  await expect(options).toHaveCount(2);
  // Polled: the list may render again as the search answers (once it read as empty between the two).
  await expect
    .poll(async () => (await options.allTextContents()).sort())
    .toEqual([`${NAME} (${ELM}, Year 9)`, `${NAME} (${OAK}, Year 7)`]);
  await page.screenshot({ path: 'tests/e2e/.artifacts/students-told-apart.png' });
});

test("a link contact's planned-absence picker shows the school and year group", async ({ browser }) => {
  const page = await signedIn(browser, contact, PASSWORD);
  await page.goto('/attendance');
  const picker = page.getByRole('combobox', { name: 'Student' });
  await expect(picker.locator('option', { hasText: NAME })).toHaveText(`${NAME} (${OAK}, Year 7)`);
  await page.context().close();
});
