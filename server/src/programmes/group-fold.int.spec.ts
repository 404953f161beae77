import { expect } from '@jest/globals';
import { groupsProjection, type ProjectionEvent } from '@portal/projections';
import { describeFoldInBatches, record } from '../platform/testing/projection-contract.js';

/**
 * Decision 0088: a batch of groups events folds the groups it creates in memory and writes their rows
 * once; events about groups that existed before the batch go to SQL. Whatever the batch boundaries,
 * the rows must be those of event-by-event apply. The history walks every groups rule: memberships
 * added, closed and opened again, teachers replaced, a rename, a second creation, an event before its
 * group's creation, ids in capitals, and a group created before the batch.
 */
const id = (n: number) => `abcdef00-0000-4000-8000-${String(n).padStart(12, '0')}`;
const [OLD, MATHS, ART] = [id(1), id(2), id(3)];
const [TINA, TOM, TED] = [id(11), id(12), id(13)];
const [ANN, BEN, CAT] = [id(21), id(22), id(23)];
const PROGRAMME = id(90);
const group = (groupId: string) => `group-${groupId}`;
const base = (groupId: string) => ({ groupId, programmeId: PROGRAMME, customerId: id(91), teacherIds: [] });
const created = (groupId: string, name: string, teachers: { teacherId: string; role: string }[]) => ({
  ...base(groupId),
  name,
  teachers,
  sourceGroupId: null,
});
const added = (groupId: string, studentId: string, from: string) => ({ ...base(groupId), studentId, from });
const removed = (groupId: string, studentId: string, to: string) => ({ ...base(groupId), studentId, to });

const history: ProjectionEvent[] = record([
  [group(OLD), 'GroupCreated', created(OLD, 'Old group', [{ teacherId: TINA, role: 'lead' }])],
  [group(OLD), 'StudentAddedToGroup', added(OLD, ANN, '2026-01-05')],
  // Before its creation: its row is not there, so it changes nothing.
  [group(ART), 'StudentAddedToGroup', added(ART, CAT, '2026-01-01')],
  [
    group(MATHS),
    'GroupCreated',
    created(MATHS.toUpperCase(), 'Maths', [
      { teacherId: TOM.toUpperCase(), role: 'lead' },
      { teacherId: TED, role: 'assistant' },
    ]),
  ],
  [group(MATHS), 'StudentAddedToGroup', added(MATHS, ANN.toUpperCase(), '2026-01-05')],
  [group(MATHS), 'StudentAddedToGroup', added(MATHS, BEN, '2026-01-06')],
  [group(OLD), 'StudentAddedToGroup', added(OLD, BEN, '2026-01-07')],
  [group(MATHS), 'StudentRemovedFromGroup', removed(MATHS, ANN, '2026-02-01')],
  [group(MATHS), 'StudentAddedToGroup', added(MATHS, ANN, '2026-03-01')],
  [group(MATHS), 'StudentAddedToGroup', added(MATHS, ANN, '2026-03-01')], // the same membership again
  [group(ART), 'GroupCreated', created(ART, 'Art', [])],
  [group(MATHS), 'GroupRenamed', { ...base(MATHS), name: 'Maths A' }],
  [group(OLD), 'StudentRemovedFromGroup', removed(OLD, ANN, '2026-01-31')],
  [group(MATHS), 'GroupTeachersChanged', { ...base(MATHS), teachers: [{ teacherId: TED, role: 'lead' }] }],
  [group(ART), 'StudentAddedToGroup', added(ART, CAT, '2026-01-10')],
  [group(ART), 'GroupCreated', created(ART, 'Art again', [{ teacherId: TOM, role: 'lead' }])], // keeps the row
  [group(ART), 'GroupTeachersChanged', { ...base(ART), teachers: [{ teacherId: TINA, role: 'assistant' }] }],
  [group(OLD), 'GroupTeachersChanged', { ...base(OLD), teachers: [] }],
  [group(OLD), 'GroupRenamed', { ...base(OLD), name: 'Old group, renamed' }],
  [group(ART), 'StudentRemovedFromGroup', removed(ART, CAT, '2026-04-01')],
  [group(MATHS), 'StudentRemovedFromGroup', removed(MATHS, BEN.toUpperCase(), '2026-04-02')],
  [group(ART), 'GroupRenamed', { ...base(ART), name: 'Art and design' }],
  [group(MATHS), 'StudentAddedToGroup', added(MATHS, CAT, '2026-05-01')],
  [group(MATHS), 'StudentRemovedFromGroup', removed(MATHS, ANN, '2026-06-30')], // the closed row stays
]);

describeFoldInBatches('groups projection', 'portal_group_fold', groupsProjection, history, {
  title: 'event by event, the history sets every groups rule',
  async check(sql) {
    const groups = await sql.query<{ id: string; name: string }>(
      `SELECT id::text, name FROM rm_groups ORDER BY id`,
    );
    expect(groups.rows).toEqual([
      { id: OLD, name: 'Old group, renamed' },
      { id: MATHS, name: 'Maths A' },
      { id: ART, name: 'Art and design' },
    ]);
    const students = await sql.query<{ g: string; s: string; from: string; to: string | null }>(
      `SELECT group_id::text AS g, student_id::text AS s, from_date::text AS from, to_date::text AS to
       FROM rm_group_students ORDER BY group_id, student_id, from_date`,
    );
    expect(students.rows).toEqual([
      { g: OLD, s: ANN, from: '2026-01-05', to: '2026-01-31' },
      { g: OLD, s: BEN, from: '2026-01-07', to: null },
      { g: MATHS, s: ANN, from: '2026-01-05', to: '2026-02-01' },
      { g: MATHS, s: ANN, from: '2026-03-01', to: '2026-06-30' },
      { g: MATHS, s: BEN, from: '2026-01-06', to: '2026-04-02' },
      { g: MATHS, s: CAT, from: '2026-05-01', to: null },
      { g: ART, s: CAT, from: '2026-01-10', to: '2026-04-01' },
    ]);
    const teachers = await sql.query<{ g: string; t: string; role: string }>(
      `SELECT group_id::text AS g, teacher_id::text AS t, role FROM rm_group_teachers ORDER BY group_id, teacher_id`,
    );
    expect(teachers.rows).toEqual([
      { g: MATHS, t: TED, role: 'lead' },
      { g: ART, t: TINA, role: 'assistant' },
    ]);
  },
});
