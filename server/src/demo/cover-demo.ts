import type { DemoPart } from './teaching-demo.js';

/** Monday of next week (UTC dates; the demo does not mind a day near midnight). */
function nextWeek(): { from: string; to: string } {
  const today = new Date();
  const daysToMonday = (8 - today.getUTCDay()) % 7 || 7;
  const monday = new Date(
    Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() + daysToMonday),
  );
  const after = new Date(monday.getTime() + 7 * 86_400_000);
  return { from: monday.toISOString(), to: after.toISOString() };
}

/**
 * Cover requests (decision 0054), after the lessons part: one open broadcast request for a lesson
 * next week of teacher 0 (or, when teacher 0 has none, the first planned lesson next week), raised by
 * the administrator on the teacher's behalf. Its id is `world.teaching['coverRequest:open']`.
 */
export const coverDemo: DemoPart = {
  name: 'cover requests',
  async seed(call, world) {
    const { from, to } = nextWeek();
    const query = `from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}&status=planned&size=1`;
    const teacher = world.teacherIds[0];
    const own = teacher ? (await call('GET', `/lessons/?${query}&teacher_id=${teacher}`)).body : null;
    let lesson = (own?.items as { id: string }[] | undefined)?.[0];
    if (!lesson) lesson = ((await call('GET', `/lessons/?${query}`)).body.items as { id: string }[])[0];
    if (!lesson) return;
    const created = await call('POST', '/cover-requests/', {
      lesson_ids: [lesson.id],
      reason: 'Training day: cover needed',
      mode: 'broadcast',
    });
    world.teaching['coverRequest:open'] = created.body.id as string;
  },
};
