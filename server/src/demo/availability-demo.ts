import type { DemoPart } from './teaching-demo.js';

/**
 * Teachers' availability (decision 0058), so the teachers' timetables grid shows free time beside the
 * lessons: every demo teacher but the last has a recurring week, Monday to Friday, starting between
 * 08:00 and 10:00 and ending at 16:00 or 18:00 (their own zone); the last has none, as a newcomer's
 * "no availability set" example.
 */
export const availabilityDemo: DemoPart = {
  name: 'availability',
  async seed(call, world) {
    const teachers = world.teacherIds.slice(0, -1);
    for (const [i, id] of teachers.entries()) {
      const start = (8 + (i % 3)) * 60;
      const end = (16 + 2 * (i % 2)) * 60;
      await call('POST', `/users/${id}/availability`, {
        availabilities: [0, 1, 2, 3, 4].map((day) => ({
          day_of_week: day,
          start_minute: start,
          end_minute: end,
        })),
      });
    }
  },
};
