import { expect, test, type Page } from '@playwright/test';
import { adminToken, api, createCustomer, createUser, deleteUsers, signedIn } from './support/portal-api.js';
import { dayFromToday, openScreen, seedTeaching } from './support/walk.js';

// Issue 18 item 5: read-only roles see read-only screens. A teacher and the school's users read
// customers, programmes, groups, lessons, one-page profiles, timeframes, attendance, subjects and year
// groups; the server refuses them every change there (the controllers' @Allow rules). No screen may
// offer them an "Add", "Save", "Edit" or "Delete" the server would refuse, nor an editable field.
const PASSWORD = 'Read-Only-Walk-2026!';
const stamp = Date.now().toString(36);
const people: Record<string, string> = {};
const ids: string[] = [];
const seeded = {
  customer: '',
  programme: '',
  group: '',
  lesson: '',
  student: '',
  profile: '',
  timeframe: '',
};

test.describe.configure({ timeout: 300_000 });

test.beforeAll(async ({ request }) => {
  const token = await adminToken(request);
  const ok = (res: { status: number; body: unknown }) =>
    expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
  seeded.customer = await createCustomer(request, token, `Read Only School ${stamp}`);
  seeded.student = await createUser(request, token, {
    email: `rita.${stamp}@read-only.example`,
    first_name: 'Rita',
    last_name: `Reader${stamp}`,
    user_type: 'student',
    customer_id: seeded.customer,
  });
  ids.push(seeded.student);
  const person = async (
    key: string,
    user: { user_type: 'teacher' | 'partner'; customer_type?: 'super-admin' | 'link-contact' | 'parent' },
  ) => {
    const email = `${key}.${stamp}@read-only.example`;
    const id = await createUser(request, token, {
      email,
      first_name: key,
      last_name: 'Reader',
      password: PASSWORD,
      ...(user.customer_type ? { customer_id: seeded.customer } : {}),
      ...user,
    });
    ids.push(id);
    people[key] = email;
    return id;
  };
  const teacher = await person('teacher', { user_type: 'teacher' });
  await person('super-admin', { user_type: 'partner', customer_type: 'super-admin' });
  for (const role of ['link-contact', 'parent'] as const) {
    const id = await person(role, { user_type: 'partner', customer_type: role });
    ok(
      await api(request, token, 'PUT', `/api/v1/users/${id}/linked-students`, {
        student_ids: [seeded.student],
      }),
    );
  }

  const tomorrow = new Date(`${dayFromToday(1)}T10:00:00Z`);
  Object.assign(
    seeded,
    await seedTeaching(request, token, {
      title: `Read-only maths ${stamp}`,
      customerId: seeded.customer,
      teacherId: teacher,
      studentId: seeded.student,
      lessonAt: tomorrow,
    }),
  );
  const profile = await api<{ id: string }>(request, token, 'POST', '/api/v1/one-page-profiles/', {
    user_id: seeded.student,
    support_methods: 'Quiet start, written steps.',
  });
  ok(profile);
  seeded.profile = profile.body.id;
  const timeframe = await api<{ id: string }>(
    request,
    token,
    'POST',
    '/api/v1/report-submission-timeframes/',
    {
      name: `Autumn 1 ${stamp}`,
      academic_year: '2026/27',
      half_term: 'autumn_1',
      period_from: dayFromToday(-30),
      period_to: dayFromToday(10),
      opens_at: dayFromToday(5),
      submit_by: dayFromToday(12),
      qa_by: dayFromToday(15),
      release_at: dayFromToday(20),
    },
  );
  ok(timeframe);
  seeded.timeframe = timeframe.body.id;
  ok(await api(request, token, 'POST', '/api/v1/subjects/', { name: `Reading ${stamp}` }));
  ok(
    await api(request, token, 'POST', '/api/v1/year-groups/', { name: `Year R ${stamp}`, key_stage: 'KS3' }),
  );
});

test.afterAll(async ({ request }) => {
  await deleteUsers(request, await adminToken(request), ids).catch(() => undefined);
});

/** Words of a control that changes something. */
const ACTION =
  /^(add|new|create|save|delete|remove|edit|rename|archive|activate|deactivate|withdraw|enrol|import|reschedule|cancel lesson|change|set up|upload|generate|publish|take register|replace|move)\b/i;

/** Labels of fields that choose what a page shows (search, filters, the day, rows per page). */
const VIEW_CONTROL =
  /^(search|filter|show|from|to|week|day|as at|rows per|page|sort|view|period|status|state|school|customer|programme|group|child|teacher|tutor|timezone)\b/i;

/**
 * Controls on the page that change something: buttons and links named like an action (enabled), and
 * fields that take text, a date or a choice outside the page's search and filters.
 */
