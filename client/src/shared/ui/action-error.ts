import { ApiError } from '../api/client';

/** The server's answer in words for a failed action (its `detail` when it sent one). */
export function actionErrorText(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.isNetworkError) return 'The portal could not be reached. Check your connection and try again.';
    return error.detailText ?? `The action failed (error ${error.status}).`;
  }
  return error instanceof Error ? error.message : 'The action failed.';
}
