import type { RecordedEvent } from '../platform/event-store/event-store.js';

/**
 * Who reported each incident, for the live channel (issue 18 item 4): a reporter without safeguarding
 * access hears their own concern's stage changes in their `user:{id}` room. Live rules are synchronous,
 * so the index is kept in memory: loaded from the read model at start, then fed by every report the
 * projections apply and every report the live rule sees. It only grows (an incident's reporter never
 * changes), so the rule gives the same answer on a replay.
 */
export class IncidentReporters {
  private readonly reporters = new Map<string, string>();

  note(incidentId: string, reporterId: string): void {
    this.reporters.set(incidentId, reporterId);
  }

  /** Records the reporter of a `SafeguardingIncidentReported` event; other events are ignored. */
  noteEvent(event: RecordedEvent): void {
    if (event.type !== 'SafeguardingIncidentReported') return;
    const data = event.data as { incidentId?: unknown; reporterId?: unknown };
    if (typeof data.incidentId === 'string' && typeof data.reporterId === 'string')
      this.note(data.incidentId, data.reporterId);
  }

  reporterOf(incidentId: string): string | undefined {
    return this.reporters.get(incidentId);
  }
}
