import { Alert, Button, Group, PasswordInput, SimpleGrid, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { ApiError } from '../../../shared/api/client';
import { useServerForm } from '../../../shared/forms/useServerForm';
import { useSession } from '../../../shared/session';
import { useLoginNotice } from '../../auth/login-notice';
import { isImpersonating } from '../../impersonation/impersonation';
import { failureText, meApi, passwordErrors, type ProfileUser } from '../api';
import { Section } from './Section';

/** The server names the field first ("current_password: is not your current password"). */
function passwordErrorsOf(error: unknown) {
  const detail = error instanceof ApiError ? (error.detailText ?? '') : '';
  const match = /^(current_password|password): ([\s\S]*)$/.exec(detail);
  return match ? { [match[1]!]: match[2]! } : undefined;
}

/**
 * Change password (the account menu's "Change password" opens /profile?section=password). The server
 * ends every session of the user, this one included, so the user signs in again with the new password.
 */
export function PasswordSection({ user }: { user: ProfileUser }) {
  const [params] = useSearchParams();
  const ref = useRef<HTMLDivElement>(null);
  const navigate = useNavigate();
  const signOut = useSession((state) => state.signOut);
  const queryClient = useQueryClient();
  const form = useServerForm(
    { current_password: '', password: '', confirm: '' },
    (d) => meApi.changePassword(d.current_password, d.password),
    {
      validate: (d) => ({
        ...passwordErrors(d.password, d.confirm),
        ...(d.current_password ? {} : { current_password: 'Enter your current password' }),
      }),
      errorsOf: passwordErrorsOf,
      onSuccess: () => {
        // The server has ended every session of this user; the live channel may report it first. The
        // notice is kept for Login whichever path gets there.
        useLoginNotice
          .getState()
          .show(
            'Your password has been changed. Sign in with the new password.',
            user.login ?? user.email ?? null,
          );
        signOut();
        queryClient.clear();
        void navigate('/login', { replace: true });
      },
    },
  );
  const { draft, set, err } = form;
  useEffect(() => {
    if (params.get('section') === 'password') ref.current?.scrollIntoView({ block: 'center' });
  }, [params]);

  if (isImpersonating())
    return (
      <Section title="Password">
        <Text size="sm" c="dimmed">
          You are signed in as this user by impersonation: their password cannot be changed from here.
        </Text>
      </Section>
    );
  return (
    <div ref={ref}>
      <Section
        title="Password"
        description="Changing it signs you out everywhere, this browser included; then sign in with the new one."
      >
        <form onSubmit={form.onSubmit} noValidate aria-label="Change password">
          <Stack gap="sm">
            <PasswordInput
              label="Current password"
              required
              autoComplete="current-password"
              value={draft.current_password}
              onChange={(e) => set('current_password', e.currentTarget.value)}
              error={err('current_password')}
            />
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <PasswordInput
                label="New password"
                required
                autoComplete="new-password"
                description="At least 8 characters"
                value={draft.password}
                onChange={(e) => set('password', e.currentTarget.value)}
                error={err('password')}
              />
              <PasswordInput
                label="New password again"
                required
                autoComplete="new-password"
                value={draft.confirm}
                onChange={(e) => set('confirm', e.currentTarget.value)}
                error={err('confirm')}
              />
            </SimpleGrid>
            {form.failure !== null && (
              <Alert color="red" role="alert">
                {failureText(form.failure)}
              </Alert>
            )}
            <Group justify="flex-end">
              <Button type="submit" loading={form.pending}>
                Change password
              </Button>
            </Group>
          </Stack>
        </form>
      </Section>
    </div>
  );
}
