/**
 * Partner feedback links (issue 6 item 5, docs/decisions/0030-partner-feedback-links.md). Every link of
 * an incident lives in `safeguarding-feedback-links-{incidentId}`: issuing, each open, revoking and the
 * single use. The feedback itself is a `SafeguardingIncidentPartnerFeedbackRecorded` in the (hash
 * chained) incident stream, carrying the link id. No event holds the token or its hash.
 */

export const feedbackLinksStream = (incidentId: string) => `safeguarding-feedback-links-${incidentId}`;

export type FeedbackLinkStatus = 'issued' | 'opened' | 'used' | 'expired' | 'revoked';

export interface FeedbackLinkIssuedData {
  incidentId: string;
  linkId: string;
  /**
   * The partner user the link was mailed to. Their address is not copied into the event (it is
   * personal data, encrypted per user in their own stream: docs/decisions/0014); lists read it from
   * the users read model, so an erasure reaches it.
   */
  recipientUserId: string;
  issuedBy: string;
  issuedAt: string;
  expiresAt: string;
}
export interface FeedbackLinkOpenedData {
  incidentId: string;
  linkId: string;
  openedAt: string;
}
export interface FeedbackLinkRevokedData {
  incidentId: string;
  linkId: string;
  revokedBy: string;
  revokedAt: string;
}
export interface FeedbackLinkUsedData {
  incidentId: string;
  linkId: string;
  /** The id of the feedback recorded on the incident (its receipt page names it). */
  feedbackId: string;
  usedAt: string;
}

export type FeedbackLinkEvent =
  | { type: 'SafeguardingFeedbackLinkIssued'; data: FeedbackLinkIssuedData }
  | { type: 'SafeguardingFeedbackLinkOpened'; data: FeedbackLinkOpenedData }
  | { type: 'SafeguardingFeedbackLinkRevoked'; data: FeedbackLinkRevokedData }
  | { type: 'SafeguardingFeedbackLinkUsed'; data: FeedbackLinkUsedData };

export const FEEDBACK_LINK_EVENT_TYPES: readonly FeedbackLinkEvent['type'][] = [
  'SafeguardingFeedbackLinkIssued',
  'SafeguardingFeedbackLinkOpened',
  'SafeguardingFeedbackLinkRevoked',
  'SafeguardingFeedbackLinkUsed',
];
