import { expect, test } from '@playwright/test';
import {
  adminToken,
  api,
  startedLessonUtc,
  createCustomer,
  createUser,
  signedIn,
} from './support/portal-api.js';

// Registers (decision 0056): needs the programmes API for its setup; skipped where it is absent.
const stamp = Date.now().toString(36);
const TEACHER = { email: `tina.teacher.${stamp}@tutors.example`, password: 'Register-Taker-2026!' };
const SCHOOL = { email: `sam.school.${stamp}@school.example`, password: 'Attendance-Watch-2026!' };
const ANN = `Ann Reg${stamp}`;
const BEN = `Ben Reg${stamp}`;
let token = '';
let lessonId = '';
const userIds: string[] = [];

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ request }) => {
  token = await adminToken(request);
  const teacherId = await createUser(request, token, {
    email: TEACHER.email,
    first_name: 'Tina',
    last_name: 'Teacher',
    user_type: 'teacher',
    password: TEACHER.password,
  });
  const titled = await api(request, token, 'PUT', `/api/v1/users/${teacherId}`, {
    position: 'Geography tutor',
  });
  expect(titled.status, JSON.stringify(titled.body)).toBe(200);
  const customerId = await createCustomer(request, token, `Register School ${stamp}`);
  const schoolId = await createUser(request, token, {
    email: SCHOOL.email,
    first_name: 'Sam',
    last_name: 'School',
    user_type: 'partner',
    customer_id: customerId,
    customer_type: 'super-admin',
    password: SCHOOL.password,
  });
  const students = [];
  for (const name of [ANN, BEN]) {
    const [first, last] = name.split(' ');
    students.push(
      await createUser(request, token, {
        email: `${first!.toLowerCase()}.${stamp}@pupils.example`,
        first_name: first!,
        last_name: last!,
        user_type: 'student',
        customer_id: customerId,
        password: 'Pupil-Password-2026!',
      }),
    );
  }
  userIds.push(teacherId, schoolId, ...students);
  const programme = await api<{ id: string }>(request, token, 'POST', '/api/v1/programmes/', {
    title: 'Register geography',
    customer_id: customerId,
    kind: 'lesson',
    start_date: new Date(Date.now() - 7 * 86_400_000).toISOString().slice(0, 10),
    timezone: 'UTC',
  });
  test.skip(programme.status === 404, 'needs the programmes API');
  expect(programme.status, JSON.stringify(programme.body)).toBe(201);
  await api(request, token, 'PUT', `/api/v1/programmes/${programme.body.id}/activate`, {});
  const group = await api<{ id: string }>(request, token, 'POST', '/api/v1/groups/', {
    programme_id: programme.body.id,
    name: 'Register A',
    teachers: [{ teacher_id: teacherId, role: 'lead' }],
  });
  expect(group.status, JSON.stringify(group.body)).toBe(201);
  for (const studentId of students) {
    const added = await api(request, token, 'POST', `/api/v1/groups/${group.body.id}/students`, {
      student_id: studentId,
      from: new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10),
    });
    expect(added.status, JSON.stringify(added.body)).toBeLessThan(300);
  }
  // A lesson that has begun today (UTC wall clock): its register is open.
  const lesson = await api<{ id: string }>(request, token, 'POST', '/api/v1/lessons/', {
    programme_id: programme.body.id,
    group_id: group.body.id,
    teacher_id: teacherId,
    timezone: 'UTC',
    ...startedLessonUtc(),
    duration_minutes: 60,
  });
  expect(lesson.status, JSON.stringify(lesson.body)).toBe(201);
  lessonId = lesson.body.id;
});

test.afterAll(async ({ request }) => {
  for (const id of userIds) await api(request, token, 'DELETE', `/api/v1/users/${id}`).catch(() => undefined);
});

test('a teacher takes the register, the school sees it live, the teacher amends with a reason and the history shows it', async ({
  browser,
}) => {
  const school = await signedIn(browser, SCHOOL.email, SCHOOL.password);
  await school.goto('/attendance');
  await expect(school.getByRole('heading', { level: 1, name: 'Attendance' })).toBeVisible();
  await expect(school.getByText('No marks yet')).toBeVisible();

  const teacher = await signedIn(browser, TEACHER.email, TEACHER.password);
  await teacher.goto(`/lessons/${lessonId}`);
  const register = teacher.getByRole('table', { name: 'Register' });
  await register.getByRole('combobox', { name: `Mark for ${ANN}` }).selectOption('present');
  await register.getByRole('combobox', { name: `Mark for ${BEN}` }).selectOption('absent_pending');
  await teacher.getByRole('button', { name: 'Save register' }).click();
  await expect(register.getByRole('row').filter({ hasText: ANN }).getByText('Tina Teacher')).toBeVisible();

  // The school's open page shows the marks without a reload (the live channel).
  const marks = school.getByRole('table', { name: "Your students' attendance" });
  await expect(marks.getByRole('row').filter({ hasText: ANN }).getByText('Present')).toBeVisible({
    timeout: 10_000,
  });
  await expect(marks.getByRole('row').filter({ hasText: BEN }).getByText('Reason missing')).toBeVisible();

  // An amendment asks why, and the history keeps the original, the amendment, the reason, who and their position.
  await register.getByRole('combobox', { name: `Mark for ${ANN}` }).selectOption('late');
  await register.getByRole('textbox', { name: `Minutes late for ${ANN}` }).fill('10');
  await teacher.getByRole('button', { name: 'Save register' }).click();
  const why = teacher.getByRole('dialog', { name: 'Why are these marks changing?' });
  await why.getByRole('textbox', { name: 'Reason for the change' }).fill('Joined late; camera issue');
  await why.getByRole('button', { name: 'Save amendments' }).click();
  await expect(why).toBeHidden();
  await teacher.getByRole('button', { name: 'History' }).click();
  const history = teacher.getByRole('table', { name: 'Amendment history' });
  const row = history.getByRole('row').filter({ hasText: ANN });
  await expect(row).toContainText('Present');
  await expect(row).toContainText('Late (10 min)');
  await expect(row).toContainText('Joined late; camera issue');
  await expect(row).toContainText('Tina Teacher');
  await expect(row).toContainText('Geography tutor');
  // And the school's page follows the amendment, live too.
  await expect(marks.getByRole('row').filter({ hasText: ANN }).getByText(/Late/)).toBeVisible({
    timeout: 10_000,
  });
  await school.context().close();
  await teacher.context().close();
});
