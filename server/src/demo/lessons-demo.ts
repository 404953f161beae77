import type { DemoCall, DemoPart } from './teaching-demo.js';

/** Today in UTC, moved by `days` (the demo's dates; a day off near midnight does not matter). */
const dayFromToday = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/** Each demo group's weekly slots: maths in the morning, English in the afternoon, never together. */
const SLOTS = [
  { weekdays: [1, 3], local_start: '10:00', duration_minutes: 60 },
  { weekdays: [2, 4], local_start: '13:30', duration_minutes: 45 },
];

async function tryGet(call: DemoCall, path: string): Promise<Record<string, unknown> | null> {
  try {
    return (await call('GET', path)).body;
  } catch {
    return null;
  }
}

/**
 * Schedules and lessons (decision 0053), the last teaching part: one weekly schedule per demo group
 * (`group:{n}` from the programmes part; none without it), valid from four weeks ago to four weeks
 * ahead and planned from its first day, so a newcomer's timetable and the lessons list are full. The
 * lessons already past are marked delivered (the interim `PUT /lessons/{id}/delivered`, until
 * attendance records delivery).
 */
export const lessonsDemo: DemoPart = {
  name: 'schedules and lessons',
  async seed(call, world) {
    const t = world.teaching;
    const teachers = world.teacherIds.filter((_, i) => i !== 7);
    const now = new Date().toISOString();
    for (let n = 1; t[`group:${n}`]; n++) {
      const groupId = t[`group:${n}`]!;
      const programmeId = t[`programme:${n}`];
      if (!programmeId) continue;
      const group = await tryGet(call, `/groups/${groupId}`);
      const programme = await tryGet(call, `/programmes/${programmeId}`);
      const lead = (group?.teachers as { teacher_id: string }[] | undefined)?.[0]?.teacher_id;
      const teacherId = lead ?? teachers[(n - 1) % Math.max(teachers.length, 1)];
      if (!teacherId) continue;
      const slot = SLOTS[(n - 1) % SLOTS.length]!;
      const created = await call('POST', `/programmes/${programmeId}/schedules`, {
        group_id: groupId,
        teacher_id: teacherId,
        timezone: typeof programme?.timezone === 'string' ? programme.timezone : 'Europe/London',
        ...slot,
        interval_weeks: 1,
        valid_from: dayFromToday(-28),
        valid_until: dayFromToday(28),
        plan_past: true,
      });
      t[`schedule:${n}`] = created.body.id as string;
      const past = await call(
        'GET',
        `/lessons/?group_id=${groupId}&status=planned&to=${encodeURIComponent(now)}&size=500`,
      );
      for (const lesson of past.body.items as { id: string }[])
        await call('PUT', `/lessons/${lesson.id}/delivered`, {});
    }
  },
};
