import { expect } from '@jest/globals';
import { studentActivityProjection, type ProjectionEvent, type UserEvent } from '@portal/projections';
import { describeFoldInBatches, record } from '../../platform/testing/projection-contract.js';

/**
 * Decision 0089: a batch of student-activity events reads its users' rows once, applies every event
 * in memory with the rules and position guard of `apply`, and writes rows and periods once. Whatever
 * the batch boundaries, the rows must be those of event-by-event apply. The history walks every rule:
 * a period opened, closed (by a block, by a deactivation), opened again, a change that keeps a student
 * inactive, a customer change, a second creation, an event before its student's creation, a teacher's
 * events (ignored), ids in capitals, and a student whose period opened before the batch.
 */
const id = (n: number) => `abcdef00-0000-4000-8000-${String(n).padStart(12, '0')}`;
const [ANN, BEN, CAT, TOM] = [id(1), id(2), id(3), id(11)];
const [CUSTOMER_A, CUSTOMER_B] = [id(21), id(22)];

const created = (userId: string, userType: 'student' | 'teacher', customerId: string | null) =>
  ({
    type: 'UserCreated',
    data: {
      userId,
      login: `${userId}@example.com`,
      email: `${userId}@example.com`,
      firstName: 'A',
      lastName: 'B',
      userType,
      permissions: [],
      customerId,
    },
  }) satisfies UserEvent;
const change = (type: 'UserActivated' | 'UserBlocked' | 'UserUnblocked', userId: string) =>
  ({ type, data: { userId } }) satisfies UserEvent;
const deactivated = (userId: string) =>
  ({ type: 'UserDeactivated', data: { userId, scheduled: false } }) satisfies UserEvent;
const moved = (userId: string, customerId: string | null) =>
  ({ type: 'UserProfileUpdated', data: { userId, changes: { customerId } } }) satisfies UserEvent;

const events: UserEvent[] = [
  created(ANN, 'student', CUSTOMER_A), // 0: ANN's period opens
  created(TOM, 'teacher', null), // 1
  change('UserBlocked', CAT), // 2: before CAT's creation: nothing
  created(BEN.toUpperCase(), 'student', CUSTOMER_A), // 3: BEN's period opens
  change('UserBlocked', ANN), // 4: ANN's period ends
  deactivated(ANN), // 5: still inactive, no new end
  change('UserUnblocked', ANN), // 6: still deactivated: no period
  created(CAT, 'student', null), // 7: CAT's period opens
  deactivated(TOM), // 8: a teacher: ignored
  change('UserActivated', ANN.toUpperCase()), // 9: ANN's second period opens
  moved(BEN, CUSTOMER_B), // 10
  deactivated(BEN), // 11: BEN's period ends
  created(BEN, 'student', CUSTOMER_A), // 12: a second creation keeps the row, opens nothing
  change('UserActivated', BEN), // 13: BEN's second period opens
  change('UserBlocked', BEN), // 14: and ends
  change('UserUnblocked', BEN), // 15: BEN's third period opens
  moved(CAT, CUSTOMER_B), // 16
  change('UserBlocked', CAT), // 17: CAT's period ends
  moved(ANN, null), // 18
  change('UserActivated', TOM), // 19: ignored
  change('UserUnblocked', CAT), // 20: CAT's second period opens
  deactivated(CAT), // 21: and ends; the first keeps its end
  change('UserBlocked', ANN), // 22: ANN's second period ends; the first keeps its end
];
const history: ProjectionEvent[] = record(events.map((e) => [`user-${e.data.userId}`, e.type, e.data]));

const at = (i: number) => history[i]!.metadata.occurredAt.slice(0, 19);

describeFoldInBatches(
  'student-activity projection',
  'portal_student_activity_fold',
  studentActivityProjection,
  history,
  {
    title: 'event by event, the history sets every student-activity rule',
    async check(sql) {
      const students = await sql.query(
        `SELECT user_id::text AS id, customer_id::text AS customer, has_access, is_blocked, position::int
           FROM rm_student_activity ORDER BY user_id`,
      );
      expect(students.rows).toEqual([
        { id: ANN, customer: null, has_access: true, is_blocked: true, position: 23 },
        { id: BEN, customer: CUSTOMER_B, has_access: true, is_blocked: false, position: 16 },
        { id: CAT, customer: CUSTOMER_B, has_access: false, is_blocked: false, position: 22 },
      ]);
      const time = (c: string) => `to_char(${c} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS')`;
      const periods = await sql.query(
        `SELECT user_id::text AS id, ${time('started_at')} AS started, ${time('ended_at')} AS ended
           FROM rm_student_active_periods ORDER BY user_id, started_at`,
      );
      expect(periods.rows).toEqual([
        { id: ANN, started: at(0), ended: at(4) },
        { id: ANN, started: at(9), ended: at(22) },
        { id: BEN, started: at(3), ended: at(11) },
        { id: BEN, started: at(13), ended: at(14) },
        { id: BEN, started: at(15), ended: null },
        { id: CAT, started: at(7), ended: at(17) },
        { id: CAT, started: at(20), ended: at(21) },
      ]);
    },
  },
);
