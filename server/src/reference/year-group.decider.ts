import { KEY_STAGES, yearGroupStream, type KeyStage, type YearGroupEvent } from '@portal/projections';
import { DomainError } from '../platform/domain/domain-error.js';
import type { Aggregate } from '../platform/event-store/aggregate.js';

/** A year group (Reception, Year 1 .. Year 13) and the key stage it belongs to. */
export interface YearGroupState {
  exists: boolean;
  name: string;
  keyStage: KeyStage | null;
}

export type YearGroupCommand =
  | { type: 'CreateYearGroup'; yearGroupId: string; name: string; keyStage: string }
  | { type: 'UpdateYearGroup'; yearGroupId: string; name?: string; keyStage?: string };

export const initialYearGroupState: YearGroupState = { exists: false, name: '', keyStage: null };

export function evolveYearGroup(state: YearGroupState, event: YearGroupEvent): YearGroupState {
  switch (event.type) {
    case 'YearGroupCreated':
      return { exists: true, name: event.data.name, keyStage: event.data.keyStage };
    case 'YearGroupRenamed':
      return { ...state, name: event.data.name };
    case 'YearGroupKeyStageChanged':
      return { ...state, keyStage: event.data.keyStage };
  }
}

export const foldYearGroup = (events: YearGroupEvent[]) =>
  events.reduce(evolveYearGroup, initialYearGroupState);

const nameOf = (name: string): string => {
  const trimmed = name.trim();
  if (!trimmed) throw new DomainError('invalid', 'name: a year group needs a name');
  return trimmed;
};

const keyStageOf = (keyStage: string): KeyStage => {
  if (!(KEY_STAGES as readonly string[]).includes(keyStage))
    throw new DomainError('invalid', `key_stage: must be one of ${KEY_STAGES.join(', ')}`);
  return keyStage as KeyStage;
};

/** Names are required and key stages one of KEY_STAGES; an update that changes nothing writes nothing. */
export function decideYearGroup(command: YearGroupCommand, state: YearGroupState): YearGroupEvent[] {
  const yearGroupId = command.yearGroupId;
  switch (command.type) {
    case 'CreateYearGroup': {
      const data = { yearGroupId, name: nameOf(command.name), keyStage: keyStageOf(command.keyStage) };
      if (state.exists) throw new DomainError('conflict', 'Year group already exists');
      return [{ type: 'YearGroupCreated', data }];
    }
    case 'UpdateYearGroup': {
      const name = command.name === undefined ? undefined : nameOf(command.name);
      const keyStage = command.keyStage === undefined ? undefined : keyStageOf(command.keyStage);
      if (!state.exists) throw new DomainError('not_found', 'Year group not found');
      const events: YearGroupEvent[] = [];
      if (name !== undefined && name !== state.name)
        events.push({ type: 'YearGroupRenamed', data: { yearGroupId, name } });
      if (keyStage !== undefined && keyStage !== state.keyStage)
        events.push({ type: 'YearGroupKeyStageChanged', data: { yearGroupId, keyStage } });
      return events;
    }
  }
}

export const yearGroupAggregate: Aggregate<YearGroupState, YearGroupCommand, YearGroupEvent> = {
  stream: yearGroupStream,
  idOf: (command) => command.yearGroupId,
  initialState: () => initialYearGroupState,
  evolve: evolveYearGroup,
  decide: decideYearGroup,
};
