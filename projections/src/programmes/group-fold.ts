import { absentIds, insertRows, NEW_ROWS, type ProjectionEvent, type ProjectionTx } from '../projection.js';
import type { GroupEvent } from './programmes.projection.js';

/**
 * The groups a batch creates, folded in memory (decision 0088, like attendance's registers and the
 * users of decision 0086): a group whose row did not exist when the batch began is created and changed
 * in memory by every event of the batch about it, each with the rule and version guard of the groups
 * projection's SQL, and its rows (the group, its memberships, its teachers) are written once when the
 * batch ends. Nothing else writes those rows: every groups rule touches its own group's rows only, so
 * the events about groups that already existed go to SQL in turn, untouched.
 *
 * Checked by `group-fold.int.spec.ts` (any batch boundaries give the rows that event-by-event apply
 * gives) and the projection contract.
 */

type Event = ProjectionEvent & GroupEvent;

interface FoldedGroup {
  id: string;
  programme_id: string;
  name: string;
  created_at: string;
  updated_at: string;
  version: bigint;
  /** Memberships by student and first day, in the order they were added. */
  students: Map<string, { student_id: string; from_date: string; to_date: string | null }>;
  /** Role by teacher. */
  teachers: Map<string, string>;
}

const GROUP_COLUMNS = {
  id: 'uuid',
  programme_id: 'uuid',
  name: 'text',
  archived: 'boolean',
  created_at: 'timestamptz',
  updated_at: 'timestamptz',
  version: 'bigint',
} as const;
const STUDENT_COLUMNS = { group_id: 'uuid', student_id: 'uuid', from_date: 'date', to_date: 'date' } as const;
const TEACHER_COLUMNS = { group_id: 'uuid', teacher_id: 'uuid', role: 'text' } as const;

export class GroupFold {
  /** The groups created in memory so far, by id (lower case). */
  private readonly groups = new Map<string, FoldedGroup>();

  /** `absent`: the ids (lower case) of the batch's new groups that have no row yet. */
  private constructor(private readonly absent: ReadonlySet<string>) {}

  /** Reads which of the groups the batch creates have no row yet (one round trip, none without a creation). */
  static async start(events: readonly Event[], tx: ProjectionTx): Promise<GroupFold> {
    const created = events.flatMap((e) => (e.type === 'GroupCreated' ? [e.data.groupId] : []));
    return new GroupFold(await absentIds(tx, 'rm_groups', created));
  }

  /** Applies `e` in memory when it is about a group this fold holds; false leaves it to SQL. */
  takes(e: Event): boolean {
    const id = e.data.groupId.toLowerCase();
    if (!this.absent.has(id)) return false;
    const group = this.groups.get(id);
    const at = e.metadata.occurredAt;
    if (e.type === 'GroupCreated') {
      // A second creation keeps the row (INSERT ... ON CONFLICT DO NOTHING).
      if (!group)
        this.groups.set(id, {
          id,
          programme_id: e.data.programmeId,
          name: e.data.name,
          created_at: at,
          updated_at: at,
          version: e.revision,
          students: new Map(),
          teachers: teachersOf(e.data.teachers),
        });
      return true;
    }
    // Before its creation, or older than the row: SQL's guard would change nothing either.
    if (!group || group.version >= e.revision) return true;
    switch (e.type) {
      case 'StudentAddedToGroup': {
        const student = e.data.studentId.toLowerCase();
        const key = `${student} ${e.data.from}`;
        if (!group.students.has(key))
          group.students.set(key, { student_id: student, from_date: e.data.from, to_date: null });
        break;
      }
      case 'StudentRemovedFromGroup': {
        const student = e.data.studentId.toLowerCase();
        for (const m of group.students.values())
          if (m.student_id === student && m.to_date === null) m.to_date = e.data.to;
        break;
      }
      case 'GroupTeachersChanged':
        group.teachers = teachersOf(e.data.teachers);
        break;
      case 'GroupRenamed':
        group.name = e.data.name;
        break;
    }
    group.updated_at = at;
    group.version = e.revision;
    return true;
  }

  /**
   * Writes the folded groups' rows: one statement per table. They are new: nothing but the fold writes
   * a folded group's rows, and each key is held once (memberships by student and first day, teachers
   * by id).
   */
  async write(tx: ProjectionTx): Promise<void> {
    const groups = [...this.groups.values()];
    await insertRows(
      tx,
      'rm_groups',
      GROUP_COLUMNS,
      groups.map((g) => ({
        id: g.id,
        programme_id: g.programme_id,
        name: g.name,
        archived: false,
        created_at: g.created_at,
        updated_at: g.updated_at,
        version: g.version.toString(),
      })),
      NEW_ROWS,
    );
    await insertRows(
      tx,
      'rm_group_students',
      STUDENT_COLUMNS,
      groups.flatMap((g) => [...g.students.values()].map((m) => ({ group_id: g.id, ...m }))),
      NEW_ROWS,
    );
    await insertRows(
      tx,
      'rm_group_teachers',
      TEACHER_COLUMNS,
      groups.flatMap((g) =>
        [...g.teachers].map(([teacher_id, role]) => ({ group_id: g.id, teacher_id, role })),
      ),
      NEW_ROWS,
    );
  }
}

/** The teachers by id (the decider refuses a teacher listed twice). */
function teachersOf(teachers: readonly { teacherId: string; role: string }[]): Map<string, string> {
  return new Map(teachers.map((t) => [t.teacherId.toLowerCase(), t.role]));
}
