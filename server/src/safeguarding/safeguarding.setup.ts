import {
  Inject,
  Injectable,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
  type OnModuleInit,
} from '@nestjs/common';
import { parseStream } from '@portal/projections';
import type { Actor } from '../platform/auth/request-context.js';
import { DocumentKinds, type DocumentKind } from '../platform/collaboration/document-kinds.js';
import { RoomPolicy } from '../platform/live/room-policy.js';
import { hasSafeguardingAccess, isPartner, isSafeguardingLead } from '../identity/policy/policy.js';
import { IncidentsReadModel } from './incidents.read.js';
import { partnerMaySeeIncident } from './safeguarding.policy.js';
import { registerSafeguardingLiveRules } from './safeguarding-live.js';
import { IncidentReporters } from './incident-reporters.js';
import { ProjectionRunner } from '../platform/projections/projection-runner.js';
import { EVENT_STORE, LOGGER } from '../platform/tokens.js';
import type { EventStore } from '../platform/event-store/event-store.js';
import type { Log } from '../platform/logging/logger.js';

export const INCIDENT_DOCUMENT_KIND = 'safeguarding-incident';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Registers the area's live rooms and audience rule, and the collaborative write-up
 * `safeguarding-incident:{id}`: the reporter and safeguarding leads write while the incident is open
 * (closed: read-only until reopened); users with safeguarding access, the reporter and partners who see
 * their customer's incident reports read; everyone else is refused.
 */
@Injectable()
export class SafeguardingSetup implements OnModuleInit, OnApplicationBootstrap, OnModuleDestroy {
  private readonly reporters = new IncidentReporters();
  private stopApplied: (() => void) | null = null;

  constructor(
    private readonly policy: RoomPolicy,
    private readonly kinds: DocumentKinds,
    private readonly incidents: IncidentsReadModel,
    private readonly runner: ProjectionRunner,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(LOGGER) private readonly log: Log,
  ) {}

  onModuleInit(): void {
    registerSafeguardingLiveRules(this.policy, this.reporters);
    this.kinds.registerKind(this.documentKind());
  }

  /**
   * The reporters index: each report as it is applied (and as the live rule sees it), and every incident
   * in the read model once the projections hold what was in the store at start (in the background: the
   * portal does not wait for it).
   */
  onApplicationBootstrap(): void {
    this.stopApplied = this.runner.onApplied((events) => events.forEach((e) => this.reporters.noteEvent(e)));
    void (async () => {
      await this.runner.waitForPosition(await this.store.headPosition(), 10 * 60_000);
      for (const { id, reporter_id } of await this.incidents.reporters())
        this.reporters.note(id, reporter_id);
    })().catch((e: unknown) => this.log.warn({ err: e }, 'safeguarding: the reporters index could not load'));
  }

  onModuleDestroy(): void {
    this.stopApplied?.();
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
