import { Alert, Badge, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useServerForm } from '../../../shared/forms/useServerForm';
import { failureText, meApi, type ProfileUser } from '../api';
import { useRefreshMe, useSaveSetting } from '../hooks';
import { Section } from './Section';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function NotificationEmailSection({ user }: { user: ProfileUser }) {
  const save = useSaveSetting<string>(
    '/notification_email',
    'We have sent a confirmation link to the new address.',
    (address) => ({ email: address }),
  );
  const form = useServerForm({ email: '' }, (d) => save(d.email.trim()), {
    validate: (d) => ({ email: EMAIL.test(d.email.trim()) ? undefined : 'Enter a valid e-mail address' }),
    errorsOf: (error) => ({ email: failureText(error) }),
    onSuccess: () => form.reset({ email: '' }),
  });
  return (
    <Section
      title="Notification e-mail"
      description="Where portal notifications are sent. A new address works once you open the link we mail to it."
    >
      <Group gap="xs">
        <Text fz="sm">Current address:</Text>
        <Text fz="sm" fw={600} data-testid="notification-email">
          {user.notification_email || user.email || 'N/A'}
        </Text>
      </Group>
      {user.pending_notification_email && (
        <Alert color="yellow" title="Waiting for confirmation" data-testid="pending-notification-email">
          <Group gap="xs">
            <Badge color="yellow" variant="light">
              Pending
            </Badge>
            <Text fz="sm">
              Open the link sent to <b>{user.pending_notification_email}</b> to start using it.
            </Text>
          </Group>
        </Alert>
      )}
      <form onSubmit={form.onSubmit} noValidate aria-label="Notification e-mail">
        <Stack gap="sm">
          <TextInput
            label="New notification e-mail"
            type="email"
            autoComplete="email"
            value={form.draft.email}
            onChange={(e) => form.set('email', e.currentTarget.value)}
            error={form.err('email')}
          />
          <Group justify="flex-end">
            <Button type="submit" loading={form.pending}>
              Send confirmation link
            </Button>
          </Group>
        </Stack>
      </form>
    </Section>
  );
}

/** The mailed confirmation link opens /profile?token=…: confirm it once, then drop the token from the URL. */
export function VerifyNotificationEmail() {
  const [params, setParams] = useSearchParams();
  const token = params.get('token');
  const refresh = useRefreshMe();
  const started = useRef<string | null>(null);
  const verify = useMutation({
    mutationFn: (t: string) => meApi.verifyNotificationEmail(t),
    meta: { silentErrors: true },
    onSettled: async () => {
      await refresh().catch(() => undefined);
    },
  });
  useEffect(() => {
    if (!token || started.current === token) return;
    started.current = token;
    verify.mutate(token);
    setParams(
      (p) => {
        p.delete('token');
        return p;
      },
      { replace: true },
    );
  }, [token, verify, setParams]);
  if (verify.isSuccess)
    return (
      <Alert color="teal" title="Notification e-mail confirmed" role="status">
        Notifications now go to <b>{verify.data.notification_email}</b>.
      </Alert>
    );
  if (verify.isError)
    return (
      <Alert color="red" title="The address was not confirmed" role="alert">
        {failureText(verify.error)}
      </Alert>
    );
  if (verify.isPending)
    return (
      <Alert color="gray" title="Confirming your notification e-mail…" role="status">
        One moment.
      </Alert>
    );
  return null;
}
