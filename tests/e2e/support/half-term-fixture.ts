import { expect, type APIRequestContext } from '@playwright/test';
import { adminToken, api, createCustomer, createUser } from './portal-api.js';

/** A teacher with permissions and a password (they sign in through the browser). */
export interface ReportPerson {
  email: string;
  first: string;
  last: string;
  permissions: string[];
}

export const plusDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/**
 * One half-term report in `draft` through the API, as an administrator would set it up: the people
 * (teachers; `writer` leads the group), a school with one student in one programme and group, one
 * lesson by the writer in the period, a timeframe scoped to the school, and the generated report.
 * Answers the admin token, every id, what to delete afterwards, and the report's id.
 */
export async function draftReport(
  request: APIRequestContext,
  o: {
    people: Record<string, ReportPerson> & { writer: ReportPerson };
    password: string;
    school: string;
    student: { email: string; first: string; last: string };
    programme: string;
    timeframe: Record<string, unknown>;
  },
): Promise<{ token: string; ids: Record<string, string>; created: string[]; reportId: string }> {
  const token = await adminToken(request);
  const ids: Record<string, string> = {};
  const created: string[] = [];
  for (const [key, p] of Object.entries(o.people)) {
    ids[key] = await createUser(request, token, {
      email: p.email,
      first_name: p.first,
      last_name: p.last,
      user_type: 'teacher',
      password: o.password,
    });
    const granted = await api(request, token, 'PUT', `/api/v1/users/${ids[key]}/permissions`, {
      permissions: p.permissions,
    });
    expect(granted.status, JSON.stringify(granted.body)).toBe(200);
    created.push(ids[key]);
  }
  ids.school = await createCustomer(request, token, o.school);
  ids.student = await createUser(request, token, {
    email: o.student.email,
    first_name: o.student.first,
    last_name: o.student.last,
    user_type: 'student',
    customer_id: ids.school,
  });
  created.push(ids.student);
  const programme = await api<{ id: string }>(request, token, 'POST', '/api/v1/programmes/', {
    title: o.programme,
    customer_id: ids.school,
    kind: 'lesson',
    start_date: plusDays(-14),
    timezone: 'Europe/London',
  });
  expect(programme.status, JSON.stringify(programme.body)).toBe(201);
  await api(request, token, 'PUT', `/api/v1/programmes/${programme.body.id}/activate`, {});
  const group = await api<{ id: string }>(request, token, 'POST', '/api/v1/groups/', {
    programme_id: programme.body.id,
    name: `${o.programme} group`,
    teachers: [{ teacher_id: ids.writer, role: 'lead' }],
  });
  expect(group.status, JSON.stringify(group.body)).toBe(201);
  const joined = await api(request, token, 'POST', `/api/v1/groups/${group.body.id}/students`, {
    student_id: ids.student,
    from: plusDays(-14),
  });
  expect(joined.status, JSON.stringify(joined.body)).toBeLessThan(300);
  const enrolled = await api(request, token, 'POST', '/api/v1/enrolments/', {
    student_id: ids.student,
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
  const timeframe = await api<{ id: string }>(
    request,
    token,
    'POST',
    '/api/v1/report-submission-timeframes/',
    {
      ...o.timeframe,
      scope: { customer_ids: [ids.school] },
    },
  );
  expect(timeframe.status, JSON.stringify(timeframe.body)).toBe(201);
  ids.timeframe = timeframe.body.id;
  await api(request, token, 'POST', `/api/v1/report-submission-timeframes/${timeframe.body.id}/generate`, {});
  let reportId = '';
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
  return { token, ids, created, reportId };
}
