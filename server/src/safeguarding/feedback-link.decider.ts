import {
  feedbackLinksStream,
  type FeedbackLinkEvent,
  type FeedbackLinkStatus,
  type IncidentStatus,
} from '@portal/projections';
import { DomainError } from '../platform/domain/domain-error.js';
import type { Aggregate } from '../platform/event-store/aggregate.js';

/**
 * Partner feedback links (docs/decisions/0030-partner-feedback-links.md): pure fold and decide over an
 * incident's `safeguarding-feedback-links-{incidentId}` stream.
 */
export interface FeedbackLinkState {
  linkId: string;
  recipientUserId: string;
  issuedBy: string;
  issuedAt: string;
  expiresAt: string;
  /** Every open, oldest first. */
  opens: string[];
  revokedAt: string | null;
  revokedBy: string | null;
  usedAt: string | null;
  feedbackId: string | null;
}

export type FeedbackLinksState = ReadonlyMap<string, FeedbackLinkState>;

/** Links may be issued once the partner was informed, until the incident is closed. */
export const ISSUE_FROM: readonly IncidentStatus[] = ['partner_informed', 'partner_feedback'];

export type FeedbackLinkCommand =
  | {
      type: 'IssueLink';
      incidentId: string;
      incidentStatus: IncidentStatus;
      linkId: string;
      recipientUserId: string;
      issuedBy: string;
      now: string;
      expiresAt: string;
    }
  | { type: 'OpenLink'; incidentId: string; linkId: string; now: string }
  | { type: 'RevokeLink'; incidentId: string; linkId: string; revokedBy: string; now: string }
  | { type: 'UseLink'; incidentId: string; linkId: string; feedbackId: string; now: string };

export function evolveFeedbackLinks(state: FeedbackLinksState, e: FeedbackLinkEvent): FeedbackLinksState {
  if (e.type === 'SafeguardingFeedbackLinkIssued') {
    const d = e.data;
    return new Map(state).set(d.linkId, {
      linkId: d.linkId,
      recipientUserId: d.recipientUserId,
      issuedBy: d.issuedBy,
      issuedAt: d.issuedAt,
      expiresAt: d.expiresAt,
      opens: [],
      revokedAt: null,
      revokedBy: null,
      usedAt: null,
      feedbackId: null,
    });
  }
  const link = state.get(e.data.linkId);
  if (!link) return state;
  switch (e.type) {
    case 'SafeguardingFeedbackLinkOpened':
      return new Map(state).set(link.linkId, { ...link, opens: [...link.opens, e.data.openedAt] });
    case 'SafeguardingFeedbackLinkRevoked':
      return new Map(state).set(link.linkId, {
        ...link,
        revokedAt: e.data.revokedAt,
        revokedBy: e.data.revokedBy,
      });
    case 'SafeguardingFeedbackLinkUsed':
      return new Map(state).set(link.linkId, {
        ...link,
        usedAt: e.data.usedAt,
        feedbackId: e.data.feedbackId,
      });
  }
}

export const foldFeedbackLinks = (events: readonly FeedbackLinkEvent[]): FeedbackLinksState =>
  events.reduce(evolveFeedbackLinks, new Map<string, FeedbackLinkState>() as FeedbackLinksState);

/** used and revoked are final; then expiry; then whether anyone opened it. */
export function linkStatus(link: FeedbackLinkState, now: string): FeedbackLinkStatus {
  if (link.usedAt) return 'used';
  if (link.revokedAt) return 'revoked';
  if (Date.parse(link.expiresAt) <= Date.parse(now)) return 'expired';
  return link.opens.length ? 'opened' : 'issued';
}

const GONE: Record<'used' | 'revoked' | 'expired', string> = {
  used: 'This feedback link has already been used',
  revoked: 'This feedback link has been revoked',
  expired: 'This feedback link has expired',
};

/** The link if its holder may still open it and submit through it; 404 / 410 otherwise. */
function usable(state: FeedbackLinksState, linkId: string, now: string): FeedbackLinkState {
  const link = state.get(linkId);
  if (!link) throw new DomainError('not_found', 'Feedback link not found');
  const status = linkStatus(link, now);
  if (status === 'used' || status === 'revoked' || status === 'expired')
    throw new DomainError('gone', GONE[status]);
  return link;
}

export function decideFeedbackLink(
  command: FeedbackLinkCommand,
  state: FeedbackLinksState,
): FeedbackLinkEvent[] {
  const { incidentId, linkId, now } = command;
  switch (command.type) {
    case 'IssueLink':
      if (!ISSUE_FROM.includes(command.incidentStatus))
        throw new DomainError(
          'conflict',
          `Cannot issue a feedback link for an incident that is ${command.incidentStatus} (allowed from: ${ISSUE_FROM.join(', ')})`,
        );
      if (state.has(linkId)) throw new DomainError('conflict', 'Feedback link already exists');
      if (Date.parse(command.expiresAt) <= Date.parse(now))
        throw new DomainError('invalid', 'expires_in_hours must be positive');
      return [
        {
          type: 'SafeguardingFeedbackLinkIssued',
          data: {
            incidentId,
            linkId,
            recipientUserId: command.recipientUserId,
            issuedBy: command.issuedBy,
            issuedAt: now,
            expiresAt: command.expiresAt,
          },
        },
      ];
    case 'OpenLink':
      usable(state, linkId, now);
      return [{ type: 'SafeguardingFeedbackLinkOpened', data: { incidentId, linkId, openedAt: now } }];
    case 'RevokeLink': {
      const link = state.get(linkId);
      if (!link) throw new DomainError('not_found', 'Feedback link not found');
      const status = linkStatus(link, now);
      if (status === 'used' || status === 'revoked')
        throw new DomainError('conflict', `Feedback link is already ${status}`);
      return [
        {
          type: 'SafeguardingFeedbackLinkRevoked',
          data: { incidentId, linkId, revokedBy: command.revokedBy, revokedAt: now },
        },
      ];
    }
    case 'UseLink':
      usable(state, linkId, now);
      return [
        {
          type: 'SafeguardingFeedbackLinkUsed',
          data: { incidentId, linkId, feedbackId: command.feedbackId, usedAt: now },
        },
      ];
  }
}

/** The feedback links of one incident: stream `safeguarding-feedback-links-{incidentId}`. */
export const feedbackLinksAggregate: Aggregate<FeedbackLinksState, FeedbackLinkCommand, FeedbackLinkEvent> = {
  stream: feedbackLinksStream,
  idOf: (command) => command.incidentId,
  initialState: () => new Map(),
  evolve: evolveFeedbackLinks,
  decide: decideFeedbackLink,
};
