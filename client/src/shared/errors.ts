import { ApiError } from './api/client';

/** Spec §9: notifications stay for 6000 ms. */
export const NOTIFICATION_TIMEOUT_MS = 6000;

/**
 * Errors the API client's session rules already handle (spec §8): 401, 403 "Could not validate
 * credentials" (→ Login) and 404 "User not found" (→ NotFound). They are not shown again as notifications.
 */
export function isHandledBySessionRules(error: unknown): boolean {
  if (!(error instanceof ApiError)) return false;
  if (error.status === 401) return true;
  if (error.status === 403 && error.detail === 'Could not validate credentials') return true;
  return error.status === 404 && error.detail === 'User not found';
}

/** The title and message a notification shows for an error. */
export function describeError(error: unknown): { title: string; message: string } {
  if (error instanceof ApiError) {
    if (error.isNetworkError) {
      return {
        title: 'Portal unreachable',
        message: 'The portal could not be reached. Check your connection and try again.',
      };
    }
    if (error.isServerError) {
      return {
        title: 'Something went wrong',
        message: error.detailText ?? `The portal could not complete the request (error ${error.status}).`,
      };
    }
    if (error.status === 403) {
      return { title: 'Not allowed', message: error.detailText ?? 'You do not have permission to do that.' };
    }
    return {
      title: 'Request failed',
      message: error.detailText ?? `The request failed (error ${error.status}).`,
    };
  }
  if (error instanceof Error && error.message.trim() !== '') {
    return { title: 'Something went wrong', message: error.message };
  }
  return { title: 'Something went wrong', message: 'An unexpected error occurred. Please try again.' };
}
