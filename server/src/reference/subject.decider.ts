import { subjectStream, type SubjectEvent } from '@portal/projections';
import { DomainError } from '../platform/domain/domain-error.js';
import type { Aggregate } from '../platform/event-store/aggregate.js';

/** A subject (English, Maths, ...): a name programmes are filed under. */
export interface SubjectState {
  exists: boolean;
  name: string;
}

export type SubjectCommand =
  | { type: 'CreateSubject'; subjectId: string; name: string }
  | { type: 'RenameSubject'; subjectId: string; name: string };

export const initialSubjectState: SubjectState = { exists: false, name: '' };

export function evolveSubject(state: SubjectState, event: SubjectEvent): SubjectState {
  switch (event.type) {
    case 'SubjectCreated':
    case 'SubjectRenamed':
      return { exists: true, name: event.data.name };
  }
}

export const foldSubject = (events: SubjectEvent[]) => events.reduce(evolveSubject, initialSubjectState);

/** A name is required; renaming to the same name writes nothing. (Unique names: checked on the read model.) */
export function decideSubject(command: SubjectCommand, state: SubjectState): SubjectEvent[] {
  const name = command.name.trim();
  if (!name) throw new DomainError('invalid', 'name: a subject needs a name');
  switch (command.type) {
    case 'CreateSubject':
      if (state.exists) throw new DomainError('conflict', 'Subject already exists');
      return [{ type: 'SubjectCreated', data: { subjectId: command.subjectId, name } }];
    case 'RenameSubject':
      if (!state.exists) throw new DomainError('not_found', 'Subject not found');
      if (name === state.name) return [];
      return [{ type: 'SubjectRenamed', data: { subjectId: command.subjectId, name } }];
  }
}

export const subjectAggregate: Aggregate<SubjectState, SubjectCommand, SubjectEvent> = {
  stream: subjectStream,
  idOf: (command) => command.subjectId,
  initialState: () => initialSubjectState,
  evolve: evolveSubject,
  decide: decideSubject,
};
