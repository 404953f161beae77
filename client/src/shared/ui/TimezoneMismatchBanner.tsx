import { Alert } from '@mantine/core';
import { timezoneMismatch, type CurrentUser } from '../current-user';
import { Icon } from './icons';

export function hoursText(hours: number): string {
  const absolute = Math.abs(hours);
  const rounded = Number.isInteger(absolute) ? String(absolute) : absolute.toFixed(1);
  return `${rounded} ${absolute === 1 ? 'hour' : 'hours'}`;
}

/** Spec §4: when the user's timezone differs from the active network's, say so with the hours difference. */
export function TimezoneMismatchBanner({ user }: { user: CurrentUser | null }) {
  const mismatch = timezoneMismatch(user);
  if (!mismatch) return null;
  const zones =
    mismatch.userTimezone && mismatch.networkTimezone
      ? ` (${mismatch.userTimezone} vs ${mismatch.networkTimezone})`
      : '';
  return (
    <Alert
      color="yellow"
      variant="light"
      radius="md"
      mb="lg"
      icon={<Icon name="clock" size={20} />}
      title="Your timezone differs from your network's"
      data-testid="timezone-mismatch"
    >
      Your timezone is {hoursText(mismatch.hours)} apart from {mismatch.networkName}
      {zones}. Times in the portal are shown in your own timezone.
    </Alert>
  );
}
