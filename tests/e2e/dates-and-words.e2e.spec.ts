import { expect, test } from '@playwright/test';
import {
  adminToken,
  api,
  createCustomer,
  createUser,
  deleteUsers,
  signInAsAdmin,
} from './support/portal-api.js';
import { dayFromToday, openScreen, seedTeaching, sidebarLinks } from './support/walk.js';

// Issue 18 item 10 (spec §9): dates show as dd.MM.yyyy (and HH:mm) in the user's timezone, and no raw
// constant (a snake_case state, half term or mark code) reaches the screen. The administrator walks every
// sidebar entry and the details pages of a seeded programme, lesson, timeframe and report list.
const stamp = Date.now().toString(36);
const ids: string[] = [];
const details: string[] = [];

test.describe.configure({ timeout: 300_000 });

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
  const seeded = await seedTeaching(request, token, {
    title: `Words maths ${stamp}`,
    customerId: customer,
    teacherId: teacher,
    studentId: student,
    lessonAt: new Date(`${dayFromToday(-2)}T10:00:00Z`),
  });
  ok(
    await api(request, token, 'PUT', `/api/v1/lessons/${seeded.lesson}/register`, {
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
      period_from: dayFromToday(-30),
      period_to: dayFromToday(10),
      opens_at: dayFromToday(-1),
      submit_by: dayFromToday(12),
      qa_by: dayFromToday(15),
      release_at: dayFromToday(20),
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
    `/programmes/details/${seeded.programme}`,
    `/groups/${seeded.group}`,
    `/lessons/${seeded.lesson}`,
    `/report-submission-timeframes/${timeframe.body.id}/details`,
    `/half-term-reports?timeframe_id=${timeframe.body.id}`,
    `/users/${student}/details`,
    `/users/${teacher}/details`,
  );
});

test.afterAll(async ({ request }) => {
  await deleteUsers(request, await adminToken(request), ids).catch(() => undefined);
});

/** A day written yyyy-MM-dd or an ISO instant; a snake_case word (a constant). */
const RAW = [/\b\d{4}-\d{2}-\d{2}(T[\d:.]+Z?)?\b/, /\b[a-z]+(?:_[a-z0-9]+)+\b/];

test('the administrator sees dates as dd.MM.yyyy and words, never raw constants', async ({ page }) => {
  await signInAsAdmin(page);
  const pages = [...(await sidebarLinks(page)), ...details];
  const main = page.locator('#main-content');
  const problems: string[] = [];
  for (const href of pages) {
    const failed = await openScreen(page, href);
    if (failed) {
      problems.push(failed);
      continue;
    }
    if (href.includes('/report-submission-timeframes/'))
      await page.screenshot({ path: 'tests/e2e/.artifacts/timeframe-details.png' });
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
