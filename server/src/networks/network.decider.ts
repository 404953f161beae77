import { networkStream, type NetworkEvent } from '@portal/projections';
import { DomainError, type ErrorKind } from '../platform/domain/domain-error.js';
import type { Aggregate } from '../platform/event-store/aggregate.js';

/** A network as the decider needs it, folded from its stream. */
export interface NetworkState {
  exists: boolean;
  name: string;
  timezone: string;
  primaryColour: string;
}

export type NetworkCommand =
  | { type: 'CreateNetwork'; networkId: string; name: string; timezone: string; primaryColour: string }
  | { type: 'UpdateNetwork'; networkId: string; name?: string; timezone?: string; primaryColour?: string };

export const initialNetworkState: NetworkState = { exists: false, name: '', timezone: '', primaryColour: '' };

export function evolveNetwork(state: NetworkState, event: NetworkEvent): NetworkState {
  switch (event.type) {
    case 'NetworkCreated':
      return {
        exists: true,
        name: event.data.name,
        timezone: event.data.timezone,
        primaryColour: event.data.primaryColour,
      };
    case 'NetworkRenamed':
      return { ...state, name: event.data.name };
    case 'NetworkTimezoneChanged':
      return { ...state, timezone: event.data.timezone };
    case 'NetworkPrimaryColourChanged':
      return { ...state, primaryColour: event.data.primaryColour };
  }
}

export const foldNetwork = (events: NetworkEvent[]) => events.reduce(evolveNetwork, initialNetworkState);

const fail = (kind: ErrorKind, detail: string): never => {
  throw new DomainError(kind, detail);
};

/** "#ABC" → "#aabbcc"; anything but a 3- or 6-digit hex colour is refused. */
export function normaliseColour(colour: string): string {
  const match = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(colour.trim());
  if (!match) return fail('invalid', 'primary_colour: must be a hex colour like #0f716c');
  const hex = match[1]!.toLowerCase();
  return `#${hex.length === 3 ? [...hex].map((c) => c + c).join('') : hex}`;
}

/** An IANA time zone name the runtime knows (as `Europe/London`). */
export function checkTimezone(timezone: string): string {
  try {
    new Intl.DateTimeFormat('en-GB', { timeZone: timezone });
    return timezone;
  } catch {
    return fail('invalid', `timezone: unknown time zone ${timezone}`);
  }
}

/** Business rules of a network: a known time zone, a hex colour; an update that changes nothing writes nothing. */
export function decideNetwork(command: NetworkCommand, state: NetworkState): NetworkEvent[] {
  const networkId = command.networkId;
  if (command.type === 'CreateNetwork') {
    if (state.exists) fail('conflict', 'Network already exists');
    return [
      {
        type: 'NetworkCreated',
        data: {
          networkId,
          name: command.name,
          timezone: checkTimezone(command.timezone),
          primaryColour: normaliseColour(command.primaryColour),
        },
      },
    ];
  }
  if (!state.exists) fail('not_found', 'Network not found');
  const timezone = command.timezone === undefined ? undefined : checkTimezone(command.timezone);
  const colour = command.primaryColour === undefined ? undefined : normaliseColour(command.primaryColour);
  const events: NetworkEvent[] = [];
  if (command.name !== undefined && command.name !== state.name)
    events.push({ type: 'NetworkRenamed', data: { networkId, name: command.name } });
  if (timezone !== undefined && timezone !== state.timezone)
    events.push({ type: 'NetworkTimezoneChanged', data: { networkId, timezone } });
  if (colour !== undefined && colour !== state.primaryColour)
    events.push({ type: 'NetworkPrimaryColourChanged', data: { networkId, primaryColour: colour } });
  return events;
}

/** The network aggregate: its stream, state and rules, for `Commands.run`. */
export const networkAggregate: Aggregate<NetworkState, NetworkCommand, NetworkEvent> = {
  stream: networkStream,
  idOf: (command) => command.networkId,
  initialState: () => initialNetworkState,
  evolve: evolveNetwork,
  decide: decideNetwork,
};
