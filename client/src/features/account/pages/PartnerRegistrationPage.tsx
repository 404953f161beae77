import { Alert, Button, Group, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Navigate, useNavigate, useSearchParams } from 'react-router-dom';
import { useServerForm } from '../../../shared/forms/useServerForm';
import {
  MIN_PASSWORD_LENGTH,
  REGISTRATION_INVALID_PATH,
  accountApi,
  failureText,
  isInvalidLink,
  passwordErrors,
} from '../api';
import { AccountFrame, LinkSkeleton } from './ActivatePage';

type Errors = { first_name?: string; last_name?: string; password?: string; confirm?: string };

/** /register/partner/invite?token=…: an invited partner creates their account (spec §2). */
export function PartnerRegistrationPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const navigate = useNavigate();
  const invitation = useQuery({
    queryKey: ['partner-invitation-link', token],
    queryFn: () => accountApi.checkInvitation(token),
    enabled: token !== '',
    retry: false,
    gcTime: 0,
    staleTime: Infinity,
    refetchOnWindowFocus: false,
    meta: { silentErrors: true },
  });
  // Every refusal is shown above the form (`errorsOf` names no field), as before.
  const form = useServerForm(
    { first_name: '', last_name: '', password: '', confirm: '' },
    (d) =>
      accountApi.register({
        token,
        first_name: d.first_name.trim(),
        last_name: d.last_name.trim(),
        password: d.password,
      }),
    {
      validate: (d) => {
        const next: Errors = passwordErrors(d.password, d.confirm);
        if (!d.first_name.trim()) next.first_name = 'Enter your first name';
        if (!d.last_name.trim()) next.last_name = 'Enter your last name';
        if (d.first_name.trim().length > 100) next.first_name = 'Use at most 100 characters';
        if (d.last_name.trim().length > 100) next.last_name = 'Use at most 100 characters';
        return next;
      },
      errorsOf: () => undefined,
      onSuccess: () =>
        void navigate('/login', {
          replace: true,
          state: {
            notice: 'Your account has been created. Sign in with your e-mail address and new password.',
            login: invitation.data?.email,
          },
        }),
    },
  );
  const { draft, err } = form;

  if (
    !token ||
    (invitation.isError && isInvalidLink(invitation.error)) ||
    (form.failure !== null && isInvalidLink(form.failure))
  )
    return <Navigate to={REGISTRATION_INVALID_PATH} replace />;

  const set = (key: keyof typeof draft) => (e: React.ChangeEvent<HTMLInputElement>) =>
    form.set(key, e.currentTarget.value);

  return (
    <AccountFrame title="Partner registration">
      {invitation.isPending ? (
        <LinkSkeleton />
      ) : invitation.isError ? (
        <Alert color="red" title="Could not check the invitation" role="alert">
          {failureText(invitation.error)}
        </Alert>
      ) : (
        <form onSubmit={form.onSubmit} noValidate aria-label="Create your account">
          <Stack gap="md">
            <div>
              <Title order={1} fz="h2">
                Create your account
              </Title>
              <Text c="dimmed" fz="sm" mt={4}>
                You are invited as <b>{invitation.data.customer_type_label}</b>
                {invitation.data.customer_name ? (
                  <>
                    {' '}
                    for <b>{invitation.data.customer_name}</b>
                  </>
                ) : null}
                .
              </Text>
            </div>
            {form.failure !== null && (
              <Alert color="red" title="The account was not created" role="alert">
                {failureText(form.failure)}
              </Alert>
            )}
            <TextInput label="Email" value={invitation.data.email} readOnly autoComplete="username" />
            <Group grow align="flex-start">
              <TextInput
                label="First name"
                required
                autoFocus
                autoComplete="given-name"
                value={draft.first_name}
                onChange={set('first_name')}
                error={err('first_name')}
              />
              <TextInput
                label="Last name"
                required
                autoComplete="family-name"
                value={draft.last_name}
                onChange={set('last_name')}
                error={err('last_name')}
              />
            </Group>
            <PasswordInput
              label="Password"
              autoComplete="new-password"
              required
              description={`At least ${MIN_PASSWORD_LENGTH} characters`}
              value={draft.password}
              onChange={set('password')}
              error={err('password')}
            />
            <PasswordInput
              label="Repeat the password"
              autoComplete="new-password"
              required
              value={draft.confirm}
              onChange={set('confirm')}
              error={err('confirm')}
            />
            <Button type="submit" loading={form.pending} fullWidth size="md">
              Create account
            </Button>
          </Stack>
        </form>
      )}
    </AccountFrame>
  );
}
