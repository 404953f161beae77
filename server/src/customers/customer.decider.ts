import { customerStream, type AttendanceContact, type CustomerEvent } from '@portal/projections';
import { DomainError } from '../platform/domain/domain-error.js';
import type { Aggregate } from '../platform/event-store/aggregate.js';

/** A customer's state as the decider needs it, folded from its stream. */
export interface CustomerState {
  exists: boolean;
  name: string;
  networkId: string | null;
  attendanceContacts: AttendanceContact[];
}

export type CustomerCommand =
  | { type: 'CreateCustomer'; customerId: string; name: string; networkId: string | null }
  | { type: 'UpdateCustomer'; customerId: string; name?: string; networkId?: string | null }
  | { type: 'SetAttendanceContacts'; customerId: string; contacts: AttendanceContact[] };

export const initialCustomerState: CustomerState = {
  exists: false,
  name: '',
  networkId: null,
  attendanceContacts: [],
};

export function evolveCustomer(state: CustomerState, event: CustomerEvent): CustomerState {
  switch (event.type) {
    case 'CustomerCreated':
      return { ...state, exists: true, name: event.data.name, networkId: event.data.networkId };
    case 'CustomerRenamed':
      return { ...state, name: event.data.name };
    case 'CustomerNetworkChanged':
      return { ...state, networkId: event.data.networkId };
    case 'AttendanceContactsChanged':
      return { ...state, attendanceContacts: event.data.contacts };
  }
}

export const foldCustomer = (events: CustomerEvent[]) => events.reduce(evolveCustomer, initialCustomerState);

/** Business rules for customers: names are required; an update that changes nothing writes nothing. */
export function decideCustomer(command: CustomerCommand, state: CustomerState): CustomerEvent[] {
  switch (command.type) {
    case 'CreateCustomer':
      if (state.exists) throw new DomainError('conflict', 'Customer already exists');
      return [
        {
          type: 'CustomerCreated',
          data: { customerId: command.customerId, name: command.name, networkId: command.networkId },
        },
      ];
    case 'UpdateCustomer': {
      if (!state.exists) throw new DomainError('not_found', 'Customer not found');
      const events: CustomerEvent[] = [];
      if (command.name !== undefined && command.name !== state.name)
        events.push({
          type: 'CustomerRenamed',
          data: { customerId: command.customerId, name: command.name },
        });
      if (command.networkId !== undefined && command.networkId !== state.networkId)
        events.push({
          type: 'CustomerNetworkChanged',
          data: { customerId: command.customerId, networkId: command.networkId },
        });
      return events;
    }
    case 'SetAttendanceContacts': {
      if (!state.exists) throw new DomainError('not_found', 'Customer not found');
      const seen = new Set<string>();
      command.contacts.forEach((c, i) => {
        if (seen.has(c.userId))
          throw new DomainError('invalid', `contacts[${i}].user_id: ${c.userId} is listed twice`);
        seen.add(c.userId);
      });
      // Order does not matter; the same set with the same frequencies writes nothing.
      const key = (cs: AttendanceContact[]) =>
        JSON.stringify(cs.map((c) => [c.userId, c.frequency]).sort(([a], [b]) => (a! < b! ? -1 : 1)));
      if (key(command.contacts) === key(state.attendanceContacts)) return [];
      return [
        {
          type: 'AttendanceContactsChanged',
          data: { customerId: command.customerId, contacts: command.contacts },
        },
      ];
    }
  }
}

/** The customer aggregate: its stream, state and rules, for `Commands.run`. */
export const customerAggregate: Aggregate<CustomerState, CustomerCommand, CustomerEvent> = {
  stream: customerStream,
  idOf: (command) => command.customerId,
  initialState: () => initialCustomerState,
  evolve: evolveCustomer,
  decide: decideCustomer,
};
