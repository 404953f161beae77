import { groupStream, type GroupEvent, type GroupTeacher } from '@portal/projections';
import { DomainError } from '../platform/domain/domain-error.js';
import type { Aggregate } from '../platform/event-store/aggregate.js';

/** One membership period: from its first day to its last (inclusive), null while open. */
export interface Membership {
  from: string;
  to: string | null;
}

/** A group as its rules need it: its programme, teachers and every student's membership history. */
export interface GroupState {
  exists: boolean;
  programmeId: string;
  customerId: string;
  name: string;
  teachers: GroupTeacher[];
  memberships: Record<string, Membership[]>;
}

export type GroupCommand =
  | {
      type: 'CreateGroup';
      groupId: string;
      programmeId: string;
      customerId: string;
      name: string;
      teachers: GroupTeacher[];
      sourceGroupId: string | null;
    }
  | { type: 'RenameGroup'; groupId: string; name: string }
  | {
      type: 'AddStudent';
      groupId: string;
      studentId: string;
      from: string;
      /** The product's max group size, when the programme has a product that sets one. */
      maxGroupSize: number | null;
    }
  | { type: 'RemoveStudent'; groupId: string; studentId: string; to: string; reason?: string | null }
  | { type: 'SetTeachers'; groupId: string; teachers: GroupTeacher[] };

export const initialGroupState = (): GroupState => ({
  exists: false,
  programmeId: '',
  customerId: '',
  name: '',
  teachers: [],
  memberships: {},
});

export function evolveGroup(state: GroupState, event: GroupEvent): GroupState {
  switch (event.type) {
    case 'GroupCreated':
      return {
        exists: true,
        programmeId: event.data.programmeId,
        customerId: event.data.customerId,
        name: event.data.name,
        teachers: event.data.teachers,
        memberships: {},
      };
    case 'GroupRenamed':
      return { ...state, name: event.data.name };
    case 'GroupTeachersChanged':
      return { ...state, teachers: event.data.teachers };
    case 'StudentAddedToGroup': {
      const history = state.memberships[event.data.studentId] ?? [];
      return {
        ...state,
        memberships: {
          ...state.memberships,
          [event.data.studentId]: [...history, { from: event.data.from, to: null }],
        },
      };
    }
    case 'StudentRemovedFromGroup': {
      const history = state.memberships[event.data.studentId] ?? [];
      return {
        ...state,
        memberships: {
          ...state.memberships,
          [event.data.studentId]: history.map((m) => (m.to === null ? { ...m, to: event.data.to } : m)),
        },
      };
    }
  }
}

/** The open membership of a student, if any. */
const openMembership = (state: GroupState, studentId: string): Membership | undefined =>
  state.memberships[studentId]?.find((m) => m.to === null);

/** Students who are members on `day` or join later (what a size limit counts from that day). */
export function membersFrom(state: GroupState, day: string): string[] {
  return Object.entries(state.memberships)
    .filter(([, history]) => history.some((m) => m.to === null || m.to >= day))
    .map(([studentId]) => studentId);
}

/** At most one lead, no teacher twice: 422 naming `teachers`. */
export function checkTeachers(teachers: readonly GroupTeacher[]): void {
  if (teachers.filter((t) => t.role === 'lead').length > 1)
    throw new DomainError('invalid', 'teachers: a group has at most one lead teacher');
  if (new Set(teachers.map((t) => t.teacherId)).size !== teachers.length)
    throw new DomainError('invalid', 'teachers: a teacher is listed twice');
}

const sameTeachers = (a: readonly GroupTeacher[], b: readonly GroupTeacher[]): boolean => {
  const key = (ts: readonly GroupTeacher[]) =>
    ts
      .map((t) => `${t.teacherId}:${t.role}`)
      .sort()
      .join();
  return key(a) === key(b);
};

/**
 * Membership is time-bound and append-only (docs/decisions/0051): removing a student closes their
 * open period (`to` = last day), adding them again opens a new one after it. Nothing rewrites a past
 * period, so a register taken on an earlier day keeps its roster.
 */
export function decideGroup(command: GroupCommand, state: GroupState): GroupEvent[] {
  if (command.type === 'CreateGroup') {
    if (state.exists) throw new DomainError('conflict', 'Group already exists');
    checkTeachers(command.teachers);
    return [
      {
        type: 'GroupCreated',
        data: {
          groupId: command.groupId,
          programmeId: command.programmeId,
          customerId: command.customerId,
          teacherIds: command.teachers.map((t) => t.teacherId),
          name: command.name,
          teachers: command.teachers,
          sourceGroupId: command.sourceGroupId,
        },
      },
    ];
  }
  if (!state.exists) throw new DomainError('not_found', 'Group not found');
  const base = {
    groupId: command.groupId,
    programmeId: state.programmeId,
    customerId: state.customerId,
    teacherIds: state.teachers.map((t) => t.teacherId),
  };
  switch (command.type) {
    case 'RenameGroup':
      return command.name === state.name
        ? []
        : [{ type: 'GroupRenamed', data: { ...base, name: command.name } }];
    case 'AddStudent': {
      const open = openMembership(state, command.studentId);
      if (open) throw new DomainError('conflict', `The student is already in the group (since ${open.from})`);
      const lastTo = (state.memberships[command.studentId] ?? []).reduce<string | null>(
        (latest, m) => (m.to !== null && (latest === null || m.to > latest) ? m.to : latest),
        null,
      );
      if (lastTo !== null && command.from <= lastTo)
        throw new DomainError(
          'conflict',
          `from: the student was in the group until ${lastTo}; a new membership starts after it`,
        );
      if (command.maxGroupSize !== null && membersFrom(state, command.from).length >= command.maxGroupSize)
        throw new DomainError(
          'conflict',
          `The group is full (the product allows ${command.maxGroupSize} students)`,
        );
      return [
        { type: 'StudentAddedToGroup', data: { ...base, studentId: command.studentId, from: command.from } },
      ];
    }
    case 'RemoveStudent': {
      const open = openMembership(state, command.studentId);
      if (!open) throw new DomainError('not_found', 'The student is not in the group');
      if (command.to < open.from)
        throw new DomainError(
          'invalid',
          `to: ${command.to} is before the membership's first day ${open.from}`,
        );
      return [
        {
          type: 'StudentRemovedFromGroup',
          data: { ...base, studentId: command.studentId, to: command.to, reason: command.reason ?? null },
        },
      ];
    }
    case 'SetTeachers': {
      checkTeachers(command.teachers);
      if (sameTeachers(command.teachers, state.teachers)) return [];
      const teacherIds = [...new Set([...base.teacherIds, ...command.teachers.map((t) => t.teacherId)])];
      return [{ type: 'GroupTeachersChanged', data: { ...base, teacherIds, teachers: command.teachers } }];
    }
  }
}

export const groupAggregate: Aggregate<GroupState, GroupCommand, GroupEvent> = {
  stream: groupStream,
  idOf: (command) => command.groupId,
  initialState: initialGroupState,
  evolve: evolveGroup,
  decide: decideGroup,
};
