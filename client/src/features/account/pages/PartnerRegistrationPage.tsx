import { Alert, Button, Group, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Navigate, useNavigate, useSearchParams } from 'react-router-dom';
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
  const [draft, setDraft] = useState({ first_name: '', last_name: '', password: '', confirm: '' });
  const [errors, setErrors] = useState<Errors>({});
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
  const register = useMutation({
    mutationFn: () =>
      accountApi.register({
        token,
        first_name: draft.first_name.trim(),
        last_name: draft.last_name.trim(),
        password: draft.password,
      }),
    meta: { silentErrors: true },
    onSuccess: () =>
      navigate('/login', {
        replace: true,
        state: {
          notice: 'Your account has been created. Sign in with your e-mail address and new password.',
          login: invitation.data?.email,
        },
      }),
  });

  if (
    !token ||
    (invitation.isError && isInvalidLink(invitation.error)) ||
    (register.isError && isInvalidLink(register.error))
  )
    return <Navigate to={REGISTRATION_INVALID_PATH} replace />;

  const set = (key: keyof typeof draft) => (e: React.ChangeEvent<HTMLInputElement>) => {
    const value = e.currentTarget.value;
    setDraft((d) => ({ ...d, [key]: value }));
    setErrors((current) => ({ ...current, [key]: undefined }));
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const next: Errors = passwordErrors(draft.password, draft.confirm);
    if (!draft.first_name.trim()) next.first_name = 'Enter your first name';
    if (!draft.last_name.trim()) next.last_name = 'Enter your last name';
    if (draft.first_name.trim().length > 100) next.first_name = 'Use at most 100 characters';
    if (draft.last_name.trim().length > 100) next.last_name = 'Use at most 100 characters';
    setErrors(next);
    if (Object.keys(next).length === 0) register.mutate();
  };

  return (
    <AccountFrame title="Partner registration">
      {invitation.isPending ? (
        <LinkSkeleton />
      ) : invitation.isError ? (
        <Alert color="red" title="Could not check the invitation" role="alert">
          {failureText(invitation.error)}
        </Alert>
      ) : (
        <form onSubmit={submit} noValidate aria-label="Create your account">
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
            {register.isError && (
              <Alert color="red" title="The account was not created" role="alert">
                {failureText(register.error)}
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
                error={errors.first_name}
              />
              <TextInput
                label="Last name"
                required
                autoComplete="family-name"
                value={draft.last_name}
                onChange={set('last_name')}
                error={errors.last_name}
              />
            </Group>
            <PasswordInput
              label="Password"
              autoComplete="new-password"
              required
              description={`At least ${MIN_PASSWORD_LENGTH} characters`}
              value={draft.password}
              onChange={set('password')}
              error={errors.password}
            />
            <PasswordInput
              label="Repeat the password"
              autoComplete="new-password"
              required
              value={draft.confirm}
              onChange={set('confirm')}
              error={errors.confirm}
            />
            <Button type="submit" loading={register.isPending} fullWidth size="md">
              Create account
            </Button>
          </Stack>
        </form>
      )}
    </AccountFrame>
  );
}
