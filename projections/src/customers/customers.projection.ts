import { defineProjection, guardedSet } from '../projection.js';

/**
 * Customers (partner schools and organisations) in `customer-{id}` streams. The identity area needs
 * them for the users' derived "first customer's name" (spec §3); the customers area (§2 "Bases and
 * customers") builds its screens on the same events.
 */
export interface CustomerCreatedData {
  customerId: string;
  name: string;
  networkId: string | null;
}

export interface CustomerRenamedData {
  customerId: string;
  name: string;
}

export interface CustomerNetworkChangedData {
  customerId: string;
  networkId: string | null;
}

/** Spec §3 "Notification frequency": how often an attendance contact is e-mailed. */
export type NotificationFrequency = 'each-change' | 'daily';
export const NOTIFICATION_FREQUENCIES: readonly NotificationFrequency[] = ['each-change', 'daily'];

export interface AttendanceContact {
  userId: string;
  frequency: NotificationFrequency;
}

/**
 * The school's attendance contacts (decision 0061): the partner users told about absences with no
 * reason and about amendments, each with their e-mail frequency. The whole list each time.
 */
export interface AttendanceContactsChangedData {
  customerId: string;
  contacts: AttendanceContact[];
}

export type CustomerEvent =
  | { type: 'CustomerCreated'; data: CustomerCreatedData }
  | { type: 'CustomerRenamed'; data: CustomerRenamedData }
  | { type: 'CustomerNetworkChanged'; data: CustomerNetworkChangedData }
  | { type: 'AttendanceContactsChanged'; data: AttendanceContactsChangedData };

export type CustomerEventType = CustomerEvent['type'];

/** The customer's own fields (the customers projection); attendance contacts are the notifications'. */
export const CUSTOMER_EVENT_TYPES: readonly Exclude<CustomerEventType, 'AttendanceContactsChanged'>[] = [
  'CustomerCreated',
  'CustomerRenamed',
  'CustomerNetworkChanged',
];

export const customerStream = (customerId: string) => `customer-${customerId}`;

export interface CustomerRow {
  id: string;
  name: string;
  network_id: string | null;
  created_at: Date;
  updated_at: Date;
  version: string;
}

export const customersProjection = defineProjection<
  Exclude<CustomerEvent, { type: 'AttendanceContactsChanged' }>
>()({
  name: 'customers',
  version: 1,
  tables: ['rm_customers'],
  schema: [
    `CREATE TABLE IF NOT EXISTS rm_customers (
       id          uuid PRIMARY KEY,
       name        text NOT NULL,
       network_id  uuid,
       created_at  timestamptz NOT NULL,
       updated_at  timestamptz NOT NULL,
       version     bigint NOT NULL
     )`,
    `CREATE INDEX IF NOT EXISTS rm_customers_name ON rm_customers (lower(name), id)`,
  ],
  handles: CUSTOMER_EVENT_TYPES,
  async apply(e, tx) {
    const revision = e.revision.toString();
    const at = e.metadata.occurredAt;
    switch (e.type) {
      case 'CustomerCreated':
        await tx.query(
          `INSERT INTO rm_customers (id, name, network_id, created_at, updated_at, version)
           VALUES ($1, $2, $3, $4, $4, $5::bigint) ON CONFLICT (id) DO NOTHING`,
          [e.data.customerId, e.data.name, e.data.networkId, at, revision],
        );
        return;
      case 'CustomerRenamed':
        await guardedSet(tx, 'rm_customers', e.data.customerId, revision, {
          name: e.data.name,
          updated_at: at,
        });
        return;
      case 'CustomerNetworkChanged':
        await guardedSet(tx, 'rm_customers', e.data.customerId, revision, {
          network_id: e.data.networkId,
          updated_at: at,
        });
        return;
    }
  },
});
