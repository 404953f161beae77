import { ApiError, apiRequest } from '../../shared/api/client';
import type { CurrentUser } from '../../shared/current-user';
import { fieldMessage } from '../../shared/forms/field-message';
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

/** The /users/me fields the profile screen edits (server/src/identity/login.controller.ts CurrentUser). */
export interface ProfileUser extends CurrentUser {
  birth_date?: string | null;
  receive_weekly_summary_reports?: boolean;
  requested_number_of_lessons_per_week?: number | null;
  notification_email?: string | null;
  pending_notification_email?: string | null;
}

/** Spec: requested lessons per week 0–50 (server MAX_LESSONS_PER_WEEK). */
export const MAX_LESSONS_PER_WEEK = 50;

const ME = '/api/v1/users/me';

/** The signed-in user's own settings: each is its own `PUT /users/me[/…]` (server: current-user.controller.ts). */
export const meApi = {
  /** `setting` is '' (names), '/timezone', '/birth_date', '/requested_number_of_lessons'… */
  saveSetting: (setting: string, body: unknown) =>
    apiRequest<{ position: string }>(`${ME}${setting}`, { method: 'PUT', json: body }),
  verifyNotificationEmail: (token: string) =>
    apiRequest<{ notification_email: string }>(`${ME}/notification_email/verify`, { query: { token } }),
  changePassword: (current_password: string, password: string) =>
    apiRequest<{ position: string }>(`${ME}/password`, {
      method: 'PUT',
      json: { current_password, password },
      // The answer ends this session: no "session expired" detour on the way to Login.
      handleSessionErrors: false,
    }),
};

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

/** Spec §5 and the server's rule (TokenPasswordBody, RegisterPartnerBody): at least 8 characters. */
export const MIN_PASSWORD_LENGTH = 8;

/** Password twice: at least 8 characters (spec §5, the server's rule) and equal. */
export function passwordErrors(password: string, confirm: string): { password?: string; confirm?: string } {
  const errors: { password?: string; confirm?: string } = {};
  if (password.length < MIN_PASSWORD_LENGTH)
    errors.password = `Use at least ${MIN_PASSWORD_LENGTH} characters`;
  if (confirm !== password) errors.confirm = 'The two passwords do not match';
  return errors;
}

/** A typed dd.MM.yyyy (also d.M.yyyy, with / or -) as yyyy-MM-dd; null unless it is a calendar date. */
export { parseDayMonthYear } from '../../shared/dates';
