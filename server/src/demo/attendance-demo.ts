import type { DemoCall, DemoPart } from './teaching-demo.js';

type Entry = { student_id: string; mark: string | null };

/** The most recent past lessons of each group that get a register (more would only slow the seed). */
const REGISTERS_PER_GROUP = 6;

const put = (call: DemoCall, lessonId: string, entries: object[], key: string) =>
  call('PUT', `/lessons/${lessonId}/register`, { client_key: key, entries });

/**
 * Attendance (decision 0056), after the lessons part: each school's attendance contacts (decision
 * 0061; they are told of the demo's absences with no reason), staff job titles (the "position" the ledger
 * records), registers for the latest past lessons of every demo group (mostly present, some late, a
 * few absences), a few amendments with their reasons, one absence reason given for a school and one
 * absence still waiting for a reason (the latest lesson's). Each register is taken by its lesson's
 * teacher (cover teacher when there is one) through their own session (`world.callAs`); the
 * amendments, past the teachers' next-working-day deadline, by the first administrator as head of
 * attendance; the school's reason is recorded through the same call a partner uses. Ids: `world.teaching['attendance:pending']` = `{lessonId}:{studentId}`.
 */
export const attendanceDemo: DemoPart = {
  name: 'attendance',
  async seed(call, world) {
    const t = world.teaching;
    const me = (await call('GET', '/users/me')).body.id as string;
    await call('PUT', `/users/${me}`, { position: 'Head of attendance' });
    for (const [i, id] of world.teacherIds.entries())
      await call('PUT', `/users/${id}`, { position: i === 0 ? 'Senior tutor' : 'Tutor' });

    // Each school's attendance contacts (decision 0061): the head by each change, the office daily.
    for (const [school, customerId] of Object.entries(world.customers)) {
      const contacts = [
        ['super-admin', 'each-change'],
        ['admin', 'daily'],
      ]
        .filter(([role]) => world.partnerIds[`${school}:${role}`])
        .map(([role, frequency]) => ({
          user_id: world.partnerIds[`${school}:${role}`],
          notification_frequency: frequency,
        }));
      await call('PUT', `/customers/${customerId}/attendance-contacts`, { contacts });
    }

    const now = new Date().toISOString();
    const sessions = new Map<string, Promise<DemoCall>>();
    const teacherCall = (callAs: (id: string) => Promise<DemoCall>, id: string) => {
      if (!sessions.has(id)) sessions.set(id, callAs(id));
      return sessions.get(id)!;
    };
    let amended = 0;
    const absences: { lessonId: string; studentId: string }[] = [];
    for (let n = 1; t[`group:${n}`]; n++) {
      const past = await call(
        'GET',
        `/lessons/?group_id=${t[`group:${n}`]!}&to=${encodeURIComponent(now)}&status=delivered&size=500`,
      );
      const lessons = (
        past.body.items as {
          id: string;
          ends_at: string;
          teacher_id: string;
          cover_teacher_id: string | null;
        }[]
      )
        .filter((l) => l.ends_at < now)
        .slice(-REGISTERS_PER_GROUP);
      for (const [j, lesson] of lessons.entries()) {
        const register = (await call('GET', `/lessons/${lesson.id}/register`)).body;
        const students = (register.entries as Entry[]).map((e) => e.student_id);
        if (students.length === 0) continue;
        const marks = students.map((studentId, i) => {
          const k = i + j + n;
          if (k % 9 === 4) return { student_id: studentId, mark: 'absent_pending' };
          if (k % 7 === 2) return { student_id: studentId, mark: 'late', minutes_late: 5 + (k % 3) * 5 };
          return { student_id: studentId, mark: 'present' };
        });
        const teacher = lesson.cover_teacher_id ?? lesson.teacher_id;
        const asTeacher = world.callAs ? await teacherCall(world.callAs, teacher) : call;
        await put(asTeacher, lesson.id, marks, `demo-${lesson.id}`);
        for (const m of marks)
          if (m.mark === 'absent_pending') absences.push({ lessonId: lesson.id, studentId: m.student_id });
        // A few amendments: a pupil marked present had in fact joined late.
        const first = marks.find((m) => m.mark === 'present');
        if (first && amended < 3 && j === 0) {
          await put(
            call,
            lesson.id,
            [
              {
                student_id: first.student_id,
                mark: 'late',
                minutes_late: 10,
                reason: 'Joined 10 minutes late; the recording shows it',
              },
            ],
            `demo-amend-${lesson.id}`,
          );
          amended++;
        }
      }
    }
    // The first absence gets the school's reason, a few more an amendment with one, the last waits.
    const [first, ...rest] = absences;
    const pending = rest.pop();
    if (first)
      await call('PUT', `/lessons/${first.lessonId}/register/${first.studentId}/reason`, {
        absence_reason: 'illness',
        note: 'Phoned in by the school’s attendance officer',
      });
    for (const a of rest.slice(0, 3))
      await put(
        call,
        a.lessonId,
        [
          {
            student_id: a.studentId,
            mark: 'absent',
            absence_reason: 'medical',
            reason: 'Dentist letter received',
          },
        ],
        `demo-reason-${a.lessonId}-${a.studentId}`,
      );
    if (pending) t['attendance:pending'] = `${pending.lessonId}:${pending.studentId}`;
    // A planned absence next week for a student of the first group: its registers open pre-filled.
    const firstGroup = t['group:1'];
    const student = firstGroup
      ? (
          (await call('GET', `/groups/${firstGroup}`)).body.students as { student_id: string }[] | undefined
        )?.[0]
      : undefined;
    if (student) {
      const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
      await call('POST', '/planned-absences/', {
        student_id: student.student_id,
        from: day(7),
        to: day(9),
        absence_reason: 'medical',
        note: 'Hospital appointment (letter seen)',
      });
    }
  },
};
