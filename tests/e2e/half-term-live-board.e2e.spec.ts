import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type Browser, type Page, type WebSocketRoute } from '@playwright/test';
import { draftReport, plusDays } from './support/half-term-fixture.js';
import { deleteUsers, signedIn } from './support/portal-api.js';

// Decision 0067: "Saved ✓" only once the server has committed what was typed; the live board shows
// who is in which report (and the lists show it) without a reload; a QA reviewer's direct edit in
// review is logged and shown in the report's timeline.
const artifacts = join(dirname(fileURLToPath(import.meta.url)), '.artifacts');
const stamp = Date.now().toString(36);
const PASSWORD = 'LiveBoard-E2E-2026!';
const mail = (name: string) => `${name}.${stamp}@liveboard.example`;
const people = {
  writer: { email: mail('willa.writer'), first: 'Willa', last: 'Writer', permissions: ['USER_IS_TEACHER'] },
  qa: {
    email: mail('quade.qa'),
    first: 'Quade',
    last: 'Checker',
    permissions: ['USER_IS_TEACHER', 'CAN_QA_REVIEW'],
  },
};
let token = '';
let reportId = '';
let created: string[] = [];

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ request }) => {
  ({ token, reportId, created } = await draftReport(request, {
    people,
    password: PASSWORD,
    school: `Board School ${stamp}`,
    student: { email: mail('bo.student'), first: 'Bo', last: `Board${stamp}` },
    programme: 'Maths boost',
    timeframe: {
      name: `Spring 1 ${stamp}`,
      academic_year: '2026/27',
      half_term: 'spring_1',
      period_from: plusDays(-7),
      period_to: plusDays(14),
      opens_at: plusDays(-1),
      submit_by: plusDays(3),
      qa_by: plusDays(4),
      release_at: plusDays(5),
    },
  }));
});

test.afterAll(async ({ request }) => {
  if (token) await deleteUsers(request, token, created);
});

/** The writer is reminded of the report due once a day per browser: "Later" closes it. */
async function writerSignedIn(browser: Browser): Promise<Page> {
  const page = await signedIn(browser, people.writer.email, PASSWORD);
  const reminder = page.getByRole('dialog', { name: 'Half-term reports due' });
  await expect(reminder).toBeVisible();
  await reminder.getByRole('button', { name: 'Later' }).click();
  await expect(reminder).toBeHidden();
  return page;
}

const editorOf = (page: Page) => page.getByRole('textbox', { name: 'Report text' });
const saveState = (page: Page) =>
  page.getByRole('status').filter({ hasText: /Saved|Saving|Offline|Connecting/ });

test('the board shows a writer opening a report without reload; "Saved ✓" follows the server', async ({
  browser,
}) => {
  test.setTimeout(90_000);
  const qa = await signedIn(browser, people.qa.email, PASSWORD);
  await qa.goto('/half-term-reports/live');
  await expect(qa.getByRole('heading', { name: 'Live board' })).toBeVisible();
  await expect(qa.getByText('Nobody has a half-term report open right now.')).toBeVisible();

  // A second browser: the writer opens the report and types.
  const writer = await writerSignedIn(browser);
  // The writer's collaboration socket passes through here, so that the test can cut it (Chromium's
  // offline mode leaves open websockets alone): while `offline`, new connections are dropped too.
  const network = { offline: false, open: [] as WebSocketRoute[] };
  await writer.routeWebSocket(/\/collab\//, (ws) => {
    if (network.offline) return void ws.close({ code: 4000, reason: 'offline (test)' });
    ws.connectToServer();
    network.open.push(ws);
  });
  await writer.goto(`/half-term-report/${reportId}`);
  await expect(editorOf(writer)).toHaveAttribute('contenteditable', 'true');
  const row = qa.getByRole('row').filter({ hasText: `Board${stamp}` });
  await expect(row).toContainText('Willa Writer', { timeout: 5_000 });
  await expect(row).toContainText('editing');
  await expect(row).toContainText('Draft');
  await expect(row).toContainText('since');
  await qa.screenshot({ path: join(artifacts, 'live-board-1400.png'), fullPage: true });

  await expect(saveState(writer)).toHaveText('Saved ✓', { timeout: 10_000 });
  await editorOf(writer).click();
  await writer.keyboard.press('Control+End');
  await writer.keyboard.type(' Bo counts in fives with confidence.');
  await expect(saveState(writer)).toHaveText('Saved ✓', { timeout: 10_000 });

  // Offline: what is typed waits on this device, and is saved once the connection is back.
  network.offline = true;
  for (const ws of network.open.splice(0)) await ws.close({ code: 4000, reason: 'offline (test)' });
  await expect(saveState(writer)).toHaveText(/Offline/, { timeout: 10_000 });
  await writer.keyboard.type(' And in tens.');
  await expect(saveState(writer)).toHaveText('Offline — kept on this device');
  network.offline = false;
  await expect(saveState(writer)).toHaveText('Saved ✓', { timeout: 20_000 });

  // The list of all reports shows who has it open, live, too.
  await qa.goto('/half-term-reports');
  await expect(qa.getByRole('row').filter({ hasText: `Board${stamp}` })).toContainText(
    'Willa Writer · editing',
  );

  // The writer leaves: the board empties without reload.
  await writer.context().close();
  await qa.goto('/half-term-reports/live');
  await expect(qa.getByText('Nobody has a half-term report open right now.')).toBeVisible({
    timeout: 10_000,
  });
  await qa.context().close();
});

test("a QA reviewer's direct edit in review is logged in the timeline", async ({ browser }) => {
  test.setTimeout(90_000);
  const writer = await writerSignedIn(browser);
  await writer.goto(`/half-term-report/${reportId}`);
  // Sign the text once the editor holds it: the hash sent is the one of the synced document.
  await expect(saveState(writer)).toHaveText('Saved ✓', { timeout: 10_000 });
  await writer.getByRole('button', { name: 'Submit for QA' }).click();
  await expect(writer.getByTestId('report-state')).toHaveText('Submitted');

  const qa = await signedIn(browser, people.qa.email, PASSWORD);
  await qa.goto('/half-term-reports-qa');
  const queued = qa.getByRole('row').filter({ hasText: `Board${stamp}` });
  await queued.getByRole('button', { name: 'Claim' }).click();
  await expect(queued).toContainText('Claimed by Quade Checker', { timeout: 5_000 });
  await qa.goto(`/half-term-report/${reportId}`);
  await expect(qa.getByTestId('editor-mode')).toContainText('You are suggesting');
  await qa.getByRole('button', { name: 'Edit directly' }).click();
  await editorOf(qa).click();
  await qa.keyboard.press('Control+End');
  await qa.keyboard.type(' Checked.');
  const entry = qa.getByText('Edited directly during review');
  await expect(entry).toBeVisible({ timeout: 10_000 });
  // Who and what (the first direct edit's text), and on the writer's open page too, without reload.
  await expect(qa.getByText(/In QA · Quade Checker · “/)).toBeVisible();
  await expect(writer.getByText('Edited directly during review')).toBeVisible({ timeout: 10_000 });
  for (const page of [writer, qa]) await page.context().close();
});
