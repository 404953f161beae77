import { expect, test, type Page } from '@playwright/test';
import {
  adminToken,
  api,
  createCustomer,
  createUser,
  deleteUsers,
  signInAsAdmin,
} from './support/portal-api.js';

// Issue 18 item 10 (spec §9): dates show as dd.MM.yyyy (and HH:mm) in the user's timezone, and no raw
// constant (a snake_case state, half term or mark code) reaches the screen. The administrator walks every
// sidebar entry and the details pages of a seeded programme, lesson, timeframe and report list.
const stamp = Date.now().toString(36);
const ids: string[] = [];
const details: string[] = [];

test.describe.configure({ timeout: 300_000 });

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

test.beforeAll(async ({ request }) => {
  const token = await adminToken(request);
  const ok = (res: { status: number; body: unknown }) =>
    expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
  const customer = await createCustomer(request, token, `Words School ${stamp}`);
  const student = await createUser(request, token, {
    email: `wendy.${stamp}@words.example`,
    first_name: 'Wendy',
    last_name: `Words${stamp}`,
    user_type: 'student',
    customer_id: customer,
  });
  const teacher = await createUser(request, token, {
    email: `tess.${stamp}@words.example`,
    first_name: 'Tess',
    last_name: `Teacher${stamp}`,
    user_type: 'teacher',
  });
  ids.push(student, teacher);
  const programme = await api<{ id: string }>(request, token, 'POST', '/api/v1/programmes/', {
    title: `Words maths ${stamp}`,
    customer_id: customer,
    kind: 'lesson',
    start_date: day(-7),
    timezone: 'UTC',
  });
  ok(programme);
  ok(await api(request, token, 'PUT', `/api/v1/programmes/${programme.body.id}/activate`, {}));
  const group = await api<{ id: string }>(request, token, 'POST', '/api/v1/groups/', {
    programme_id: programme.body.id,
    name: 'Words A',
    teachers: [{ teacher_id: teacher, role: 'lead' }],
  });
  ok(group);
  ok(
    await api(request, token, 'POST', `/api/v1/groups/${group.body.id}/students`, {
      student_id: student,
      from: day(-3),
    }),
  );
  const start = new Date(Date.now() - 2 * 86_400_000).toISOString();
  const lesson = await api<{ id: string }>(request, token, 'POST', '/api/v1/lessons/', {
    programme_id: programme.body.id,
    group_id: group.body.id,
    teacher_id: teacher,
    timezone: 'UTC',
    local_date: start.slice(0, 10),
    local_start: '10:00',
    duration_minutes: 60,
  });
  ok(lesson);
  ok(
    await api(request, token, 'PUT', `/api/v1/lessons/${lesson.body.id}/register`, {
      client_key: `words-${stamp}`,
      entries: [{ student_id: student, mark: 'absent_pending' }],
    }),
  );
  const timeframe = await api<{ id: string }>(
    request,
    token,
    'POST',
    '/api/v1/report-submission-timeframes/',
    {
      name: `Spring 2 ${stamp}`,
      academic_year: '2026/27',
      half_term: 'spring_2',
      period_from: day(-30),
      period_to: day(10),
      opens_at: day(-1),
      submit_by: day(12),
      qa_by: day(15),
      release_at: day(20),
    },
  );
  ok(timeframe);
  ok(
    await api(
      request,
      token,
      'POST',
      `/api/v1/report-submission-timeframes/${timeframe.body.id}/generate`,
      {},
    ),
  );
  details.push(
    `/programmes/details/${programme.body.id}`,
    `/groups/${group.body.id}`,
    `/lessons/${lesson.body.id}`,
    `/report-submission-timeframes/${timeframe.body.id}/details`,
    `/half-term-reports?timeframe_id=${timeframe.body.id}`,
    `/users/${student}/details`,
    `/users/${teacher}/details`,
  );
});

test.afterAll(async ({ request }) => {
  await deleteUsers(request, await adminToken(request), ids).catch(() => undefined);
});

/** Every link of the sidebar, with every group opened. */
async function sidebarLinks(page: Page): Promise<string[]> {
  const nav = page.getByRole('navigation', { name: 'Portal areas' });
  await expect(nav).toBeVisible();
  const closed = nav.locator('button[aria-expanded="false"]');
  for (let guard = 0; (await closed.count()) > 0 && guard < 40; guard++) await closed.first().click();
  const hrefs = await nav
    .getByRole('link')
    .evaluateAll((links) => links.map((l) => (l as HTMLAnchorElement).getAttribute('href') ?? ''));
  return [...new Set(hrefs.filter((h) => h.startsWith('/')))];
}

/** A day written yyyy-MM-dd or an ISO instant; a snake_case word (a constant). */
const RAW = [/\b\d{4}-\d{2}-\d{2}(T[\d:.]+Z?)?\b/, /\b[a-z]+(?:_[a-z0-9]+)+\b/];

test('the administrator sees dates as dd.MM.yyyy and words, never raw constants', async ({ page }) => {
  await signInAsAdmin(page);
  const pages = [...(await sidebarLinks(page)), ...details];
  const main = page.locator('#main-content');
  const problems: string[] = [];
  for (const href of pages) {
    await page.goto(href);
    try {
      await expect(main.getByRole('heading', { level: 1 }).first()).toBeVisible({ timeout: 10_000 });
      await expect(main.locator('[aria-busy="true"]')).toHaveCount(0, { timeout: 10_000 });
    } catch {
      problems.push(`${href}: did not load`);
      continue;
    }
    await page.waitForTimeout(300);
    // What a person reads: visible text, without code samples (hashes) and e-mail addresses.
    const text = await main.evaluate((root) => {
      const clone = root.cloneNode(true) as HTMLElement;
      for (const el of clone.querySelectorAll('code, pre, input, textarea, [data-raw]')) el.remove();
      return clone.innerText.replace(/\S+@\S+/g, '');
    });
    for (const pattern of RAW) {
      const found = pattern.exec(text);
      if (found)
        problems.push(
          `${href}: "${found[0]}" in "…${text.slice(Math.max(0, found.index - 40), found.index + 40).replace(/\s+/g, ' ')}…"`,
        );
    }
  }
  expect(problems).toEqual([]);
});
