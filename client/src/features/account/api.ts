import { ApiError, apiRequest } from '../../shared/api/client';
import { fieldMessage } from '../../shared/forms';
import { UNREACHABLE_MESSAGE } from '../auth/api';

/** Shapes of server/src/identity/activation.controller.ts and invitations/customer-invitations.controller.ts. */
export interface ActivationLink {
  valid: true;
  login: string;
  first_name: string;
  last_name: string;
}

export interface InvitationLink {
  valid: true;
  email: string;
  customer_name: string | null;
  customer_type: string;
  customer_type_label: string;
}

export const ACTIVATION_INVALID_PATH = '/activate/invalid-token';
export const REGISTRATION_INVALID_PATH = '/register/partner/invalid-token';

/** Server answer for an invalid, used or expired link: 400 with code INVALID_TOKEN (also a malformed token: 422). */
export function isInvalidLink(error: unknown): boolean {
  if (!(error instanceof ApiError)) return false;
  const body = error.body as { code?: unknown } | null;
  if (error.status === 400 && body && typeof body === 'object' && body.code === 'INVALID_TOKEN') return true;
  return error.status === 404 || (error.status === 422 && /token/i.test(error.detailText ?? ''));
}

/** A refused request's message for the user (capitalised field names), or the "unreachable" text. */
export function failureText(error: unknown): string {
  if (error instanceof ApiError && !error.isNetworkError && !error.isServerError)
    return fieldMessage(error.detailText) ?? 'The request was refused.';
  return UNREACHABLE_MESSAGE;
}

export const accountApi = {
  checkActivation: (token: string) =>
    apiRequest<ActivationLink>(`/api/v1/activate/${encodeURIComponent(token)}`, {
      handleSessionErrors: false,
    }),
  activate: (token: string, password: string) =>
    apiRequest<{ msg: string }>('/api/v1/activate', {
      method: 'POST',
      json: { token, password },
      handleSessionErrors: false,
    }),
  checkInvitation: (token: string) =>
    apiRequest<InvitationLink>(`/api/v1/register/partner/invite/${encodeURIComponent(token)}`, {
      handleSessionErrors: false,
    }),
  register: (body: { token: string; first_name: string; last_name: string; password: string }) =>
    apiRequest<{ id: string }>('/api/v1/register/partner', {
      method: 'POST',
      json: body,
      handleSessionErrors: false,
    }),
};

/** Every IANA time zone the browser knows (the server validates with the same database). */
export function timezoneOptions(): string[] {
  const intl = Intl as typeof Intl & { supportedValuesOf?: (key: string) => string[] };
  const zones = intl.supportedValuesOf?.('timeZone') ?? [];
  return zones.includes('UTC') ? zones : ['UTC', ...zones];
}
