import {
  enrolmentStream,
  type EnrolmentDetails,
  type EnrolmentEvent,
  type EnrolmentStatus,
} from '@portal/projections';
import { DomainError } from '../platform/domain/domain-error.js';
import type { Aggregate } from '../platform/event-store/aggregate.js';

export interface EnrolmentState {
  exists: boolean;
  studentId: string;
  programmeId: string;
  customerId: string;
  status: EnrolmentStatus;
  details: EnrolmentDetails | null;
}

export type OpenEnrolmentStatus = 'requested' | 'active' | 'paused';

export type EnrolmentCommand =
  | {
      type: 'Enrol';
      enrolmentId: string;
      studentId: string;
      programmeId: string;
      customerId: string;
      status: 'requested' | 'active';
      details: EnrolmentDetails;
      /** Another open enrolment of the student in the programme (from the read model), or null. */
      otherOpenEnrolmentId: string | null;
      teacherIds?: string[];
    }
  | {
      type: 'ChangeEnrolment';
      enrolmentId: string;
      changes: Partial<EnrolmentDetails>;
      status?: OpenEnrolmentStatus;
      teacherIds?: string[];
    }
  | { type: 'Withdraw'; enrolmentId: string; reason: string; on: string; teacherIds?: string[] }
  | { type: 'End'; enrolmentId: string; on: string; teacherIds?: string[] };

export const initialEnrolmentState = (): EnrolmentState => ({
  exists: false,
  studentId: '',
  programmeId: '',
  customerId: '',
  status: 'requested',
  details: null,
});

export function evolveEnrolment(state: EnrolmentState, event: EnrolmentEvent): EnrolmentState {
  switch (event.type) {
    case 'StudentEnrolled': {
      const d = event.data;
      return {
        exists: true,
        studentId: d.studentId,
        programmeId: d.programmeId,
        customerId: d.customerId,
        status: d.status,
        details: {
          startDate: d.startDate,
          endDate: d.endDate,
          placementType: d.placementType,
          setting: d.setting,
          reasonForPlacement: d.reasonForPlacement,
        },
      };
    }
    case 'EnrolmentDetailsChanged': {
      const {
        enrolmentId: _e,
        studentId: _s,
        programmeId: _p,
        customerId: _c,
        teacherIds: _t,
        status,
        ...changes
      } = event.data;
      return { ...state, status: status ?? state.status, details: { ...state.details!, ...changes } };
    }
    case 'StudentWithdrawnFromEnrolment':
      return { ...state, status: 'withdrawn', details: { ...state.details!, endDate: event.data.on } };
    case 'EnrolmentEnded':
      return { ...state, status: 'ended', details: { ...state.details!, endDate: event.data.on } };
  }
}

const isFinished = (status: EnrolmentStatus) => status === 'withdrawn' || status === 'ended';

function checkDates(details: Pick<EnrolmentDetails, 'startDate' | 'endDate'>): void {
  if (details.endDate !== null && details.endDate < details.startDate)
    throw new DomainError(
      'invalid',
      `end_date: ${details.endDate} is before start_date ${details.startDate}`,
    );
}

const DETAIL_KEYS: readonly (keyof EnrolmentDetails)[] = [
  'startDate',
  'endDate',
  'placementType',
  'setting',
  'reasonForPlacement',
];

/**
 * An enrolment (placement) of a student in a programme: requested or active when made, paused and
 * resumed by a details change, and finished by a withdrawal (with a reason) or an end. One open
 * enrolment per student and programme; a finished one never changes again.
 */
export function decideEnrolment(command: EnrolmentCommand, state: EnrolmentState): EnrolmentEvent[] {
  if (command.type === 'Enrol') {
    if (state.exists) throw new DomainError('conflict', 'Enrolment already exists');
    if (command.otherOpenEnrolmentId)
      throw new DomainError(
        'conflict',
        `The student already has an open enrolment in this programme (${command.otherOpenEnrolmentId})`,
      );
    checkDates(command.details);
    return [
      {
        type: 'StudentEnrolled',
        data: {
          enrolmentId: command.enrolmentId,
          studentId: command.studentId,
          programmeId: command.programmeId,
          customerId: command.customerId,
          status: command.status,
          ...command.details,
          ...(command.teacherIds ? { teacherIds: command.teacherIds } : {}),
        },
      },
    ];
  }
  if (!state.exists) throw new DomainError('not_found', 'Enrolment not found');
  if (isFinished(state.status))
    throw new DomainError('conflict', `The enrolment is ${state.status}: it can no longer change`);
  const base = {
    enrolmentId: command.enrolmentId,
    studentId: state.studentId,
    programmeId: state.programmeId,
    customerId: state.customerId,
    ...(command.teacherIds ? { teacherIds: command.teacherIds } : {}),
  };
  switch (command.type) {
    case 'ChangeEnrolment': {
      const changed: Partial<EnrolmentDetails> = {};
      for (const key of DETAIL_KEYS) {
        const value = command.changes[key];
        if (value !== undefined && value !== state.details![key])
          (changed as Record<string, unknown>)[key] = value;
      }
      checkDates({ ...state.details!, ...changed });
      const status =
        command.status !== undefined && command.status !== state.status ? command.status : undefined;
      if (Object.keys(changed).length === 0 && status === undefined) return [];
      return [
        { type: 'EnrolmentDetailsChanged', data: { ...base, ...changed, ...(status ? { status } : {}) } },
      ];
    }
    case 'Withdraw':
      // A withdrawal may come before the start (the placement never began): `on` is then the last day.
      return [
        { type: 'StudentWithdrawnFromEnrolment', data: { ...base, reason: command.reason, on: command.on } },
      ];
    case 'End':
      if (command.on < state.details!.startDate)
        throw new DomainError(
          'invalid',
          `on: ${command.on} is before the enrolment's start ${state.details!.startDate}`,
        );
      return [{ type: 'EnrolmentEnded', data: { ...base, on: command.on } }];
  }
}

export const enrolmentAggregate: Aggregate<EnrolmentState, EnrolmentCommand, EnrolmentEvent> = {
  stream: enrolmentStream,
  idOf: (command) => command.enrolmentId,
  initialState: initialEnrolmentState,
  evolve: evolveEnrolment,
  decide: decideEnrolment,
};
