import { randomUUID } from 'node:crypto';
import { groupStream, programmeStream, type GroupEvent, type ProgrammeEvent } from '@portal/projections';
import type { TestPortal } from './portal-harness.js';

export interface ProgrammeFixture {
  customerId: string;
  /** Students join their groups on this local date; the programme starts then too. */
  from: string;
  timezone: string;
  title?: string;
  subjectId?: string | null;
  productId?: string | null;
  yearGroupId?: string | null;
  /** Each group's students (from `from`) and, optionally, its lead teacher. */
  groups: { name: string; students: string[]; lead?: string }[];
}

/**
 * An active programme with groups and students, written to the event store as the programmes area
 * writes it (the shared teaching contract), then awaited in the read models. For the specs of the
 * areas built on programmes (lessons, cover, reports), which need groups but not the programmes API.
 */
export async function writeProgramme(
  portal: TestPortal,
  f: ProgrammeFixture,
): Promise<{ programmeId: string; groupIds: string[] }> {
  const store = portal.running.infra.eventStore;
  const programmeId = randomUUID();
  const { customerId } = f;
  const events: ProgrammeEvent[] = [
    {
      type: 'ProgrammeCreated',
      data: {
        programmeId,
        networkId: null,
        customerId,
        productId: f.productId ?? null,
        subjectId: f.subjectId ?? null,
        yearGroupId: f.yearGroupId ?? null,
        kind: 'lesson',
        title: f.title ?? 'Maths recovery',
        startDate: f.from,
        endDate: null,
        timezone: f.timezone,
        sourceProgrammeId: null,
      },
    },
    { type: 'ProgrammeActivated', data: { programmeId, customerId } },
  ];
  let position = (
    await store.append(
      programmeStream(programmeId),
      events.map((e) => ({ id: randomUUID(), ...e })),
      { expectedRevision: 'no_stream' },
    )
  ).position;
  const groupIds: string[] = [];
  for (const g of f.groups) {
    const groupId = randomUUID();
    const base = { groupId, programmeId, customerId, teacherIds: g.lead ? [g.lead] : [] };
    const teachers = g.lead ? [{ teacherId: g.lead, role: 'lead' as const }] : [];
    const groupEvents: GroupEvent[] = [
      { type: 'GroupCreated', data: { ...base, name: g.name, teachers, sourceGroupId: null } },
      ...g.students.map((studentId): GroupEvent => ({
        type: 'StudentAddedToGroup',
        data: { ...base, studentId, from: f.from },
      })),
    ];
    position = (
      await store.append(
        groupStream(groupId),
        groupEvents.map((e) => ({ id: randomUUID(), ...e })),
        { expectedRevision: 'no_stream' },
      )
    ).position;
    groupIds.push(groupId);
  }
  await portal.settle({ status: 200, body: { position: position.toString() } });
  return { programmeId, groupIds };
}
