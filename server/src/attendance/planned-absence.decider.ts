import {
  plannedAbsenceStream,
  type AbsenceReason,
  type ActingPerson,
  type PlannedAbsenceEvent,
} from '@portal/projections';
import { DomainError } from '../platform/domain/domain-error.js';
import type { Aggregate } from '../platform/event-store/aggregate.js';

/** A planned absence (decision 0056): a pupil will miss the lessons between two local dates. */
export interface PlannedAbsenceState {
  exists: boolean;
  withdrawn: boolean;
  studentId: string;
  customerId: string;
}

export type PlannedAbsenceCommand =
  | {
      type: 'RecordPlannedAbsence';
      plannedAbsenceId: string;
      studentId: string;
      customerId: string;
      from: string;
      to: string;
      /** The student's today (their customer's zone): the absence may not end before it. */
      today: string;
      absenceReason: AbsenceReason;
      note: string | null;
      by: ActingPerson;
    }
  | { type: 'WithdrawPlannedAbsence'; plannedAbsenceId: string };

export const initialPlannedAbsenceState = (): PlannedAbsenceState => ({
  exists: false,
  withdrawn: false,
  studentId: '',
  customerId: '',
});

export function evolvePlannedAbsence(
  state: PlannedAbsenceState,
  event: PlannedAbsenceEvent,
): PlannedAbsenceState {
  switch (event.type) {
    case 'PlannedAbsenceRecorded':
      return {
        exists: true,
        withdrawn: false,
        studentId: event.data.studentId,
        customerId: event.data.customerId,
      };
    case 'PlannedAbsenceWithdrawn':
      return { ...state, withdrawn: true };
  }
}

export function decidePlannedAbsence(
  command: PlannedAbsenceCommand,
  state: PlannedAbsenceState,
): PlannedAbsenceEvent[] {
  switch (command.type) {
    case 'RecordPlannedAbsence': {
      if (state.exists) return [];
      if (command.to < command.from) throw new DomainError('invalid', 'to: must not be before from');
      if (command.to < command.today)
        throw new DomainError('invalid', 'to: a planned absence cannot end in the past');
      const { type: _type, today: _today, by, ...data } = command;
      return [{ type: 'PlannedAbsenceRecorded', data: { ...data, recordedBy: by } }];
    }
    case 'WithdrawPlannedAbsence':
      if (!state.exists) throw new DomainError('not_found', 'Planned absence not found');
      if (state.withdrawn) return [];
      return [
        {
          type: 'PlannedAbsenceWithdrawn',
          data: {
            plannedAbsenceId: command.plannedAbsenceId,
            studentId: state.studentId,
            customerId: state.customerId,
          },
        },
      ];
  }
}

export const plannedAbsenceAggregate: Aggregate<
  PlannedAbsenceState,
  PlannedAbsenceCommand,
  PlannedAbsenceEvent
> = {
  stream: plannedAbsenceStream,
  idOf: (command) => command.plannedAbsenceId,
  initialState: initialPlannedAbsenceState,
  evolve: evolvePlannedAbsence,
  decide: decidePlannedAbsence,
};
