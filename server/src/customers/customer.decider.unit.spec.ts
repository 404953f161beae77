import { describe, expect, it } from '@jest/globals';
import { DomainError, type ErrorKind } from '../platform/domain/domain-error.js';
import type { CustomerEvent } from '@portal/projections';
import { decideCustomer, foldCustomer, type CustomerCommand } from './customer.decider.js';

const ID = '11111111-1111-4111-8111-111111111111';
const NET = '22222222-2222-4222-8222-222222222222';
const created: CustomerEvent = {
  type: 'CustomerCreated',
  data: { customerId: ID, name: 'Oak Academy', networkId: null },
};

const rows: Array<{
  name: string;
  given: CustomerEvent[];
  when: CustomerCommand;
  then: CustomerEvent[] | ErrorKind;
}> = [
  {
    name: 'creating a new customer records it',
    given: [],
    when: { type: 'CreateCustomer', customerId: ID, name: 'Oak Academy', networkId: null },
    then: [created],
  },
  {
    name: 'setting attendance contacts records the whole list',
    given: [created],
    when: { type: 'SetAttendanceContacts', customerId: ID, contacts: [{ userId: NET, frequency: 'daily' }] },
    then: [
      {
        type: 'AttendanceContactsChanged',
        data: { customerId: ID, contacts: [{ userId: NET, frequency: 'daily' }] },
      },
    ],
  },
  {
    name: 'the same contacts with the same frequencies write nothing',
    given: [
      created,
      {
        type: 'AttendanceContactsChanged',
        data: { customerId: ID, contacts: [{ userId: NET, frequency: 'daily' }] },
      },
    ],
    when: { type: 'SetAttendanceContacts', customerId: ID, contacts: [{ userId: NET, frequency: 'daily' }] },
    then: [],
  },
  {
    name: 'a contact listed twice is refused',
    given: [created],
    when: {
      type: 'SetAttendanceContacts',
      customerId: ID,
      contacts: [
        { userId: NET, frequency: 'daily' },
        { userId: NET, frequency: 'each-change' },
      ],
    },
    then: 'invalid',
  },
  {
    name: 'contacts of an unknown customer: not found',
    given: [],
    when: { type: 'SetAttendanceContacts', customerId: ID, contacts: [] },
    then: 'not_found',
  },
  {
    name: 'creating it twice is a conflict',
    given: [created],
    when: { type: 'CreateCustomer', customerId: ID, name: 'Oak Academy', networkId: null },
    then: 'conflict',
  },
  {
    name: 'renaming records the new name',
    given: [created],
    when: { type: 'UpdateCustomer', customerId: ID, name: 'Oak Park Academy' },
    then: [{ type: 'CustomerRenamed', data: { customerId: ID, name: 'Oak Park Academy' } }],
  },
  {
    name: 'an update that changes nothing writes nothing',
    given: [created],
    when: { type: 'UpdateCustomer', customerId: ID, name: 'Oak Academy', networkId: null },
    then: [],
  },
  {
    name: 'moving to a network records it',
    given: [created],
    when: { type: 'UpdateCustomer', customerId: ID, networkId: NET },
    then: [{ type: 'CustomerNetworkChanged', data: { customerId: ID, networkId: NET } }],
  },
  {
    name: 'updating an unknown customer is not found',
    given: [],
    when: { type: 'UpdateCustomer', customerId: ID, name: 'X' },
    then: 'not_found',
  },
];

describe('customer decider', () => {
  it.each(rows)('$name', ({ given, when, then }) => {
    const run = () => decideCustomer(when, foldCustomer(given));
    if (typeof then === 'string') {
      expect(run).toThrow(DomainError);
      try {
        run();
      } catch (e) {
        expect((e as DomainError).kind).toBe(then);
      }
    } else {
      expect(run()).toEqual(then);
    }
  });
});
