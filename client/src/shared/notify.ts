import { notifications } from '@mantine/notifications';
import { describeError, isHandledBySessionRules, NOTIFICATION_TIMEOUT_MS } from './errors';

/** Shows an error as a red notification for 6000 ms, unless the session rules already handled it. */
export function notifyError(error: unknown, title?: string): void {
  if (isHandledBySessionRules(error)) return;
  const described = describeError(error);
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
