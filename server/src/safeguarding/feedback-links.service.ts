import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { incidentStream } from '@portal/projections';
import type { AppConfig } from '../platform/config/config.js';
import { Commands } from '../platform/event-store/commands.js';
import type { EventMetadata, EventStore } from '../platform/event-store/event-store.js';
import { EVENT_STORE } from '../platform/event-store/event-store.js';
import { DomainError } from '../platform/domain/domain-error.js';
import { MailOutbox } from '../platform/mail/mail-outbox.js';
import { APP_CONFIG, SQL_CLIENT } from '../platform/tokens.js';
import type { SqlClient } from '../platform/sql/sql-client.js';
import {
  feedbackLinksAggregate,
  linkStatus,
  type FeedbackLinkCommand,
  type FeedbackLinkState,
} from './feedback-link.decider.js';
import type {
  FeedbackLinkIssued,
  FeedbackLinkSummary,
  FeedbackLinkView,
  FeedbackReceipt,
  FeedbackSubmitted,
} from './feedback-links.dto.js';
import { FeedbackTokens } from './feedback-tokens.js';
import { incidentAggregate } from './incident.decider.js';
import { IncidentsReadModel } from './incidents.read.js';

/** How long the receipt (confirmation) page of a submitted feedback stays reachable. */
export const RECEIPT_MINUTES = 60;
const LINK_NOT_FOUND = 'Feedback link not found';

export interface FeedbackRecipient {
  id: string;
  full_name: string;
  email: string;
  customer_type: string | null;
  customer_name: string | null;
}

/**
 * Partner feedback by token link (docs/decisions/0030-partner-feedback-links.md): issuing (mailed through
 * the outbox), listing and revoking for leads; opening and submitting for the link's holder.
 */
