import { expect, test, type Page } from '@playwright/test';
import {
  adminToken,
  api,
  createCustomer,
  createUser,
  deleteUsers,
  signInAsAdmin,
  signedIn,
} from './support/portal-api.js';

// A teacher writes and submits a half-term report, a QA reviewer approves it, a QA lead publishes it:
// the lead's other open editor turns read-only and the writer's page shows it published, both without
// a reload; the school's partner then reads the published text and downloads its PDF (decision 0057).
// In QA the reviewer suggests a change that the writer sees appear and accepts (decision 0060).
const stamp = Date.now().toString(36);
const PASSWORD = 'Reports-E2E-2026!';
const mail = (name: string) => `${name}.${stamp}@reports.example`;
const people = {
  writer: { email: mail('wendy.writer'), first: 'Wendy', last: 'Writer', permissions: ['USER_IS_TEACHER'] },
  qa: {
    email: mail('quentin.qa'),
    first: 'Quentin',
    last: 'Reviewer',
    permissions: ['USER_IS_TEACHER', 'CAN_QA_REVIEW'],
  },
  lead: {
    email: mail('lara.lead'),
    first: 'Lara',
    last: 'Lead',
    permissions: ['USER_IS_TEACHER', 'CAN_QA_LEAD_REVIEW'],
  },
};
const HEAD = mail('hugo.head');
const COMMENT = 'Ann has read a new book every week and explains her thinking clearly.';
const SUGGESTED = ' She also writes short poems.';
let token = '';
let reportId = '';
let timeframeId = '';
const created: string[] = [];

const plusDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ request }) => {
  token = await adminToken(request);
  const ids: Record<string, string> = {};
  for (const [key, p] of Object.entries(people)) {
    ids[key] = await createUser(request, token, {
      email: p.email,
      first_name: p.first,
      last_name: p.last,
      user_type: 'teacher',
      password: PASSWORD,
    });
    const granted = await api(request, token, 'PUT', `/api/v1/users/${ids[key]}/permissions`, {
      permissions: p.permissions,
    });
    expect(granted.status, JSON.stringify(granted.body)).toBe(200);
    created.push(ids[key]);
  }
  const school = await createCustomer(request, token, `Reports School ${stamp}`);
  const studentId = await createUser(request, token, {
    email: mail('ann.student'),
    first_name: 'Ann',
    last_name: `Reader${stamp}`,
    user_type: 'student',
    customer_id: school,
  });
  const headId = await createUser(request, token, {
    email: HEAD,
    first_name: 'Hugo',
    last_name: 'Head',
    user_type: 'partner',
    customer_id: school,
    customer_type: 'super-admin',
    password: PASSWORD,
  });
  created.push(studentId, headId);
  const programme = await api<{ id: string }>(request, token, 'POST', '/api/v1/programmes/', {
    title: 'Reading recovery',
    customer_id: school,
    kind: 'lesson',
    start_date: plusDays(-14),
    timezone: 'Europe/London',
  });
  expect(programme.status, JSON.stringify(programme.body)).toBe(201);
  await api(request, token, 'PUT', `/api/v1/programmes/${programme.body.id}/activate`, {});
  const group = await api<{ id: string }>(request, token, 'POST', '/api/v1/groups/', {
    programme_id: programme.body.id,
    name: 'Readers',
    teachers: [{ teacher_id: ids.writer, role: 'lead' }],
  });
  expect(group.status, JSON.stringify(group.body)).toBe(201);
  const joined = await api(request, token, 'POST', `/api/v1/groups/${group.body.id}/students`, {
    student_id: studentId,
    from: plusDays(-14),
  });
  expect(joined.status, JSON.stringify(joined.body)).toBeLessThan(300);
  const enrolled = await api(request, token, 'POST', '/api/v1/enrolments/', {
    student_id: studentId,
    programme_id: programme.body.id,
    start_date: plusDays(-14),
  });
  expect(enrolled.status, JSON.stringify(enrolled.body)).toBe(201);
  const lesson = await api(request, token, 'POST', '/api/v1/lessons/', {
    programme_id: programme.body.id,
    group_id: group.body.id,
    teacher_id: ids.writer,
    timezone: 'Europe/London',
    local_date: plusDays(3),
    local_start: '11:00',
    duration_minutes: 45,
  });
  expect(lesson.status, JSON.stringify(lesson.body)).toBe(201);
  // Writing opened yesterday; partners may read published reports from today.
  const timeframe = await api<{ id: string }>(
    request,
    token,
    'POST',
    '/api/v1/report-submission-timeframes/',
    {
      name: `Autumn 2 ${stamp}`,
      academic_year: '2026/27',
      half_term: 'autumn_2',
      period_from: plusDays(-7),
      period_to: plusDays(14),
      opens_at: plusDays(-1),
      submit_by: plusDays(0),
      qa_by: plusDays(0),
      release_at: plusDays(0),
      scope: { customer_ids: [school] },
    },
  );
  expect(timeframe.status, JSON.stringify(timeframe.body)).toBe(201);
  timeframeId = timeframe.body.id;
  const generated = await api<{ created: number }>(
    request,
    token,
    'POST',
    `/api/v1/report-submission-timeframes/${timeframe.body.id}/generate`,
    {},
  );
  expect(generated.body.created, JSON.stringify(generated.body)).toBe(1);
  await expect
    .poll(async () => {
      const list = await api<{ items: { id: string }[] }>(
        request,
        token,
        'GET',
        `/api/v1/half-term-reports/?timeframe_id=${timeframe.body.id}`,
      );
      reportId = list.body.items[0]?.id ?? '';
      return reportId;
    })
    .not.toBe('');
});