async function changeControls(page: Page): Promise<string[]> {
  const main = page.locator('#main-content');
  return main.evaluate(
    (root, [actionSource, viewSource]) => {
      const action = new RegExp(actionSource, 'i');
      const VIEW_CONTROL = new RegExp(viewSource, 'i');
      const found: string[] = [];
      const visible = (el: Element) => {
        const box = (el as HTMLElement).getBoundingClientRect();
        return box.width > 0 && box.height > 0 && getComputedStyle(el).visibility !== 'hidden';
      };
      const nameOf = (el: Element) =>
        (el.getAttribute('aria-label') ?? (el as HTMLElement).innerText ?? '').trim().replace(/\s+/g, ' ');
      for (const el of root.querySelectorAll('button, a[href], [role="button"]')) {
        if (!visible(el)) continue;
        if (el.matches(':disabled') || el.getAttribute('aria-disabled') === 'true') continue;
        const name = nameOf(el);
        if (action.test(name)) found.push(`button "${name}"`);
      }
      for (const el of root.querySelectorAll('input, textarea, select, [contenteditable="true"]')) {
        if (!visible(el)) continue;
        const input = el as HTMLInputElement;
        // A disabled fieldset disables its fields without setting their own `disabled`.
        if (el.matches(':disabled') || el.getAttribute('aria-disabled') === 'true') continue;
        if (input.readOnly && !el.closest('.mantine-Select-root, .mantine-MultiSelect-root')) continue;
        if (['hidden', 'search'].includes(input.type)) continue;
        const label =
          el.getAttribute('aria-label') ??
          (input.id ? root.ownerDocument.querySelector(`label[for="${input.id}"]`)?.textContent : null) ??
          input.placeholder ??
          el.tagName;
        // Search boxes, filters and what-to-show pickers narrow what is shown; they change nothing.
        if (VIEW_CONTROL.test(label.trim()) && !el.closest('form')) continue;
        found.push(`field "${label.trim()}"`);
      }
      return found;
    },
    [ACTION.source, VIEW_CONTROL.source] as const,
  );
}

const screensOf = (role: string): string[] => {
  const common = [
    '/programmes',
    `/programmes/details/${seeded.programme}`,
    '/lessons',
    `/lessons/${seeded.lesson}`,
    '/attendance',
    '/attendance/groups',
    '/attendance/programmes',
    '/settings/subjects',
    '/settings/year-groups',
    '/settings/term-calendars',
    '/products',
  ];
  if (role === 'teacher')
    return [
      ...common,
      `/programmes/${seeded.programme}/schedules`,
      '/my-lessons',
      '/my-students',
      `/one-page-profiles/${seeded.profile}/details`,
      '/report-submission-timeframes',
      `/report-submission-timeframes/${seeded.timeframe}/details`,
      '/attendance/tutors',
      '/my-programmes',
      '/teacher-my-students',
      '/timetable',
    ];
  return [
    ...common,
    '/customers',
    `/customers/details/${seeded.customer}`,
    '/users/one-page-profiles',
    `/one-page-profiles/${seeded.profile}/details`,
    `/my-child/${seeded.student}`,
    '/my-users',
    `/my-users/${seeded.student}/details`,
  ];
};

/**
 * Changes the server grants these people, so their screens rightly offer them: a lesson's teacher takes
 * its register; a school's super-admin edits every student's profile (EDIT_ALL_STUDENTS) and a link
 * contact their selected students' (`can_edit` on the profile); link contacts and parents give absence
 * reasons and planned absences (SET_ABSENCE_REASON); a super-admin adds, edits and deactivates the
 * school's students (ADD_NEW_*, EDIT_ALL_STUDENTS, DISABLE_*), a link contact edits their selected
 * students; editing a student includes its contacts (the contacts API asks for "edit" on the student);
 * a super-admin keeps the school's attendance contacts (EDIT_ATTENDANCE_CONTACTS, decision 0066).
 */
const PROFILE_FIELDS = /^\/one-page-profiles\/[^/]+\/details: (field|button "Save changes")/;
const PLANNED_ABSENCE = /^\/attendance: field "(Student|From|To|Reason|Note)\b/;
const GRANTED: Record<string, RegExp[]> = {
  teacher: [/^\/lessons\/[^/]+: field "Mark for /],
  'super-admin': [
    PROFILE_FIELDS,
    PLANNED_ABSENCE,
    /^\/my-users: button "(Add|Import)\b/,
    /^\/my-users\/[^/]+\/details: button "(Edit|Deactivate|Add contact)"/,
    /^\/(attendance|customers\/details\/[^/]+): (field "(Add a contact|E-mails)"|button "(Add|Save contacts)")/,
  ],
  'link-contact': [
    PROFILE_FIELDS,
    PLANNED_ABSENCE,
    /^\/my-users\/[^/]+\/details: button "(Edit|Add contact)"/,
  ],
  parent: [PLANNED_ABSENCE],
};

for (const role of ['teacher', 'super-admin', 'link-contact', 'parent']) {
  test(`a ${role} sees read-only screens where the server would refuse a change`, async ({ browser }) => {
    const page = await signedIn(browser, people[role]!, PASSWORD);
    const problems: string[] = [];
    for (const href of screensOf(role)) {
      const failed = await openScreen(page, href);
      if (failed) {
        problems.push(failed);
        continue;
      }
      for (const control of await changeControls(page)) {
        const seen = `${href}: ${control}`;
        if (!GRANTED[role]!.some((granted) => granted.test(seen))) problems.push(seen);
      }
    }
    expect(problems, `${role}: changes offered that the server refuses`).toEqual([]);
    await page.context().close();
  });
}
