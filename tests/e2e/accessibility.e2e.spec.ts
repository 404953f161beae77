import { expect, test, type Page } from '@playwright/test';
import {
  adminToken,
  api,
  createCustomer,
  createUser,
  deleteUsers,
  signedIn,
  signInAsAdmin,
} from './support/portal-api.js';
import { openScreen, seedTeaching, seriousViolations, sidebarLinks } from './support/walk.js';

test.use({ viewport: { width: 1400, height: 900 } });

const sidebar = (page: Page) => page.getByRole('navigation', { name: 'Portal areas' });

test('keyboard: skip to content first, sidebar groups are disclosure buttons', async ({ page }) => {
  await signInAsAdmin(page);
  // A keyboard user arriving on a page: the first Tab goes to the skip link.
  await page.reload();
  await expect(sidebar(page)).toBeVisible();
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to content' });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.keyboard.press('Enter');
  await expect(page.locator('#main-content')).toBeFocused();

  const users = sidebar(page).getByRole('button', { name: 'Users' });
  await expect(users).toHaveAttribute('aria-expanded', 'false');
  await users.focus();
  await page.keyboard.press('Enter');
  await expect(users).toHaveAttribute('aria-expanded', 'true');
  const students = sidebar(page).getByRole('link', { name: 'Students' });
  await expect(students).toBeVisible();
  // The next Tab enters the group's list, which the button says it controls.
  await page.keyboard.press('Tab');
  const list = page.locator(`#${await users.getAttribute('aria-controls')}`);
  await expect(list.getByRole('link').first()).toBeFocused();
  await users.focus();
  await page.keyboard.press(' ');
  await expect(users).toHaveAttribute('aria-expanded', 'false');
});

test('the main screens have no serious accessibility violations (axe)', async ({ page }) => {
  // Twelve screens, each analysed by axe (a few seconds each on a loaded machine).
  test.setTimeout(120_000);
  await signInAsAdmin(page);
  const screens: [string, string][] = [
    ['/dashboard', 'Good'],
    ['/users/students', 'Students'],
    ['/customers', 'Customers'],
    ['/networks', 'Networks'],
    ['/permission-templates', 'Permission templates'],
    ['/programmes', 'Programmes'],
    ['/lessons', 'Lessons'],
    ['/attendance', 'Attendance'],
    ['/half-term-reports', 'Half-term reports'],
    ['/report-submission-timeframes', 'Report submission timeframes'],
    ['/users/one-page-profiles', 'One-page profiles'],
    ['/settings/subjects', 'Subjects'],
  ];
  const found: Record<string, string[]> = {};
  for (const [path, heading] of screens) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1, name: new RegExp(heading) })).toBeVisible();
    await expect(page.getByLabel(/^Loading/)).toHaveCount(0);
    const violations = await seriousViolations(page);
    if (violations.length) found[path] = violations;
  }
  expect(found).toEqual({});
});

test('the users table says which column it is sorted by', async ({ page }) => {
  await signInAsAdmin(page);
  await page.goto('/users/students');
  const name = page.getByRole('columnheader', { name: /^Name/ });
  await expect(name).toHaveAttribute('aria-sort', 'ascending');
  await expect(page.getByRole('columnheader', { name: /^E-mail/ })).toHaveAttribute('aria-sort', 'none');
  await page.getByRole('columnheader', { name: /^Name Sorted ascending/ }).click();
  await expect(name).toHaveAttribute('aria-sort', 'descending');
  await expect(page.getByRole('columnheader', { name: /^Customer/ })).not.toHaveAttribute('aria-sort');
});

// A teacher's and a link contact's own screens (issue 18 item 7): their home and every list their
// sidebar opens, with a little data so tables and cards are drawn.
const stamp = Date.now().toString(36);
const PASSWORD = 'Axe-Walk-2026!';
const people: Record<string, string> = {};
const ids: string[] = [];

test.describe('each role', () => {
  test.describe.configure({ timeout: 300_000 });

  test.beforeAll(async ({ request }) => {
    const token = await adminToken(request);
    const ok = (res: { status: number; body: unknown }) =>
      expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
    const customer = await createCustomer(request, token, `Axe School ${stamp}`);
    const student = await createUser(request, token, {
      email: `ada.${stamp}@axe.example`,
      first_name: 'Ada',
      last_name: 'Axe',
      user_type: 'student',
      customer_id: customer,
    });
    ids.push(student);
    const person = async (key: string, extra: Record<string, string>) => {
      people[key] = `${key}.${stamp}@axe.example`;
      const id = await createUser(request, token, {
        email: people[key],
        first_name: key,
        last_name: 'Axe',
        password: PASSWORD,
        user_type: 'teacher',
        ...extra,
      });
      ids.push(id);
      return id;
    };
    const teacher = await person('teacher', {});
    const contact = await person('link-contact', {
      user_type: 'partner',
      customer_id: customer,
      customer_type: 'link-contact',
    });
    ok(
      await api(request, token, 'PUT', `/api/v1/users/${contact}/linked-students`, {
        student_ids: [student],
      }),
    );
    await seedTeaching(request, token, {
      title: `Axe maths ${stamp}`,
      customerId: customer,
      teacherId: teacher,
      studentId: student,
      lessonAt: new Date(Date.now() + 60 * 60_000),
    });
  });

  test.afterAll(async ({ request }) => {
    await deleteUsers(request, await adminToken(request), ids).catch(() => undefined);
  });

  for (const role of ['teacher', 'link-contact']) {
    test(`a ${role}'s home and lists have no serious accessibility violations (axe)`, async ({ browser }) => {
      const page = await signedIn(browser, people[role]!, PASSWORD);
      const links = await sidebarLinks(page);
      const screens = [...new Set(['/dashboard', ...links.filter((h) => h.startsWith('/'))])];
      expect(screens.length).toBeGreaterThan(2);
      const found: Record<string, string[]> = {};
      for (const path of screens) {
        const failed = await openScreen(page, path);
        if (failed) {
          found[path] = [failed];
          continue;
        }
        const violations = await seriousViolations(page);
        if (violations.length) found[path] = violations;
      }
      expect(found).toEqual({});
      await page.context().close();
    });
  }
});
