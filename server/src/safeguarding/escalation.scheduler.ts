import { Inject, Injectable } from '@nestjs/common';
import { PeriodicJob } from '../platform/scheduling/periodic-job.js';
import type { AppConfig } from '../platform/config/config.js';
import { DomainError } from '../platform/domain/domain-error.js';
import { ConcurrencyError } from '../platform/event-store/errors.js';
import { Commands } from '../platform/event-store/commands.js';
import type { Log } from '../platform/logging/logger.js';
import { MailOutbox } from '../platform/mail/mail-outbox.js';
import { APP_CONFIG, LOGGER } from '../platform/tokens.js';
import { SAFEGUARDING } from '../identity/policy/policy.js';
import { incidentAggregate } from './incident.decider.js';
import { IncidentsReadModel } from './incidents.read.js';

/**
 * Escalates incidents nobody acknowledged within SAFEGUARDING_ESCALATION_MINUTES: appends
 * `SafeguardingIncidentEscalated` (which the live channel pushes to the `safeguarding` room as the
 * alert) and queues an e-mail to every safeguarding lead. Every process runs it; the runner appends at
 * the revision it read and, when another process got there first, decides again on the new state, which
 * refuses a second escalation: so only one process escalates an incident and only that one sends the mail.
 */
@Injectable()
export class EscalationScheduler extends PeriodicJob<number> {
  private readonly log: Log;

  constructor(
    private readonly incidents: IncidentsReadModel,
    private readonly outbox: MailOutbox,
    private readonly commands: Commands,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(LOGGER) log: Log,
  ) {
    super();
    this.log = log.child({ component: 'safeguarding-escalation' });
  }

  get minutes(): number {
    return this.config.safeguarding.escalationMinutes;
  }

  /** Checks four times per escalation period, at most once a minute and at least every 250 ms. */
  get intervalMs(): number {
    return Math.min(60_000, Math.max(250, (this.minutes * 60_000) / 4));
  }

  /** One pass (see PeriodicJob.runOnce); returns how many incidents it escalated. */
  protected async pass(now: Date): Promise<number> {
    const due = await this.incidents.waitingSince(new Date(now.getTime() - this.minutes * 60_000));
    if (due.length === 0) return 0;
    const leads = await this.incidents.usersWithPermission(SAFEGUARDING.LEAD);
    let escalated = 0;
    for (const incident of due) {
      const waited =
        Math.round(((now.getTime() - new Date(incident.reported_at).getTime()) / 60_000) * 10) / 10;
      try {
        await this.commands.run(
          incidentAggregate,
          {
            type: 'EscalateIncident',
            incidentId: incident.id,
            minutesUnacknowledged: waited,
            leadsNotified: leads.map((l) => l.id),
          },
          { actorId: null, correlationId: `safeguarding-escalation:${incident.id}` },
        );
      } catch (e) {
        if (e instanceof ConcurrencyError || e instanceof DomainError) continue;
        this.log.error({ err: e, incidentId: incident.id }, 'escalation failed');
        continue;
      }
      escalated++;
      const link = `${this.config.publicUrl}/safeguarding-incidents?incident=${incident.id}`;
      for (const lead of leads) {
        await this.outbox.enqueue(
          lead.email,
          'Safeguarding incident not acknowledged',
          `Hello ${lead.full_name},\n\nA safeguarding incident reported ${waited} minutes ago has not been acknowledged yet.\n` +
            `Please open it and acknowledge it: ${link}\n\n(No details of the incident are sent by e-mail.)`,
        );
      }
    }
    return escalated;
  }
}
