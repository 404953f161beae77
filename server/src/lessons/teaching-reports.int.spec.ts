import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { parse } from 'csv-parse/sync';
import { writeProgramme } from '../platform/testing/teaching-fixtures.js';
import { portalModes, startTestPortal, type TestPortal } from '../platform/testing/portal-harness.js';
import { addDays, todayIn, weekStartOf } from '../core/time/time.js';

const TZ = 'Europe/London';
type Row = Record<string, string>;

describe.each(portalModes)(
  'teaching reports (users/…/programs/summary, coms, report files), $name',
  (mode) => {
    let portal: TestPortal;
    const ids: Record<string, string> = {};
    const tokens: Record<string, string> = {};
    // Two lessons delivered a fortnight ago, one planned next week.
    const past = addDays(weekStartOf(todayIn(TZ)), -14);
    const next = addDays(weekStartOf(todayIn(TZ)), 7);
    const range = `from_date=${addDays(past, -1)}&to_date=${addDays(next, 7)}`;

    async function download(path: string, token = portal.admin) {
      const res = await fetch(`${portal.base}/api/v1${path}`, {
        headers: { RequestVerificationToken: token },
      });
      const bytes = Buffer.from(await res.arrayBuffer());
      return { status: res.status, type: res.headers.get('content-type') ?? '', bytes };
    }
    const csv = async (path: string) => {
      const r = await download(path);
      expect(r.status).toBe(200);
      return parse<Row>(r.bytes, { columns: true, bom: true, skip_empty_lines: true });
    };

    beforeAll(async () => {
      portal = await startTestPortal(mode, 'portal_teaching_reports');
      const { call, admin, settle, createUser } = portal;
      const customer = async (name: string) =>
        (await settle(await call('POST', '/customers/', admin, { name }))).body.id as string;
      ids.oak = await customer('Oakfield Academy');
      ids.elm = await customer('Elm Tree School');
      const person = (email: string, user_type: string, extra: Record<string, unknown> = {}) =>
        createUser({ email, first_name: email.split('@')[0], last_name: 'Test', user_type, ...extra });
      ids.tess = await person('tess@example.com', 'teacher');
      ids.theo = await person('theo@example.com', 'teacher');
      ids.ann = await person('ann@oak.example.com', 'student', { customer_id: ids.oak });
      ids.ben = await person('ben@oak.example.com', 'student', { customer_id: ids.oak });
      ids.head = await person('head@oak.example.com', 'partner', {
        customer_id: ids.oak,
        customer_type: 'super-admin',
      });
      ids.elmHead = await person('head@elm.example.com', 'partner', {
        customer_id: ids.elm,
        customer_type: 'super-admin',
      });
      for (const key of ['tess', 'theo', 'head', 'elmHead', 'ann'] as const) {
        const email = {
          tess: 'tess@example.com',
          theo: 'theo@example.com',
          head: 'head@oak.example.com',
          elmHead: 'head@elm.example.com',
          ann: 'ann@oak.example.com',
        }[key];
        tokens[key] = await portal.tokenFor(email);
      }
      ids.maths = (await settle(await call('POST', '/subjects/', admin, { name: 'Maths' }))).body
        .id as string;
      ids.year9 = (
        await settle(await call('POST', '/year-groups/', admin, { name: 'Year 9', key_stage: 'KS3' }))
      ).body.id as string;
      const maths = await writeProgramme(portal, {
        customerId: ids.oak,
        from: addDays(past, -7),
        timezone: TZ,
        title: 'Maths recovery',
        subjectId: ids.maths,
        yearGroupId: ids.year9,
        groups: [{ name: 'Group A', students: [ids.ann, ids.ben] }],
      });
      const elm = await writeProgramme(portal, {
        customerId: ids.elm,
        from: addDays(past, -7),
        timezone: TZ,
        title: 'Elm reading',
        groups: [{ name: 'Elm group', students: [] }],
      });
      const lesson = async (
        programmeId: string,
        groupId: string,
        teacher: string,
        date: string,
        minutes: number,
      ) =>
        (
          await settle(
            await call('POST', '/lessons/', admin, {
              programme_id: programmeId,
              group_id: groupId,
              teacher_id: teacher,
              timezone: TZ,
              local_date: date,
              local_start: '10:00',
              duration_minutes: minutes,
            }),
          )
        ).body.id as string;
      const first = await lesson(maths.programmeId, maths.groupIds[0]!, ids.tess, past, 60);
      const covered = await lesson(maths.programmeId, maths.groupIds[0]!, ids.tess, addDays(past, 1), 45);
      await lesson(maths.programmeId, maths.groupIds[0]!, ids.tess, next, 60);
      const elmLesson = await lesson(elm.programmeId, elm.groupIds[0]!, ids.theo, addDays(past, 2), 30);
      await settle(await call('PUT', `/lessons/${covered}/cover-teacher`, admin, { teacher_id: ids.theo }));
      for (const id of [first, covered, elmLesson])
        await settle(await call('PUT', `/lessons/${id}/delivered`, admin));
      await settle(
        await call('POST', '/enrolments/', admin, {
          student_id: ids.ann,
          programme_id: maths.programmeId,
          start_date: addDays(past, -7),
          placement_type: 'MAIN',
          setting: 'HOME',
          reason_for_placement: 'MEDICAL_REASONS',
        }),
      );
    }, 180_000);

    afterAll(async () => {
      await portal?.close();
    });

    it("sums a teacher's and a student's lessons per programme, within what the reader may see", async () => {
      const { call, admin } = portal;
      const tess = await call('GET', `/users/${ids.tess}/programs/summary?${range}`, admin);
      expect(tess.status).toBe(200);
      expect(tess.body).toMatchObject({
        role: 'teacher',
        totals: { lessons_delivered: 1, lessons_planned: 1 },
      });
      expect(tess.body.items).toEqual([
        expect.objectContaining({
          title: 'Maths recovery',
          subject_name: 'Maths',
          customer_name: 'Oakfield Academy',
          lessons_delivered: 1,
          lessons_planned: 1,
          minutes_delivered: 60,
          first_lesson: past,
          last_lesson: next,
        }),
      ]);
      // the student's own view: both delivered lessons of the group (one taught as cover) and the planned one
      const ann = await call('GET', `/users/${ids.ann}/programs/summary?${range}`, tokens.ann);
      expect(ann.body).toMatchObject({
        role: 'student',
        totals: { lessons_delivered: 2, lessons_planned: 1, minutes_delivered: 105 },
      });
      expect((await call('GET', `/users/${ids.ann}/programs/summary?${range}`, tokens.head)).status).toBe(
        200,
      );
      expect((await call('GET', `/users/${ids.ann}/programs/summary`, tokens.elmHead)).status).toBe(404);
      expect((await call('GET', `/users/${ids.tess}/programs/summary`, tokens.theo)).status).toBe(404);
      const backwards = await call(
        'GET',
        `/users/${ids.tess}/programs/summary?from_date=${next}&to_date=${past}`,
        admin,
      );
      expect(backwards.status).toBe(422);
      expect(backwards.body.detail).toContain('from_date');
    });

    it('counts delivered lessons per teacher and subject (coms); a teacher sees only their own', async () => {
      const { call, admin } = portal;
      const all = await call('GET', `/users/coms?${range}`, admin);
      expect(all.status).toBe(200);
      const rows = (all.body.items as Row[]).map((r) => [
        r.user_name,
        r.subject_name,
        r.lessons_delivered,
        r.minutes_delivered,
      ]);
      expect(rows).toEqual([
        ['tess Test', 'Maths', 1, 60],
        ['theo Test', 'Maths', 1, 45],
        ['theo Test', null, 1, 30],
      ]);
      const maths = await call('GET', `/users/coms?${range}&subject_ids=${ids.maths}`, admin);
      expect((maths.body.items as Row[]).map((r) => r.user_name)).toEqual(['tess Test', 'theo Test']);
      const own = await call('GET', `/users/coms?${range}`, tokens.tess);
      expect((own.body.items as Row[]).map((r) => r.user_id)).toEqual([ids.tess]);
      expect((await call('GET', `/users/coms?user_id=${ids.theo}`, tokens.tess)).status).toBe(404);
      expect((await call('GET', '/users/coms', tokens.head)).status).toBe(403);
      expect((await call('GET', '/users/coms?subject_ids=maths', admin)).status).toBe(422);
    });

    it('writes the report files, admin-only, in CSV or .xlsx', async () => {
      const forOak = await csv(
        `/users/teachers_for_customer/${ids.oak}/report?date_from=${addDays(past, -1)}&date_to=${addDays(next, 7)}`,
      );
      expect(forOak.map((r) => [r.teacher_name, r.lessons_delivered, r.lessons_planned])).toEqual([
        ['tess Test', '1', '1'],
        ['theo Test', '1', '0'],
      ]);
      const xlsx = await download(`/users/teachers_for_customer/${ids.oak}/report?as_excel=true`);
      expect(xlsx.type).toContain('spreadsheetml');
      expect(xlsx.bytes.subarray(0, 2).toString()).toBe('PK');
      expect((await download(`/users/teachers_for_customer/${ids.oak}/report`, tokens.head)).status).toBe(
        403,
      );

      const delivering = await csv(
        `/users/teachers_delivering_courses/report?${range}&subject_ids=${ids.maths}`,
      );
      expect(
        delivering.map((r) => [r.teacher_name, r.programme_title, r.key_stage, r.lessons_delivered]),
      ).toEqual([
        ['tess Test', 'Maths recovery', 'KS3', '1'],
        ['theo Test', 'Maths recovery', 'KS3', '1'],
      ]);
      const contract = await portal.call(
        'GET',
        '/users/teachers_delivering_courses/report?contract_type=full-time',
        portal.admin,
      );
      expect(contract.status).toBe(422);
      expect(contract.body.detail).toContain('contract_type');

      const students = await csv(`/users/students-with-lessons/report?${range}`);
      expect(
        students.map((r) => [r.student_name, r.customer_name, r.lessons_delivered, r.lessons_planned]),
      ).toEqual([
        ['ann Test', 'Oakfield Academy', '2', '1'],
        ['ben Test', 'Oakfield Academy', '2', '1'],
      ]);

      const stages = await csv(`/users/students-by-keystage/report?${range}`);
      // the Elm lesson had no students: a report of students leaves it out
      expect(stages).toEqual([
        { key_stage: 'KS3', year_group_name: 'Year 9', students: '2', lessons_delivered: '2' },
      ]);
      expect(await csv(`/users/students-by-keystage/report?${range}&keystage_names=KS4`)).toEqual([]);
      expect((await download('/users/students-by-keystage/report?keystage_names=KS9')).status).toBe(422);

      const sources = await csv(`/users/students/source-of-education/report?${range}`);
      expect(sources).toEqual([
        expect.objectContaining({
          student_name: 'ann Test',
          customer_name: 'Oakfield Academy',
          placement_type: 'MAIN',
          setting: 'HOME',
          reason_for_placement: 'MEDICAL_REASONS',
          end_date: '',
        }),
      ]);
    });
  },
);
