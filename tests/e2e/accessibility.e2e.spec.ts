import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { signInAsAdmin } from './support/portal-api.js';

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
