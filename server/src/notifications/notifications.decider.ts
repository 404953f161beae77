import { notificationsStream, type NotificationEvent } from '@portal/projections';
import { DomainError } from '../platform/domain/domain-error.js';
import type { Aggregate } from '../platform/event-store/aggregate.js';

/** A person's notification read cursor: the highest event position they marked read. */
export interface ReadCursorState {
  upTo: bigint;
}

export type ReadCursorCommand = { type: 'MarkNotificationsRead'; userId: string; upToPosition: string };

export const initialReadCursor: ReadCursorState = { upTo: 0n };

export function evolveReadCursor(state: ReadCursorState, event: NotificationEvent): ReadCursorState {
  const upTo = BigInt(event.data.upToPosition);
  return { upTo: upTo > state.upTo ? upTo : state.upTo };
}

/** Marking read only moves forward; marking up to where it already is writes nothing. */
export function decideReadCursor(command: ReadCursorCommand, state: ReadCursorState): NotificationEvent[] {
  if (!/^\d{1,19}$/.test(command.upToPosition))
    throw new DomainError('invalid', 'up_to_position must be an event position (digits)');
  const upTo = BigInt(command.upToPosition);
  if (upTo <= state.upTo) return [];
  return [{ type: 'NotificationsRead', data: { userId: command.userId, upToPosition: upTo.toString() } }];
}

export const readCursorAggregate: Aggregate<ReadCursorState, ReadCursorCommand, NotificationEvent> = {
  stream: notificationsStream,
  idOf: (command) => command.userId,
  initialState: () => initialReadCursor,
  evolve: evolveReadCursor,
  decide: decideReadCursor,
};
