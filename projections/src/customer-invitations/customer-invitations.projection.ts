import { defineProjection, guardedSet } from '../projection.js';

/**
 * Invitations for partner (customer-side) users, in `customer-invitation-{id}` streams: an
 * administrator or a holder of the partner-invitations permission invites an e-mail address to a
 * customer with a customer role; the invitee registers through the mailed link (docs/decisions/0016).
 */
export type InvitedCustomerRole = 'super-admin' | 'admin' | 'link-contact' | 'parent';

export interface CustomerInvitationSentData {
  invitationId: string;
  customerId: string;
  email: string;
  customerType: InvitedCustomerRole;
  invitedBy: string | null;
}

export interface CustomerInvitationAcceptedData {
  invitationId: string;
  /** The partner user created by the registration. */
  userId: string;
}

export type CustomerInvitationEvent =
  | { type: 'CustomerInvitationSent'; data: CustomerInvitationSentData }
  | { type: 'CustomerInvitationAccepted'; data: CustomerInvitationAcceptedData };

export const CUSTOMER_INVITATION_EVENT_TYPES: readonly CustomerInvitationEvent['type'][] = [
  'CustomerInvitationSent',
  'CustomerInvitationAccepted',
];

export const customerInvitationStream = (invitationId: string) => `customer-invitation-${invitationId}`;

export interface CustomerInvitationRow {
  id: string;
  customer_id: string;
  email: string;
  customer_type: InvitedCustomerRole;
  invited_by: string | null;
  status: 'pending' | 'accepted';
  user_id: string | null;
  created_at: Date;
  accepted_at: Date | null;
  version: string;
}

export const customerInvitationsProjection = defineProjection<CustomerInvitationEvent>()({
  name: 'customer-invitations',
  version: 1,
  tables: ['rm_customer_invitations'],
  schema: [
    `CREATE TABLE IF NOT EXISTS rm_customer_invitations (
       id            uuid PRIMARY KEY,
       customer_id   uuid NOT NULL,
       email         text NOT NULL,
       customer_type text NOT NULL,
       invited_by    uuid,
       status        text NOT NULL DEFAULT 'pending',
       user_id       uuid,
       created_at    timestamptz NOT NULL,
       accepted_at   timestamptz,
       version       bigint NOT NULL
     )`,
    `CREATE INDEX IF NOT EXISTS rm_customer_invitations_customer ON rm_customer_invitations (customer_id, created_at)`,
  ],
  handles: CUSTOMER_INVITATION_EVENT_TYPES,
  async apply(e, tx) {
    const revision = e.revision.toString();
    const at = e.metadata.occurredAt;
    switch (e.type) {
      case 'CustomerInvitationSent':
        await tx.query(
          `INSERT INTO rm_customer_invitations (id, customer_id, email, customer_type, invited_by, created_at, version)
           VALUES ($1, $2, $3, $4, $5, $6, $7::bigint) ON CONFLICT (id) DO NOTHING`,
          [
            e.data.invitationId,
            e.data.customerId,
            e.data.email,
            e.data.customerType,
            e.data.invitedBy,
            at,
            revision,
          ],
        );
        return;
      case 'CustomerInvitationAccepted':
        await guardedSet(tx, 'rm_customer_invitations', e.data.invitationId, revision, {
          status: 'accepted',
          user_id: e.data.userId,
          accepted_at: at,
        });
        return;
    }
  },
});