test.afterAll(async ({ request }) => {
  if (token) await deleteUsers(request, token, created);
});

const editorOf = (page: Page) => page.getByRole('textbox', { name: 'Report text' });
const state = (page: Page) => page.getByTestId('report-state');

test('write, submit, QA approve, publish: open editors turn read-only live; the partner reads it', async ({
  browser,
  request,
}) => {
  // Five people in two stages with a suggestion round: longer than the default 30 s on a shared machine.
  test.setTimeout(120_000);
  const hashNow = async () =>
    (await api<{ content_hash: string }>(request, token, 'GET', `/api/v1/half-term-reports/${reportId}`)).body
      .content_hash;

  // The writer types into the teacher comment and submits.
  const writer = await signedIn(browser, people.writer.email, PASSWORD);
  // Once a day, the portal reminds the writer of what is due.
  const reminder = writer.getByRole('dialog', { name: 'Half-term reports due' });
  await expect(reminder).toContainText(`Autumn 2 ${stamp}: 1 to write`);
  await reminder.getByRole('button', { name: 'Later' }).click();
  await expect(reminder).toBeHidden();
  // A QA lead or administrator gives this one report five more days: the writer's list shows it.
  const extension = await api(
    request,
    token,
    'POST',
    `/api/v1/half-term-reports/${reportId}/extend-deadline`,
    {
      submit_by: plusDays(5),
      reason: 'The writer was ill',
    },
  );
  expect(extension.status, JSON.stringify(extension.body)).toBe(200);
  await writer.goto('/my-half-term-reports');
  const mine = writer.getByRole('row').filter({ hasText: plusDays(5) });
  await expect(mine).toContainText('extended');
  await writer.goto(`/half-term-report/${reportId}`);
  await expect(state(writer)).toHaveText('Draft');
  await expect(writer.getByRole('dialog', { name: 'Half-term reports due' })).toHaveCount(0);
  await expect(editorOf(writer)).toHaveAttribute('contenteditable', 'true');
  await expect(editorOf(writer)).toContainText('Lessons in the period: 0 delivered, 1 planned.');
  // The facts are non-editable blocks (decision 0068): attendance and lessons in the period.
  const attendance = editorOf(writer).locator('[data-fact-block="attendance"]');
  await expect(attendance).toHaveText('Attendance: no sessions marked in the period yet.');
  await expect(attendance).toHaveAttribute('contenteditable', 'false');
  await expect(writer.getByRole('button', { name: 'Refresh facts' })).toBeVisible();
  await writer.screenshot({ path: 'test-results/half-term-report-facts.png', fullPage: true });
  const before = await hashNow();
  await editorOf(writer).click();
  await writer.keyboard.press('Control+End');
  await writer.keyboard.type(COMMENT);
  // The text is on the server once the hash it reports has moved.
  await expect.poll(hashNow, { timeout: 10_000 }).not.toBe(before);
  await writer.getByRole('button', { name: 'Submit for QA' }).click();
  await expect(state(writer)).toHaveText('Submitted');
  await expect(editorOf(writer)).toHaveAttribute('contenteditable', 'false');

  // QA: claim from the queue, approve on the report.
  const qa = await signedIn(browser, people.qa.email, PASSWORD);
  await qa.goto('/half-term-reports-qa');
  await qa
    .getByRole('row')
    .filter({ hasText: `Reader${stamp}` })
    .getByRole('button', { name: 'Claim' })
    .click();
  await qa.goto(`/half-term-report/${reportId}`);
  await expect(state(qa)).toHaveText('In QA');
  await expect(editorOf(qa)).toContainText(COMMENT);

  // The reviewer suggests (the default in review) while the writer watches it appear; the writer
  // accepts it. Approving is refused while the suggestion is open (decision 0060).
  await expect(qa.getByTestId('editor-mode')).toContainText('You are suggesting');
  await expect(state(writer)).toHaveText('In QA', { timeout: 5_000 });
  await expect(writer.getByTestId('editor-mode')).toContainText('You are suggesting');
  await editorOf(qa).click();
  await qa.keyboard.press('Control+End');
  await qa.keyboard.type(SUGGESTED);
  await expect(qa.locator('ins.suggestion-insertion')).toContainText(SUGGESTED.trim());
  const card = writer.getByTestId('suggestion-card');
  await expect(card).toContainText(SUGGESTED.trim(), { timeout: 5_000 });
  await expect(writer.locator('ins.suggestion-insertion')).toContainText(SUGGESTED.trim());
  await expect(card).toContainText('Quentin Reviewer', { timeout: 5_000 });
  await qa.getByRole('button', { name: 'Approve' }).click();
  await expect(qa.getByRole('alert').filter({ hasText: 'still open' })).toBeVisible();
  await card.getByRole('button', { name: 'Accept' }).click();
  await expect(card).toHaveCount(0);
  await expect(qa.locator('ins.suggestion-insertion')).toHaveCount(0, { timeout: 5_000 });
  await expect(editorOf(qa)).toContainText(`${COMMENT}${SUGGESTED}`);
  await expect(writer.getByText(/Accepted by Wendy Writer/)).toBeVisible({ timeout: 10_000 });
  await qa.getByRole('button', { name: 'Approve' }).click();
  await expect(state(qa)).toHaveText('QA approved');

  // The lead claims in one tab and keeps a second tab open on the editor.
  const lead = await signedIn(browser, people.lead.email, PASSWORD);
  await lead.goto(`/half-term-report/${reportId}`);
  await lead.getByRole('button', { name: 'Claim for sign-off' }).click();
  await expect(state(lead)).toHaveText('In lead review');
  const second = await lead.context().newPage();
  await second.goto(`/half-term-report/${reportId}`);
  await expect(editorOf(second)).toHaveAttribute('contenteditable', 'true');
  await expect(editorOf(second)).toContainText(COMMENT);

  // The lead publishes from the sign-off queue in bulk (decision 0068): pick, publish, per-report result.
  const queue = await lead.context().newPage();
  await queue.goto('/half-term-reports-qa-lead');
  const row = queue.getByRole('row').filter({ hasText: `Reader${stamp}` });
  await row.getByRole('checkbox', { name: /to publish/ }).check();
  await queue.screenshot({ path: 'test-results/half-term-reports-bulk-publish.png', fullPage: true });
  await queue.getByRole('button', { name: 'Publish picked (1)' }).click();
  await expect(queue.getByText('Published 1 report')).toBeVisible();
  await expect(state(lead)).toHaveText('Published', { timeout: 5_000 });
  // Without a reload: the other tab's editor is read-only, the writer's page shows the publication.
  await expect(editorOf(second)).toHaveAttribute('contenteditable', 'false', { timeout: 5_000 });
  await expect(state(second)).toHaveText('Published');
  await expect(state(writer)).toHaveText('Published', { timeout: 5_000 });

  // The school's partner finds it among their published reports and reads the frozen text.
  const head = await signedIn(browser, HEAD, PASSWORD);
  await head.goto('/partner/half-term-reports');
  await head
    .getByRole('row')
    .filter({ hasText: `Reader${stamp}` })
    .click();
  await expect(head).toHaveURL(new RegExp(`/half-term-report/${reportId}$`));
  await expect(head.getByText(COMMENT)).toBeVisible();
  // Frozen at sign-off: the published text carries the facts as they were signed.
  await expect(head.getByRole('note').filter({ hasText: 'Lessons in the period' })).toBeVisible();
  await expect(head.getByRole('textbox', { name: 'Report text' })).toHaveCount(0);
  const download = head.waitForEvent('download');
  await head.getByRole('button', { name: 'PDF' }).click();
  expect((await download).suggestedFilename()).toBe(`half-term-report-${reportId}-r1.pdf`);

  // An administrator downloads the timeframe's published reports as one zip, rendered on the server.
  const admin = await browser.newPage();
  await signInAsAdmin(admin);
  await admin.goto(`/report-submission-timeframes/${timeframeId}/details`);
  const zip = admin.waitForEvent('download');
  await admin.getByRole('button', { name: 'Download published PDFs (zip)' }).click();
  expect((await zip).suggestedFilename()).toBe(`half-term-reports-Autumn-2-${stamp}.zip`);
  await admin.screenshot({ path: 'test-results/half-term-timeframe-zip.png', fullPage: true });

  for (const page of [writer, qa, lead, head, admin]) await page.context().close();
});
