import { describe, expect, it } from '@jest/globals';
import type { FeedbackLinkEvent } from '@portal/projections';
import {
  decideFeedbackLink,
  foldFeedbackLinks,
  linkStatus,
  type FeedbackLinkCommand,
} from './feedback-link.decider.js';
import { shortName } from './feedback-links.service.js';
import { thrownKind } from '../platform/domain/domain-error.js';

const incidentId = 'i-1';
const linkId = 'l-1';
const issued: FeedbackLinkEvent = {
  type: 'SafeguardingFeedbackLinkIssued',
  data: {
    incidentId,
    linkId,
    recipientUserId: 'u-1',
    issuedBy: 'lead-1',
    issuedAt: '2026-11-01T10:00:00.000Z',
    expiresAt: '2026-11-04T10:00:00.000Z',
  },
};
const opened: FeedbackLinkEvent = {
  type: 'SafeguardingFeedbackLinkOpened',
  data: { incidentId, linkId, openedAt: '2026-11-01T11:00:00.000Z' },
};
const revoked: FeedbackLinkEvent = {
  type: 'SafeguardingFeedbackLinkRevoked',
  data: { incidentId, linkId, revokedBy: 'lead-1', revokedAt: '2026-11-01T12:00:00.000Z' },
};
const used: FeedbackLinkEvent = {
  type: 'SafeguardingFeedbackLinkUsed',
  data: { incidentId, linkId, feedbackId: 'f-1', usedAt: '2026-11-01T12:00:00.000Z' },
};
const BEFORE = '2026-11-02T10:00:00.000Z';
const AFTER = '2026-11-05T10:00:00.000Z';

const open = (now: string): FeedbackLinkCommand => ({ type: 'OpenLink', incidentId, linkId, now });
const use = (now: string): FeedbackLinkCommand => ({
  type: 'UseLink',
  incidentId,
  linkId,
  feedbackId: 'f-2',
  now,
});
const revoke = (now: string): FeedbackLinkCommand => ({
  type: 'RevokeLink',
  incidentId,
  linkId,
  revokedBy: 'lead-1',
  now,
});

describe('feedback link decider (given / when / then)', () => {
  const table: [string, FeedbackLinkEvent[], FeedbackLinkCommand, string | RegExp][] = [
    ['open a fresh link', [issued], open(BEFORE), 'SafeguardingFeedbackLinkOpened'],
    ['open again', [issued, opened], open(BEFORE), 'SafeguardingFeedbackLinkOpened'],
    ['open an expired link', [issued], open(AFTER), /expired/],
    ['open a revoked link', [issued, revoked], open(BEFORE), /revoked/],
    ['open a used link', [issued, used], open(BEFORE), /already been used/],
    ['open an unknown link', [], open(BEFORE), /not found/],
    ['use an opened link', [issued, opened], use(BEFORE), 'SafeguardingFeedbackLinkUsed'],
    ['use it twice', [issued, used], use(BEFORE), /already been used/],
    ['use after expiry', [issued], use(AFTER), /expired/],
    ['use after revocation', [issued, revoked], use(BEFORE), /revoked/],
    ['revoke', [issued, opened], revoke(BEFORE), 'SafeguardingFeedbackLinkRevoked'],
    ['revoke an expired link', [issued], revoke(AFTER), 'SafeguardingFeedbackLinkRevoked'],
    ['revoke twice', [issued, revoked], revoke(BEFORE), /already revoked/],
    ['revoke a used link', [issued, used], revoke(BEFORE), /already used/],
  ];
  it.each(table)('%s', (_name, given, when, then) => {
    const state = foldFeedbackLinks(given);
    if (typeof then === 'string') expect(decideFeedbackLink(when, state).map((e) => e.type)).toEqual([then]);
    else expect(() => decideFeedbackLink(when, state)).toThrow(then);
  });

  it('refuses by kind: an unknown link is not_found, a dead one gone, a final one cannot be revoked again', () => {
    const kind = (given: FeedbackLinkEvent[], when: FeedbackLinkCommand) =>
      thrownKind(() => decideFeedbackLink(when, foldFeedbackLinks(given)));
    expect(kind([], open(BEFORE))).toBe('not_found');
    expect(kind([issued, used], use(BEFORE))).toBe('gone');
    expect(kind([issued, revoked], open(BEFORE))).toBe('gone');
    expect(kind([issued], use(AFTER))).toBe('gone');
    expect(kind([issued, revoked], revoke(BEFORE))).toBe('conflict');
    expect(kind([issued], open(BEFORE))).toBeUndefined();
  });

  it('issues only once the partner was informed and before the incident is closed', () => {
    const issue = (incidentStatus: 'partner_informed' | 'partner_feedback' | 'closed' | 'actions') =>
      decideFeedbackLink(
        {
          type: 'IssueLink',
          incidentId,
          incidentStatus,
          linkId,
          recipientUserId: 'u-1',
          issuedBy: 'lead-1',
          now: BEFORE,
          expiresAt: AFTER,
        },
        foldFeedbackLinks([]),
      );
    expect(issue('partner_informed')).toHaveLength(1);
    expect(issue('partner_feedback')).toHaveLength(1);
    expect(() => issue('closed')).toThrow(/closed/);
    expect(() => issue('actions')).toThrow(/actions/);
  });

  it('status: every open counts; used and revoked are final; then expiry', () => {
    const link = (events: FeedbackLinkEvent[]) => foldFeedbackLinks(events).get(linkId)!;
    expect(linkStatus(link([issued]), BEFORE)).toBe('issued');
    expect(link([issued, opened, opened]).opens).toHaveLength(2);
    expect(linkStatus(link([issued, opened]), BEFORE)).toBe('opened');
    expect(linkStatus(link([issued, opened]), AFTER)).toBe('expired');
    expect(linkStatus(link([issued, used]), AFTER)).toBe('used');
    expect(linkStatus(link([issued, revoked]), AFTER)).toBe('revoked');
  });

  it('shows a student as first name and last initial', () => {
    expect(shortName('Ada Lovelace')).toBe('Ada L.');
    expect(shortName('  Cher ')).toBe('Cher');
    expect(shortName('Mary Ann de Vries')).toBe('Mary V.');
  });
});
