import '@mantine/dates/styles.css';
import { Button, Group, Paper, SegmentedControl, Stack, Text, Textarea, Title } from '@mantine/core';
import { DateTimePicker } from '@mantine/dates';
import { useState } from 'react';
import { CAN_BLOCK_USERS, CAN_SET_QUALITY_ISSUE, internalMay } from '../../../app/access';
import { formatInZone, wallClockToIso } from '../../../shared/dates';
import { notifySuccess } from '../../../shared/notify';
import { usePermissions } from '../../../shared/session';
import { userCommands, useUserMutation, type UserView } from '../api';
import { ConfirmDialog } from '../../../shared/ui/ConfirmDialog';

type Action = 'block' | 'unblock' | 'setQuality' | 'unsetQuality' | 'deactivate' | 'activate';

const TITLES: Record<Action, string> = {
  block: 'Block user',
  unblock: 'Unblock user',
  setQuality: 'Set quality issue',
  unsetQuality: 'Clear quality issue',
  deactivate: 'Deactivate user',
  activate: 'Activate user',
};

const DONE: Record<Action, (name: string) => string> = {
  block: (name) => `${name} is blocked.`,
  unblock: (name) => `${name} is unblocked.`,
  setQuality: (name) => `A quality issue is recorded for ${name}.`,
  unsetQuality: (name) => `The quality issue for ${name} is cleared.`,
  deactivate: (name) => `Deactivation saved for ${name}.`,
  activate: (name) => `${name} is active again.`,
};

/** Block/unblock, quality issue, deactivate (now or scheduled) and activate, each behind a confirmation. */
export function AccountActions({ user, canDisable }: { user: UserView; canDisable: boolean }) {
  const permissions = usePermissions();
  const [action, setAction] = useState<Action | null>(null);
  const [reason, setReason] = useState('');
  const [when, setWhen] = useState<'now' | 'scheduled'>('now');
  const [at, setAt] = useState<string | null>(null);

  const mutation = useUserMutation(
    async (a: Action) => {
      switch (a) {
        case 'block':
          return userCommands.block(user.id);
        case 'unblock':
          return userCommands.unblock(user.id);
        case 'setQuality':
          return userCommands.setQualityIssue(user.id, reason.trim());
        case 'unsetQuality':
          return userCommands.unsetQualityIssue(user.id);
        case 'activate':
          return userCommands.activate(user.id);
        case 'deactivate':
          return when === 'now'
            ? userCommands.deactivate(user.id)
            : userCommands.scheduleDeactivation(user.id, wallClockToIso(at!, user.timezone));
      }
    },
    { silentErrors: true },
  );

  const open = (a: Action) => {
    mutation.reset();
    setReason('');
    setWhen('now');
    setAt(null);
    setAction(a);
  };
  const close = () => setAction(null);
  const confirm = () => {
    if (!action) return;
    mutation.mutate(action, {
      onSuccess: () => {
        notifySuccess(DONE[action](user.full_name));
        close();
      },
    });
  };

  const mayBlock = internalMay(permissions, CAN_BLOCK_USERS);
  const mayQuality = internalMay(permissions, CAN_SET_QUALITY_ISSUE) && user.user_type === 'teacher';

  const messages: Record<Action, string> = {
    block: `${user.full_name} will be signed out and cannot sign in until unblocked.`,
    unblock: `${user.full_name} will be able to sign in again.`,
    setQuality: `Record a quality issue for ${user.full_name}. Teachers with a quality issue cannot access cover requests.`,
    unsetQuality: `Clear the quality issue recorded for ${user.full_name}.`,
    deactivate: `End ${user.full_name}'s access to the portal, now or at a chosen time.`,
    activate: `Give ${user.full_name} access to the portal again.`,
  };

  return (
    <Paper withBorder radius="md" p="md">
      <Title order={2} fz="h4" mb="sm">
        Account
      </Title>
      <Stack gap="xs">
        <Text size="sm">
          {user.has_access ? 'Has access to the portal' : 'No access to the portal (deactivated)'}
          {user.is_blocked ? '; blocked from signing in.' : '.'}
        </Text>
        {user.scheduled_for_deactivation && (
          <Text size="sm">
            Access ends on {formatInZone(user.scheduled_for_deactivation, user.timezone)} ({user.timezone}).
          </Text>
        )}
        {user.teacher_profile?.has_quality_issue && (
          <Text size="sm">
            Quality issue: {user.teacher_profile.quality_issue_reason ?? 'no reason given'}
          </Text>
        )}
        <Group gap="xs" wrap="wrap">
          {canDisable &&
            (user.has_access ? (
              <Button variant="light" color="red" onClick={() => open('deactivate')}>
                Deactivate
              </Button>
            ) : (
              <Button variant="light" onClick={() => open('activate')}>
                Activate
              </Button>
            ))}
          {mayBlock &&
            (user.is_blocked ? (
              <Button variant="light" onClick={() => open('unblock')}>
                Unblock
              </Button>
            ) : (
              <Button variant="light" color="red" onClick={() => open('block')}>
                Block
              </Button>
            ))}
          {mayQuality &&
            (user.teacher_profile?.has_quality_issue ? (
              <Button variant="light" onClick={() => open('unsetQuality')}>
                Clear quality issue
              </Button>
            ) : (
              <Button variant="light" color="orange" onClick={() => open('setQuality')}>
                Set quality issue
              </Button>
            ))}
        </Group>
      </Stack>

      <ConfirmDialog
        opened={action !== null}
        title={action ? TITLES[action] : ''}
        message={action ? messages[action] : ''}
        confirmLabel={action ? TITLES[action] : ''}
        danger={action === 'block' || action === 'deactivate' || action === 'setQuality'}
        pending={mutation.isPending}
        error={mutation.error}
        confirmDisabled={
          (action === 'setQuality' && reason.trim() === '') ||
          (action === 'deactivate' && when === 'scheduled' && !at)
        }
        onConfirm={confirm}
        onClose={close}
      >
        {action === 'setQuality' && (
          <Textarea
            label="Reason"
            withAsterisk
            data-autofocus
            autosize
            minRows={3}
            value={reason}
            onChange={(e) => setReason(e.currentTarget.value)}
          />
        )}
        {action === 'deactivate' && (
          <Stack gap="xs">
            <SegmentedControl
              aria-label="When"
              value={when}
              onChange={(v) => setWhen(v)}
              data={[
                { value: 'now', label: 'Now' },
                { value: 'scheduled', label: 'At a date and time' },
              ]}
            />
            {when === 'scheduled' && (
              <DateTimePicker
                label="Access ends at"
                description={`In the user's timezone (${user.timezone})`}
                withAsterisk
                valueFormat="DD.MM.YYYY HH:mm"
                placeholder="Pick a date and time"
                minDate={new Date()}
                nextLabel="Next month"
                previousLabel="Previous month"
                timePickerProps={{ hoursInputLabel: 'Hours', minutesInputLabel: 'Minutes' }}
                submitButtonProps={{ 'aria-label': 'Confirm date and time' }}
                value={at}
                onChange={(value) => setAt(value)}
                clearable
              />
            )}
          </Stack>
        )}
      </ConfirmDialog>
    </Paper>
  );
}
