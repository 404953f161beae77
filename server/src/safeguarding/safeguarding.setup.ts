import { Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { parseStream } from '@portal/projections';
import type { Actor } from '../platform/auth/request-context.js';
import { DocumentKinds, type DocumentKind } from '../platform/collaboration/document-kinds.js';
import { RoomPolicy } from '../platform/live/room-policy.js';
import { hasSafeguardingAccess, isPartner, isSafeguardingLead } from '../identity/policy/policy.js';
import { IncidentsReadModel } from './incidents.read.js';
import { partnerMaySeeIncident } from './safeguarding.policy.js';
import { registerSafeguardingLiveRules } from './safeguarding-live.js';

export const INCIDENT_DOCUMENT_KIND = 'safeguarding-incident';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Registers the area's live rooms and audience rule, and the collaborative write-up
 * `safeguarding-incident:{id}`: the reporter and safeguarding leads write while the incident is open
 * (closed: read-only until reopened); users with safeguarding access, the reporter and partners who see
 * their customer's incident reports read; everyone else is refused.
 */
@Injectable()
export class SafeguardingSetup implements OnModuleInit, OnModuleDestroy {
  constructor(
    private readonly policy: RoomPolicy,
    private readonly kinds: DocumentKinds,
    private readonly incidents: IncidentsReadModel,
  ) {}

  onModuleInit(): void {
    registerSafeguardingLiveRules(this.policy);
    this.kinds.registerKind(this.documentKind());
  }

  onModuleDestroy(): void {
    this.kinds.unregisterKind(INCIDENT_DOCUMENT_KIND);
  }

  documentKind(): DocumentKind {
    const incident = (id: string) => (UUID.test(id) ? this.incidents.byId(id) : Promise.resolve(null));
    return {
      kind: INCIDENT_DOCUMENT_KIND,
      // A closed incident's write-up is read-only for everyone until it is reopened (issue 18).
      canWrite: async (actor: Actor, id: string) => {
        const row = await incident(id);
        if (!row || row.status === 'closed') return false;
        return isSafeguardingLead(actor.permissions) || row.reporter_id === actor.userId;
      },
      canRead: async (actor: Actor, id: string) => {
        const row = await incident(id);
        if (!row) return false;
        if (hasSafeguardingAccess(actor.permissions) || row.reporter_id === actor.userId) return true;
        if (!isPartner(actor.permissions)) return false;
        return partnerMaySeeIncident(actor, row);
      },
      // Closing and reopening switch open write-ups between read-only and read-write at once.
      accessChangedBy: (event) => {
        if (event.type !== 'SafeguardingIncidentClosed' && event.type !== 'SafeguardingIncidentReopened')
          return null;
        const stream = parseStream(event.stream);
        return stream?.kind === 'incident' ? stream.id : null;
      },
    };
  }
}