@Injectable()
export class FeedbackLinksService {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly commands: Commands,
    @Inject(SQL_CLIENT) private readonly sql: SqlClient,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly tokens: FeedbackTokens,
    private readonly outbox: MailOutbox,
    private readonly incidents: IncidentsReadModel,
  ) {}

  // Leads

  async issue(
    incidentId: string,
    email: string,
    hours: number,
    metadata: Partial<EventMetadata>,
  ): Promise<FeedbackLinkIssued> {
    const row = await this.incidents.byId(incidentId);
    if (!row) throw new DomainError('not_found', 'Incident not found');
    const recipient = await this.partnerFor(email, row.customer_ids);
    if (!recipient)
      throw new DomainError('invalid', "email: not a partner user of a customer of the incident's students");
    const { status } = (await this.commands.load(incidentAggregate, incidentId)).state;
    const now = new Date();
    const expiresAt = new Date(now.getTime() + hours * 3_600_000);
    const linkId = randomUUID();
    const { position } = await this.commands.run(
      feedbackLinksAggregate,
      {
        type: 'IssueLink',
        incidentId,
        incidentStatus: status,
        linkId,
        recipientUserId: recipient.id,
        issuedBy: metadata.actorId!,
        now: now.toISOString(),
        expiresAt: expiresAt.toISOString(),
      },
      metadata,
    );
    const token = await this.tokens.issue('link', { linkId, incidentId }, expiresAt);
    const link = `${this.config.publicUrl}/safeguarding-incident/feedback/${token}`;
    await this.outbox.enqueue(
      recipient.email,
      'Your feedback on a safeguarding incident',
      [
        'Hello,',
        '',
        'We informed you of a safeguarding incident involving one of your students. Please tell us',
        'what you know or have done through this secure link (it works once and expires',
        `${expiresAt.toUTCString()}):`,
        '',
        link,
        '',
        'If you did not expect this e-mail, please ignore it and tell your safeguarding contact.',
      ].join('\n'),
    );
    return { id: linkId, expires_at: expiresAt.toISOString(), position };
  }

  /** Who a link may go to: the active partner users of the incident's schools, by school and name. */
  async recipients(incidentId: string): Promise<FeedbackRecipient[]> {
    const row = await this.incidents.byId(incidentId);
    if (!row) throw new DomainError('not_found', 'Incident not found');
    if (row.customer_ids.length === 0) return [];
    const { rows } = await this.sql.query<FeedbackRecipient>(
      `SELECT u.id::text AS id, u.full_name, u.email, u.customer_type, c.name AS customer_name
         FROM rm_users u LEFT JOIN rm_customers c ON c.id = u.customer_id
        WHERE u.user_type = 'partner' AND u.deleted_at IS NULL AND u.status = 'active'
          AND u.customer_id = ANY($1::uuid[])
        ORDER BY lower(c.name), lower(u.full_name), u.id`,
      [row.customer_ids],
    );
    return rows;
  }

  async list(incidentId: string): Promise<FeedbackLinkView[]> {
    if (!(await this.incidents.byId(incidentId))) throw new DomainError('not_found', 'Incident not found');
    const now = new Date().toISOString();
    const links = [...(await this.commands.load(feedbackLinksAggregate, incidentId)).state.values()];
    const emails = await this.emails(links.map((l) => l.recipientUserId));
    return links
      .map((l) => view(l, emails.get(l.recipientUserId) ?? '', now))
      .sort((a, b) => (a.issued_at < b.issued_at ? 1 : a.issued_at > b.issued_at ? -1 : 0));
  }

  async revoke(incidentId: string, linkId: string, metadata: Partial<EventMetadata>): Promise<string> {
    const { position } = await this.commands.run(
      feedbackLinksAggregate,
      { type: 'RevokeLink', incidentId, linkId, revokedBy: metadata.actorId!, now: new Date().toISOString() },
      metadata,
    );
    await this.tokens.expireLink(linkId);
    return position;
  }

  // The link's holder

  /** Records the open and answers the minimum the holder needs to recognise the incident. */
  async open(token: string, metadata: Partial<EventMetadata>): Promise<FeedbackLinkSummary> {
    const found = await this.tokens.find('link', token);
    if (!found) throw new DomainError('not_found', LINK_NOT_FOUND);
    const row = await this.incidents.byId(found.incident_id);
    if (!row) throw new DomainError('not_found', LINK_NOT_FOUND);
    if (row.status !== 'partner_informed' && row.status !== 'partner_feedback')
      throw new DomainError('gone', 'This incident no longer takes feedback');
    const now = new Date().toISOString();
    const { state } = await this.commands.run(
      feedbackLinksAggregate,
      { type: 'OpenLink', incidentId: found.incident_id, linkId: found.link_id, now },
      metadata,
    );
    const [incident] = await this.incidents.views([row]);
    return {
      occurred_at: incident!.occurred_at,
      types: incident!.types.map((t) => t.name),
      students: incident!.students.map((s) => shortName(s.name)),
      expires_at: state.get(found.link_id)!.expiresAt,
    };
  }

  /** Records the feedback on the link's incident (only that one) and uses the link up. */
  async submit(
    token: string,
    feedback: string,
    metadata: Partial<EventMetadata>,
  ): Promise<FeedbackSubmitted> {
    const found = await this.tokens.find('link', token);
    if (!found) throw new DomainError('not_found', LINK_NOT_FOUND);
    const incidentId = found.incident_id;
    const linkId = found.link_id;
    const feedbackId = randomUUID();
    // Decided before the token is used up, so a dead link answers 404 / 410 and keeps its token;
    // appended after the feedback, whatever happened to the link meanwhile (the token was single use).
    const { state } = await this.commands.load(feedbackLinksAggregate, incidentId);
    const use: FeedbackLinkCommand = {
      type: 'UseLink',
      incidentId,
      linkId,
      feedbackId,
      now: new Date().toISOString(),
    };
    const used = feedbackLinksAggregate.decide(use, state);
    if (!(await this.tokens.consume(token)))
      throw new DomainError('gone', 'This feedback link has already been used');
    const linkMeta = { ...metadata, actorId: null, viaFeedbackLink: linkId };
    try {
      await this.commands.run(
        incidentAggregate,
        { type: 'RecordPartnerFeedback', incidentId, feedback, via: { feedbackId, linkId } },
        linkMeta,
      );
    } catch (e) {
      await this.tokens.release(token);
      throw e;
    }
    await this.commands.appendDecided(feedbackLinksAggregate, {
      id: incidentId,
      command: use,
      state,
      events: used,
      metadata: linkMeta,
    });
    const confirmExpires = new Date(Date.now() + RECEIPT_MINUTES * 60_000);
    const confirm = await this.tokens.issue('receipt', { linkId, incidentId, feedbackId }, confirmExpires);
    return {
      feedback_id: feedbackId,
      confirm_token: confirm,
      confirm_expires_at: confirmExpires.toISOString(),
    };
  }

  /** What was submitted, for the receipt page; 404 once the receipt token expired. */
  async receipt(feedbackId: string, token: string): Promise<FeedbackReceipt> {
    const found = await this.tokens.find('receipt', token);
    if (!found || found.feedback_id !== feedbackId || new Date(found.expires_at).getTime() <= Date.now())
      throw new DomainError('not_found', 'Receipt not found or expired');
    const events = await this.store.readStream(incidentStream(found.incident_id));
    const recorded = events.find(
      (e) =>
        e.type === 'SafeguardingIncidentPartnerFeedbackRecorded' &&
        (e.data as { feedbackId?: string }).feedbackId === feedbackId,
    );
    const row = await this.incidents.byId(found.incident_id);
    if (!recorded || !row) throw new DomainError('not_found', 'Receipt not found or expired');
    const [incident] = await this.incidents.views([row]);
    return {
      feedback_id: feedbackId,
      feedback: (recorded.data as { feedback: string }).feedback,
      submitted_at: recorded.createdAt.toISOString(),
      occurred_at: incident!.occurred_at,
      types: incident!.types.map((t) => t.name),
    };
  }

  // Helpers

  private async partnerFor(
    email: string,
    customerIds: string[],
  ): Promise<{ id: string; email: string } | null> {
    if (customerIds.length === 0) return null;
    const { rows } = await this.sql.query<{ id: string; email: string }>(
      `SELECT id::text AS id, email FROM rm_users
        WHERE lower(email) = lower($1) AND user_type = 'partner' AND deleted_at IS NULL
          AND status <> 'deactivated' AND customer_id = ANY($2::uuid[])
        LIMIT 1`,
      [email.trim(), customerIds],
    );
    return rows[0] ?? null;
  }

  private async emails(userIds: string[]): Promise<Map<string, string>> {
    if (userIds.length === 0) return new Map();
    const { rows } = await this.sql.query<{ id: string; email: string }>(
      `SELECT id::text AS id, email FROM rm_users WHERE id = ANY($1::uuid[])`,
      [[...new Set(userIds)]],
    );
    return new Map(rows.map((r) => [r.id, r.email]));
  }
}

function view(l: FeedbackLinkState, email: string, now: string): FeedbackLinkView {
  return {
    id: l.linkId,
    email,
    recipient_user_id: l.recipientUserId,
    status: linkStatus(l, now),
    issued_by: l.issuedBy,
    issued_at: l.issuedAt,
    expires_at: l.expiresAt,
    opens: l.opens,
    revoked_at: l.revokedAt,
    used_at: l.usedAt,
    feedback_id: l.feedbackId,
  };
}

/** "Ada Lovelace" → "Ada L.": enough for a partner to recognise their student, no more. */
export function shortName(full: string): string {
  const parts = full.trim().split(/\s+/).filter(Boolean);
  if (parts.length === 0) return '';
  const [first, ...rest] = parts;
  const last = rest.at(-1);
  return last ? `${first} ${last[0]!.toUpperCase()}.` : first!;
}
