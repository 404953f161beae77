import { incidentTypeStream, type IncidentTypeEvent } from '@portal/projections';
import { DomainError } from '../platform/domain/domain-error.js';
import type { Aggregate } from '../platform/event-store/aggregate.js';

export interface IncidentTypeState {
  exists: boolean;
  retired: boolean;
  name: string;
  guidance: string;
}

export type IncidentTypeCommand =
  | { type: 'CreateIncidentType'; typeId: string; name: string; guidance: string }
  | { type: 'UpdateIncidentType'; typeId: string; name?: string; guidance?: string }
  | { type: 'RetireIncidentType'; typeId: string };

export const initialIncidentTypeState: IncidentTypeState = {
  exists: false,
  retired: false,
  name: '',
  guidance: '',
};

export function evolveIncidentType(state: IncidentTypeState, event: IncidentTypeEvent): IncidentTypeState {
  switch (event.type) {
    case 'SafeguardingIncidentTypeCreated':
      return { exists: true, retired: false, name: event.data.name, guidance: event.data.guidance };
    case 'SafeguardingIncidentTypeUpdated':
      return {
        ...state,
        name: event.data.name ?? state.name,
        guidance: event.data.guidance ?? state.guidance,
      };
    case 'SafeguardingIncidentTypeRetired':
      return { ...state, retired: true };
  }
}

export const foldIncidentType = (events: IncidentTypeEvent[]) =>
  events.reduce(evolveIncidentType, initialIncidentTypeState);

/** Types are never deleted: retiring keeps every incident that used one readable. */
export function decideIncidentType(
  command: IncidentTypeCommand,
  state: IncidentTypeState,
): IncidentTypeEvent[] {
  switch (command.type) {
    case 'CreateIncidentType':
      if (state.exists) throw new DomainError('conflict', 'Incident type already exists');
      return [
        {
          type: 'SafeguardingIncidentTypeCreated',
          data: { typeId: command.typeId, name: command.name, guidance: command.guidance },
        },
      ];
    case 'UpdateIncidentType': {
      if (!state.exists) throw new DomainError('not_found', 'Incident type not found');
      if (state.retired) throw new DomainError('conflict', 'Incident type is retired');
      const data: { typeId: string; name?: string; guidance?: string } = { typeId: command.typeId };
      if (command.name !== undefined && command.name !== state.name) data.name = command.name;
      if (command.guidance !== undefined && command.guidance !== state.guidance)
        data.guidance = command.guidance;
      if (data.name === undefined && data.guidance === undefined) return [];
      return [{ type: 'SafeguardingIncidentTypeUpdated', data }];
    }
    case 'RetireIncidentType':
      if (!state.exists) throw new DomainError('not_found', 'Incident type not found');
      if (state.retired) return [];
      return [{ type: 'SafeguardingIncidentTypeRetired', data: { typeId: command.typeId } }];
  }
}

/** The incidentType aggregate: its stream, state and rules, for `Commands.run`. */
export const incidentTypeAggregate: Aggregate<IncidentTypeState, IncidentTypeCommand, IncidentTypeEvent> = {
  stream: incidentTypeStream,
  idOf: (command) => command.typeId,
  initialState: () => initialIncidentTypeState,
  evolve: evolveIncidentType,
  decide: decideIncidentType,
};
