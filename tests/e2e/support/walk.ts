import AxeBuilder from '@axe-core/playwright';
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { api } from './portal-api.js';

/** Walking the portal as a person: their sidebar, each screen settled, axe, and a little teaching data. */

/** Every link of the sidebar, with every group opened. */
export async function sidebarLinks(page: Page): Promise<string[]> {
  const nav = page.getByRole('navigation', { name: 'Portal areas' });
  await expect(nav.getByRole('link').first()).toBeVisible();
  const closed = nav.locator('button[aria-expanded="false"]');
  for (let guard = 0; (await closed.count()) > 0 && guard < 40; guard++) await closed.first().click();
  const hrefs = await nav
    .getByRole('link')
    .evaluateAll((links) => links.map((l) => (l as HTMLAnchorElement).getAttribute('href') ?? ''));
  return [...new Set(hrefs.filter((h) => h.startsWith('/')))];
}

/**
 * Opens `href` and waits for its title and for its reads to answer (no skeleton left); a short pause
 * lets a failure render. Null when it loaded, else what went wrong.
 */
export async function openScreen(page: Page, href: string): Promise<string | null> {
  await page.goto(href);
  const main = page.locator('#main-content');
  try {
    await expect(main.getByRole('heading', { level: 1 }).first()).toBeVisible({ timeout: 10_000 });
    await expect(main.locator('[aria-busy="true"]')).toHaveCount(0, { timeout: 10_000 });
  } catch {
    return `${href}: no title, or still loading after 10 s`;
  }
  await page.waitForTimeout(300);
  return null;
}

/** Serious and critical axe findings (WCAG 2.1 A/AA) on the page as it is now. */
export async function seriousViolations(page: Page): Promise<string[]> {
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

/** The day `offset` days from today (UTC), yyyy-MM-dd, as the API takes it. */
export const dayFromToday = (offset: number) =>
  new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

const ok = (res: { status: number; body: unknown }) =>
  expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);

/**
 * An active programme of `customerId` with one group the teacher leads, the student in it since two
 * days ago, and one lesson at `lessonAt` (UTC wall clock).
 */
export async function seedTeaching(
  request: APIRequestContext,
  token: string,
  seed: { title: string; customerId: string; teacherId: string; studentId: string; lessonAt: Date },
): Promise<{ programme: string; group: string; lesson: string }> {
  const programme = await api<{ id: string }>(request, token, 'POST', '/api/v1/programmes/', {
    title: seed.title,
    customer_id: seed.customerId,
    kind: 'lesson',
    start_date: dayFromToday(-7),
    timezone: 'UTC',
  });
  ok(programme);
  ok(await api(request, token, 'PUT', `/api/v1/programmes/${programme.body.id}/activate`, {}));
  const group = await api<{ id: string }>(request, token, 'POST', '/api/v1/groups/', {
    programme_id: programme.body.id,
    name: `${seed.title} A`,
    teachers: [{ teacher_id: seed.teacherId, role: 'lead' }],
  });
  ok(group);
  ok(
    await api(request, token, 'POST', `/api/v1/groups/${group.body.id}/students`, {
      student_id: seed.studentId,
      from: dayFromToday(-2),
    }),
  );
  const start = seed.lessonAt.toISOString();
  const lesson = await api<{ id: string }>(request, token, 'POST', '/api/v1/lessons/', {
    programme_id: programme.body.id,
    group_id: group.body.id,
    teacher_id: seed.teacherId,
    timezone: 'UTC',
    local_date: start.slice(0, 10),
    local_start: start.slice(11, 16),
    duration_minutes: 60,
  });
  ok(lesson);
  return { programme: programme.body.id, group: group.body.id, lesson: lesson.body.id };
}
