import { Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
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
 * `safeguarding-incident:{id}`: the reporter and safeguarding leads write; users with safeguarding
 * access and partners who see their customer's incident reports read; everyone else is refused.
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
      canWrite: async (actor: Actor, id: string) => {
        const row = await incident(id);
        if (!row) return false;
        return isSafeguardingLead(actor.permissions) || row.reporter_id === actor.userId;
      },
      canRead: async (actor: Actor, id: string) => {
        const row = await incident(id);
        if (!row) return false;
        if (hasSafeguardingAccess(actor.permissions)) return true;
        if (!isPartner(actor.permissions)) return false;
        return partnerMaySeeIncident(actor, row);
      },
    };
  }
}
