import type { DemoPart } from './teaching-demo.js';

/** Display names of the demo schools (their keys in `world.customers`). */
const SCHOOL_NAMES: Record<string, string> = {
  oakfield: 'Oakfield',
  riverside: 'Riverside',
  sthilda: "St Hilda's",
};

const START = '2026-09-07';
const END = '2027-07-16';

/** Teacher index 7 has a quality issue in the demo: never give them a group. */
const QUALITY_ISSUE_TEACHER = 7;

/**
 * Programmes, groups and enrolments for the demo (decision 0051): for each demo school two active
 * programmes for the 2026/27 year ("Maths GCSE recovery — Oakfield", "English KS3 — Oakfield"), each
 * with one group led by one of the first teachers and 3–4 of the school's students, who are enrolled
 * too. Ids go to `world.teaching` as `programme:{n}` and `group:{n}` (n from 1, in creation order),
 * plus `programme:{school}:{maths|english}` and `group:{school}:{maths|english}`.
 */
export const programmesDemo: DemoPart = {
  name: 'programmes, groups and enrolments',
  async seed(call, world) {
    const t = world.teaching;
    const teachers = world.teacherIds.filter((_, i) => i !== QUALITY_ISSUE_TEACHER);
    const plans = [
      {
        key: 'maths',
        title: 'Maths GCSE recovery',
        subject: t['subject:Maths'] ?? null,
        yearGroup: t['yearGroup:Year 10'] ?? null,
        students: (all: string[]) => all.slice(0, 4),
        placement: { placement_type: 'MAIN', setting: 'HOME', reason_for_placement: 'MEDICAL_REASONS' },
      },
      {
        key: 'english',
        title: 'English KS3',
        subject: t['subject:English'] ?? null,
        yearGroup: t['yearGroup:Year 8'] ?? null,
        students: (all: string[]) => all.slice(Math.max(0, all.length - 3)),
        placement: {
          placement_type: 'NOT_MAIN_OR_ONLY',
          setting: 'PARTNER_SITE',
          reason_for_placement: 'REDUCED_TIMETABLE',
        },
      },
    ];
    let n = 0;
    for (const [school, customerId] of Object.entries(world.customers)) {
      const schoolName = SCHOOL_NAMES[school] ?? school.charAt(0).toUpperCase() + school.slice(1);
      for (const plan of plans) {
        const lead = teachers[n % Math.max(teachers.length, 1)];
        n += 1;
        const programmeId = (
          await call('POST', '/programmes/', {
            title: `${plan.title} — ${schoolName}`,
            customer_id: customerId,
            kind: 'lesson',
            subject_id: plan.subject,
            year_group_id: plan.yearGroup,
            product_id: t['product:Small group online'] ?? null,
            start_date: START,
            end_date: END,
          })
        ).body.id as string;
        await call('PUT', `/programmes/${programmeId}/activate`, {});
        const groupId = (
          await call('POST', '/groups/', {
            programme_id: programmeId,
            name: `${plan.title} group`,
            teachers: lead ? [{ teacher_id: lead, role: 'lead' }] : [],
          })
        ).body.id as string;
        for (const studentId of plan.students(world.studentsOf[school] ?? [])) {
          await call('POST', `/groups/${groupId}/students`, { student_id: studentId, from: START });
          await call('POST', '/enrolments/', {
            student_id: studentId,
            programme_id: programmeId,
            start_date: START,
            end_date: END,
            ...plan.placement,
          });
        }
        t[`programme:${n}`] = programmeId;
        t[`group:${n}`] = groupId;
        t[`programme:${school}:${plan.key}`] = programmeId;
        t[`group:${school}:${plan.key}`] = groupId;
      }
    }
  },
};
