import { expect, test, type Browser, type Page } from '@playwright/test';
import {
  adminToken,
  createCustomer,
  createUser,
  deleteUsers,
  signedIn,
  type SeedUser,
} from './support/portal-api.js';
import { SUPERUSER } from './support/env.js';
import { sidebarLinks } from './support/walk.js';

// Issue 18: each person sees only areas that work for them. For every role, every sidebar entry must
// open a page that loads: not "not built yet", not "no permission", not a failed load.
const PASSWORD = 'Sidebar-Walk-2026!';
const stamp = Date.now().toString(36);
const people: Record<string, string> = {};
const ids: string[] = [];

const BROKEN =
  /not built yet|does not have permission|could not be loaded|could not load|something went wrong|page not found/i;

test.describe.configure({ mode: 'serial', timeout: 300_000 });

test.beforeAll(async ({ request }) => {
  const token = await adminToken(request);
  const customerId = await createCustomer(request, token, `Sidebar School ${stamp}`);
  const student = await createUser(request, token, {
    email: `pupil.${stamp}@sidebar.example`,
    first_name: 'Pat',
    last_name: 'Pupil',
    user_type: 'student',
    customer_id: customerId,
  });
  ids.push(student);
  const person = async (key: string, user: Pick<SeedUser, 'user_type' | 'customer_id' | 'customer_type'>) => {
    const email = `${key}.${stamp}@sidebar.example`;
    ids.push(
      await createUser(request, token, {
        email,
        first_name: key,
        last_name: 'Walker',
        password: PASSWORD,
        ...user,
      }),
    );
    people[key] = email;
  };
  await person('teacher', { user_type: 'teacher' });
  for (const role of ['super-admin', 'link-contact', 'parent'] as const)
    await person(role, { user_type: 'partner', customer_id: customerId, customer_type: role });
});

test.afterAll(async ({ request }) => {
  await deleteUsers(request, await adminToken(request), ids).catch(() => undefined);
});

async function walk(page: Page, who: string) {
  const links = await sidebarLinks(page);
  expect(links.length, `${who} has a sidebar`).toBeGreaterThan(1);
  const main = page.locator('#main-content');
  const failures: string[] = [];
  for (const href of links) {
    await page.goto(href);
    try {
      await expect(main.getByRole('heading', { level: 1 }).first()).toBeVisible({ timeout: 10_000 });
      // Let the page's reads answer (skeletons gone), then look for a failure.
      await expect(main.locator('[aria-busy="true"]')).toHaveCount(0, { timeout: 10_000 });
    } catch {
      failures.push(`${href}: no title, or still loading after 10 s`);
      continue;
    }
    await page.waitForTimeout(300);
    const text = await main.innerText();
    const broken = BROKEN.exec(text);
    if (broken) failures.push(`${href}: "${broken[0]}"`);
  }
  expect(failures, `${who}: sidebar entries that do not work`).toEqual([]);
}

const as = async (browser: Browser, email: string, password: string) => signedIn(browser, email, password);

test('the administrator: every sidebar entry opens a working page', async ({ browser }) => {
  const page = await as(browser, SUPERUSER.email, SUPERUSER.password);
  await walk(page, 'administrator');
  await page.context().close();
});

for (const role of ['teacher', 'super-admin', 'link-contact', 'parent']) {
  test(`a ${role}: every sidebar entry opens a working page`, async ({ browser }) => {
    const page = await as(browser, people[role]!, PASSWORD);
    await walk(page, role);
    await page.context().close();
  });
}
