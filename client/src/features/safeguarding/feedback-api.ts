import { ApiError, apiRequest } from '../../shared/api/client';

/** Partner feedback by token link (server/src/safeguarding/feedback-links.*, docs/decisions/0030). */

export type FeedbackLinkStatus = 'issued' | 'opened' | 'used' | 'expired' | 'revoked';

export interface FeedbackLink {
  id: string;
  email: string;
  recipient_user_id: string;
  status: FeedbackLinkStatus;
  issued_by: string;
  issued_at: string;
  expires_at: string;
  opens: string[];
  revoked_at: string | null;
  used_at: string | null;
  feedback_id: string | null;
}

export interface FeedbackSummary {
  occurred_at: string;
  types: string[];
  students: string[];
  expires_at: string;
}

export interface FeedbackSubmitted {
  feedback_id: string;
  confirm_token: string;
  confirm_expires_at: string;
}

export interface FeedbackReceipt {
  feedback_id: string;
  feedback: string;
  submitted_at: string;
  occurred_at: string;
  types: string[];
}

export const FEEDBACK_MAX_LENGTH = 20_000;
export const FEEDBACK_INVALID_TOKEN_PATH = '/safeguarding-incident/feedback/invalid-token';
export const FEEDBACK_SUBMITTED_PATH = '/safeguarding-incident/feedback/submitted';
export const feedbackConfirmPath = (feedbackId: string, token: string) =>
  `/safeguarding-incident/feedback/${feedbackId}/confirm/${token}`;

/** 404 (unknown) and 410 (used, expired, revoked, incident closed) send the holder to the invalid-token page. */
export const isDeadLink = (error: unknown) =>
  error instanceof ApiError && (error.status === 404 || error.status === 410);

const links = (incidentId: string) => `/api/v1/safeguarding-incidents/${incidentId}/feedback-links`;
const pub = (path: string) => `/api/v1/safeguarding-feedback/${path}`;

export interface FeedbackRecipient {
  id: string;
  full_name: string;
  email: string;
  customer_type: string | null;
  customer_name: string | null;
}

export const feedbackApi = {
  list: (incidentId: string) => apiRequest<{ items: FeedbackLink[] }>(links(incidentId)),
  /** The partner users of the incident's schools a link may go to. */
  recipients: (incidentId: string) =>
    apiRequest<{ items: FeedbackRecipient[] }>(`${links(incidentId)}/recipients`),
  issue: (incidentId: string, email: string, expiresInHours?: number) =>
    apiRequest<{ id: string; expires_at: string; position: string }>(links(incidentId), {
      method: 'POST',
      json: { email, ...(expiresInHours ? { expires_in_hours: expiresInHours } : {}) },
    }),
  revoke: (incidentId: string, linkId: string) =>
    apiRequest<{ id: string; position: string }>(`${links(incidentId)}/${linkId}`, { method: 'DELETE' }),

  open: (token: string) =>
    apiRequest<FeedbackSummary>(pub(encodeURIComponent(token)), { handleSessionErrors: false }),
  submit: (token: string, feedback: string) =>
    apiRequest<FeedbackSubmitted>(pub(encodeURIComponent(token)), {
      method: 'POST',
      json: { feedback },
      handleSessionErrors: false,
    }),
  receipt: (feedbackId: string, token: string) =>
    apiRequest<FeedbackReceipt>(
      pub(`${encodeURIComponent(feedbackId)}/confirm/${encodeURIComponent(token)}`),
      { handleSessionErrors: false },
    ),
};
