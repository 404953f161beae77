import {
  programmeStream,
  type ProgrammeDetails,
  type ProgrammeEvent,
  type ProgrammeStatus,
} from '@portal/projections';
import { DomainError } from '../platform/domain/domain-error.js';
import type { Aggregate } from '../platform/event-store/aggregate.js';

/** A programme as its rules need it, folded from `programme-{id}`. */
export interface ProgrammeState {
  exists: boolean;
  customerId: string;
  status: ProgrammeStatus;
  details: ProgrammeDetails | null;
}

export type ProgrammeTransition = 'activate' | 'pause' | 'resume' | 'complete' | 'cancel';

export type ProgrammeCommand =
  | {
      type: 'CreateProgramme';
      programmeId: string;
      networkId: string | null;
      customerId: string;
      sourceProgrammeId: string | null;
      details: ProgrammeDetails;
    }
  | {
      type: 'ChangeProgrammeDetails';
      programmeId: string;
      changes: Partial<ProgrammeDetails>;
      teacherIds?: string[];
    }
  | {
      type: 'ChangeProgrammeStatus';
      programmeId: string;
      transition: ProgrammeTransition;
      reason?: string | null;
      teacherIds?: string[];
    };

export const initialProgrammeState = (): ProgrammeState => ({
  exists: false,
  customerId: '',
  status: 'draft',
  details: null,
});

const STATUS_EVENT = {
  ProgrammeActivated: 'active',
  ProgrammePaused: 'paused',
  ProgrammeResumed: 'active',
  ProgrammeCompleted: 'completed',
  ProgrammeCancelled: 'cancelled',
} as const;

export function evolveProgramme(state: ProgrammeState, event: ProgrammeEvent): ProgrammeState {
  switch (event.type) {
    case 'ProgrammeCreated': {
      const { programmeId: _id, networkId: _n, customerId, sourceProgrammeId: _s, ...details } = event.data;
      return { exists: true, customerId, status: 'draft', details };
    }
    case 'ProgrammeDetailsChanged': {
      const { programmeId: _id, customerId: _c, teacherIds: _t, ...changes } = event.data;
      return { ...state, details: { ...state.details!, ...changes } };
    }
    default:
      return { ...state, status: STATUS_EVENT[event.type] };
  }
}

/**
 * The state machine (issue 15): draft → active; active → paused, completed or cancelled; paused →
 * active (resume) or cancelled. Completed and cancelled are final.
 */
const TRANSITIONS: Record<
  ProgrammeTransition,
  {
    from: readonly ProgrammeStatus[];
    event: Exclude<ProgrammeEvent['type'], 'ProgrammeCreated' | 'ProgrammeDetailsChanged'>;
  }
> = {
  activate: { from: ['draft'], event: 'ProgrammeActivated' },
  pause: { from: ['active'], event: 'ProgrammePaused' },
  resume: { from: ['paused'], event: 'ProgrammeResumed' },
  complete: { from: ['active'], event: 'ProgrammeCompleted' },
  cancel: { from: ['active', 'paused'], event: 'ProgrammeCancelled' },
};

/** The transitions a programme in `status` allows (for screens: which buttons to show). */
export const transitionsFrom = (status: ProgrammeStatus): ProgrammeTransition[] =>
  (Object.keys(TRANSITIONS) as ProgrammeTransition[]).filter((t) => TRANSITIONS[t].from.includes(status));

/** end_date (when set) is not before start_date: 422 naming end_date. */
export function checkTimeframe(details: Pick<ProgrammeDetails, 'startDate' | 'endDate'>): void {
  if (details.endDate !== null && details.endDate < details.startDate)
    throw new DomainError(
      'invalid',
      `end_date: ${details.endDate} is before start_date ${details.startDate}`,
    );
}

const DETAIL_KEYS: readonly (keyof ProgrammeDetails)[] = [
  'title',
  'productId',
  'subjectId',
  'yearGroupId',
  'kind',
  'startDate',
  'endDate',
  'timezone',
];

export function decideProgramme(command: ProgrammeCommand, state: ProgrammeState): ProgrammeEvent[] {
  switch (command.type) {
    case 'CreateProgramme':
      if (state.exists) throw new DomainError('conflict', 'Programme already exists');
      checkTimeframe(command.details);
      return [
        {
          type: 'ProgrammeCreated',
          data: {
            programmeId: command.programmeId,
            networkId: command.networkId,
            customerId: command.customerId,
            sourceProgrammeId: command.sourceProgrammeId,
            ...command.details,
          },
        },
      ];
    case 'ChangeProgrammeDetails': {
      if (!state.exists) throw new DomainError('not_found', 'Programme not found');
      if (state.status === 'completed' || state.status === 'cancelled')
        throw new DomainError(
          'conflict',
          `The programme is ${state.status}: its details can no longer change`,
        );
      const changed: Partial<ProgrammeDetails> = {};
      for (const key of DETAIL_KEYS) {
        const value = command.changes[key];
        if (value !== undefined && value !== state.details![key])
          (changed as Record<string, unknown>)[key] = value;
      }
      checkTimeframe({ ...state.details!, ...changed });
      if (Object.keys(changed).length === 0) return [];
      return [
        {
          type: 'ProgrammeDetailsChanged',
          data: {
            programmeId: command.programmeId,
            customerId: state.customerId,
            ...changed,
            ...(command.teacherIds ? { teacherIds: command.teacherIds } : {}),
          },
        },
      ];
    }
    case 'ChangeProgrammeStatus': {
      if (!state.exists) throw new DomainError('not_found', 'Programme not found');
      const transition = TRANSITIONS[command.transition];
      if (!transition.from.includes(state.status))
        throw new DomainError(
          'conflict',
          `Cannot ${command.transition} a programme that is ${state.status}`,
          `programme_${state.status}`,
        );
      return [
        {
          type: transition.event,
          data: {
            programmeId: command.programmeId,
            customerId: state.customerId,
            reason: command.reason ?? null,
            ...(command.teacherIds ? { teacherIds: command.teacherIds } : {}),
          },
        },
      ];
    }
  }
}

export const programmeAggregate: Aggregate<ProgrammeState, ProgrammeCommand, ProgrammeEvent> = {
  stream: programmeStream,
  idOf: (command) => command.programmeId,
  initialState: initialProgrammeState,
  evolve: evolveProgramme,
  decide: decideProgramme,
};
