import AxeBuilder from '@axe-core/playwright';
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

test.use({ viewport: { width: 1400, height: 900 } });

const sidebar = (page: Page) => page.getByRole('navigation', { name: 'Portal areas' });

/** Serious and critical axe findings on the page as it is now (moderate ones are reported, not failed). */
async function seriousViolations(page: Page) {
  const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21aa']).analyze();
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.id}: ${v.help}: ${v.nodes
          .map((n) => `${n.html.slice(0, 100)} ${(n.failureSummary ?? '').replace(/\s+/g, ' ')}`)
          .join('; ')}`,
    );
}

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
    const programme = await api<{ id: string }>(request, token, 'POST', '/api/v1/programmes/', {
      title: `Axe maths ${stamp}`,
      customer_id: customer,
      kind: 'lesson',
      start_date: new Date(Date.now() - 7 * 86_400_000).toISOString().slice(0, 10),
      timezone: 'UTC',
    });
    ok(programme);
    ok(await api(request, token, 'PUT', `/api/v1/programmes/${programme.body.id}/activate`, {}));
    const group = await api<{ id: string }>(request, token, 'POST', '/api/v1/groups/', {
      programme_id: programme.body.id,
      name: 'Axe A',
      teachers: [{ teacher_id: teacher, role: 'lead' }],
    });
    ok(group);
    ok(
      await api(request, token, 'POST', `/api/v1/groups/${group.body.id}/students`, {
        student_id: student,
        from: new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10),
      }),
    );
    const start = new Date(Date.now() + 60 * 60_000).toISOString();
    ok(
      await api(request, token, 'POST', '/api/v1/lessons/', {
        programme_id: programme.body.id,
        group_id: group.body.id,
        teacher_id: teacher,
        timezone: 'UTC',
        local_date: start.slice(0, 10),
        local_start: start.slice(11, 16),
        duration_minutes: 60,
      }),
    );
  });

  test.afterAll(async ({ request }) => {
    await deleteUsers(request, await adminToken(request), ids).catch(() => undefined);
  });

  for (const role of ['teacher', 'link-contact']) {
    test(`a ${role}'s home and lists have no serious accessibility violations (axe)`, async ({ browser }) => {
      const page = await signedIn(browser, people[role]!, PASSWORD);
      const nav = sidebar(page);
      await expect(nav.getByRole('link').first()).toBeVisible();
      const closed = nav.locator('button[aria-expanded="false"]');
      for (let guard = 0; (await closed.count()) > 0 && guard < 40; guard++) await closed.first().click();
      const links = await nav
        .getByRole('link')
        .evaluateAll((all) => all.map((l) => (l as HTMLAnchorElement).getAttribute('href') ?? ''));
      const screens = [...new Set(['/dashboard', ...links.filter((h) => h.startsWith('/'))])];
      expect(screens.length).toBeGreaterThan(2);
      const found: Record<string, string[]> = {};
      for (const path of screens) {
        await page.goto(path);
        await expect(page.locator('#main-content').getByRole('heading', { level: 1 }).first()).toBeVisible();
        await expect(page.locator('[aria-busy="true"]')).toHaveCount(0, { timeout: 10_000 });
        const violations = await seriousViolations(page);
        if (violations.length) found[path] = violations;
      }
      expect(found).toEqual({});
      await page.context().close();
    });
  }
});
