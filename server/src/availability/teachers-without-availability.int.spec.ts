import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { portalModes, startTestPortal, type TestPortal } from '../platform/testing/portal-harness.js';
import { mondayOf } from './availability.decider.js';

const WEEK = '2030-01-07';
const NEXT_WEEK = '2030-01-14';
const REPORT = '/users/teachers_without_availability_set/report';
const slot = { day_of_week: 0, start_minute: 540, end_minute: 600 };

describe.each(portalModes)('teachers without availability report, $name', (mode) => {
  let portal: TestPortal;
  const ids: Record<string, string> = {};

  async function download(path: string, token = portal.admin) {
    const res = await fetch(`${portal.base}/api/v1${path}`, { headers: { RequestVerificationToken: token } });
    return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
  }
  const records = (bytes: Buffer) =>
    parse<Record<string, string>>(bytes, { columns: true, bom: true, skip_empty_lines: true });
  const setAvailability = async (who: string, availabilities: unknown[], week?: string) =>
    portal.settle(
      await portal.call(
        'POST',
        `/users/${ids[who]}/availability${week ? `?week=${week}` : ''}`,
        portal.admin,
        { availabilities },
      ),
    );

  beforeAll(async () => {
    portal = await startTestPortal(mode, 'portal_no_availability');
    // never: nothing set; weekly: a recurring week; offweek: recurring, but "not available" in WEEK;
    // nextonly: only NEXT_WEEK has a list; gone: deactivated, nothing set; a student is no teacher.
    for (const key of ['never', 'weekly', 'offweek', 'nextonly', 'gone'])
      ids[key] = await portal.createUser({
        email: `${key}@example.com`,
        first_name: key,
        last_name: 'Teacher',
        user_type: 'teacher',
      });
    const school = (
      await portal.settle(await portal.call('POST', '/customers/', portal.admin, { name: 'S' }))
    ).body.id as string;
    await portal.createUser({
      email: 'pupil@example.com',
      first_name: 'pupil',
      last_name: 'S',
      user_type: 'student',
      customer_id: school,
    });
    await setAvailability('weekly', [slot]);
    await setAvailability('offweek', [slot]);
    await setAvailability('offweek', [], WEEK);
    await setAvailability('nextonly', [slot], NEXT_WEEK);
    await portal.settle(await portal.call('PUT', `/users/${ids.gone}/deactivate`, portal.admin));
  }, 120_000);
  afterAll(async () => {
    await portal?.close();
  });

  it('lists active teachers with no slot in the week: its own list, else the recurring one', async () => {
    const r = await download(`${REPORT}?week=${WEEK}`);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(r.headers.get('content-disposition')).toBe(
      `attachment; filename="teachers-without-availability-${WEEK}.csv"`,
    );
    const rows = records(r.bytes);
    expect(rows.map((x) => x.first_name)).toEqual(['never', 'nextonly', 'offweek']);
    expect(rows.map((x) => [x.id, x.week, x.set_for_other_weeks])).toEqual([
      [ids.never, WEEK, 'false'],
      [ids.nextonly, WEEK, 'true'],
      [ids.offweek, WEEK, 'true'],
    ]);
    expect(rows[0]!.availability_updated_at).toBe('');
    expect(rows[1]!.availability_updated_at).toMatch(/^\d{4}-\d{2}-\d{2}T/);

    // The same list as JSON, for the home page.
    const json = await portal.call(
      'GET',
      `/users/teachers_without_availability_set?week=${WEEK}`,
      portal.admin,
    );
    expect(json.body).toMatchObject({ week: WEEK, total: 3 });
    expect((json.body.items as { id: string }[]).map((x) => x.id)).toEqual([
      ids.never,
      ids.nextonly,
      ids.offweek,
    ]);

    // The week after: "nextonly" has set it, "offweek" has the recurring week again.
    const next = records((await download(`${REPORT}?week=${NEXT_WEEK}`)).bytes);
    expect(next.map((x) => x.first_name)).toEqual(['never']);
  });

  it('defaults to this week, gives .xlsx with as_excel=true and names a bad week', async () => {
    const now = await download(REPORT);
    expect(now.headers.get('content-disposition')).toContain(`-${mondayOf(new Date())}.csv`);
    expect(records(now.bytes).map((x) => x.first_name)).toEqual(['nextonly', 'never'].sort());

    const xlsx = await download(`${REPORT}?week=${WEEK}&as_excel=true`);
    expect(xlsx.headers.get('content-type')).toBe(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(xlsx.bytes as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    expect(sheet.getRow(1).getCell(2).value).toBe('first_name');
    expect(sheet.rowCount).toBe(4);

    const bad = await portal.call('GET', `${REPORT}?week=2030-01-08`, portal.admin);
    expect(bad).toEqual({ status: 422, body: { detail: 'week: must be a Monday' } });
    expect((await portal.call('GET', `${REPORT}?as_excel=maybe`, portal.admin)).status).toBe(422);
  });

  it('is for administrators only (reports, spec §6)', async () => {
    const teacher = await portal.tokenFor('never@example.com');
    expect((await download(REPORT, teacher)).status).toBe(403);
    expect((await portal.call('GET', '/users/teachers_without_availability_set', teacher)).status).toBe(403);
    expect((await fetch(`${portal.base}/api/v1${REPORT}`)).status).toBe(401);
  });
});
