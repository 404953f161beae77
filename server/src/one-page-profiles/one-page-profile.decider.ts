import { onePageProfileStream, type OnePageProfileEvent, OnePageProfileFields } from '@portal/projections';
import { DomainError } from '../platform/domain/domain-error.js';
import type { Aggregate } from '../platform/event-store/aggregate.js';

export interface OnePageProfileState {
  profileId: string | null;
  fields: OnePageProfileFields | null;
}

export type OnePageProfileCommand =
  | { type: 'CreateOnePageProfile'; profileId: string; userId: string; fields: OnePageProfileFields }
  | { type: 'UpdateOnePageProfile'; userId: string; changes: Partial<OnePageProfileFields> };

export const initialOnePageProfileState: OnePageProfileState = { profileId: null, fields: null };

export function evolveOnePageProfile(
  state: OnePageProfileState,
  event: OnePageProfileEvent,
): OnePageProfileState {
  switch (event.type) {
    case 'OnePageProfileCreated': {
      const { profileId, userId: _userId, ...fields } = event.data;
      return { profileId, fields };
    }
    case 'OnePageProfileUpdated':
      return state.fields ? { ...state, fields: { ...state.fields, ...event.data.changes } } : state;
  }
}

export const foldOnePageProfile = (events: OnePageProfileEvent[]) =>
  events.reduce(evolveOnePageProfile, initialOnePageProfileState);

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** One profile per student; an update records only the fields that change (none: nothing written). */
export function decideOnePageProfile(
  command: OnePageProfileCommand,
  state: OnePageProfileState,
): OnePageProfileEvent[] {
  switch (command.type) {
    case 'CreateOnePageProfile':
      if (state.profileId) throw new DomainError('conflict', 'This student already has a one-page profile');
      return [
        {
          type: 'OnePageProfileCreated',
          data: { profileId: command.profileId, userId: command.userId, ...command.fields },
        },
      ];
    case 'UpdateOnePageProfile': {
      if (!state.profileId || !state.fields) throw new DomainError('not_found', 'One-page profile not found');
      const current = state.fields;
      const changes = Object.fromEntries(
        Object.entries(command.changes).filter(
          ([key, value]) => value !== undefined && !same(value, current[key as keyof OnePageProfileFields]),
        ),
      ) as Partial<OnePageProfileFields>;
      if (Object.keys(changes).length === 0) return [];
      return [
        {
          type: 'OnePageProfileUpdated',
          data: { profileId: state.profileId, userId: command.userId, changes },
        },
      ];
    }
  }
}

/** The onePageProfile aggregate: its stream, state and rules, for `Commands.run`. */
export const onePageProfileAggregate: Aggregate<
  OnePageProfileState,
  OnePageProfileCommand,
  OnePageProfileEvent
> = {
  stream: onePageProfileStream,
  idOf: (command) => command.userId,
  initialState: () => initialOnePageProfileState,
  evolve: evolveOnePageProfile,
  decide: decideOnePageProfile,
};
