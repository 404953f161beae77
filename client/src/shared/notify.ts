import { notifications } from '@mantine/notifications';
import { describeError, isHandledBySessionRules, NOTIFICATION_TIMEOUT_MS } from './errors';

/** When each error text was last shown, so one failure seen by several queries is one toast. */
const shownAt = new Map<string, number>();

/** Whether a toast with this text may show now: not if the same text is still on screen (issue 18). */
export function firstShowing(text: string, now: number, recent: Map<string, number> = shownAt): boolean {
  for (const [key, at] of recent) if (now - at >= NOTIFICATION_TIMEOUT_MS) recent.delete(key);
  if (recent.has(text)) return false;
  recent.set(text, now);
  return true;
}

/** Shows an error as a red notification for 6000 ms, unless the session rules already handled it or the same error is on screen. */
export function notifyError(error: unknown, title?: string): void {
  if (isHandledBySessionRules(error)) return;
  const described = describeError(error);
  if (!firstShowing(`${title ?? described.title}\n${described.message}`, Date.now())) return;
  notifications.show({
    color: 'red',
    title: title ?? described.title,
    message: described.message,
    autoClose: NOTIFICATION_TIMEOUT_MS,
    withBorder: true,
  });
}

export function notifySuccess(message: string, title?: string): void {
  notifications.show({ color: 'teal-dark', title, message, autoClose: NOTIFICATION_TIMEOUT_MS });
}
