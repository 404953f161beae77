import { Alert, Button, Paper, PasswordInput, Skeleton, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode } from 'react';
import { Navigate, useNavigate, useSearchParams } from 'react-router-dom';
import { useServerForm } from '../../../shared/forms/useServerForm';
import { PRODUCT_NAME } from '../../../shared/ui/BrandMark';
import {
  ACTIVATION_INVALID_PATH,
  MIN_PASSWORD_LENGTH,
  accountApi,
  failureText,
  isInvalidLink,
  passwordErrors,
} from '../api';

export function AccountFrame({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Paper withBorder radius="lg" p="xl" shadow="sm" w="100%" maw={440}>
      <title>{`${title} · ${PRODUCT_NAME}`}</title>
      {children}
    </Paper>
  );
}

export function LinkSkeleton() {
  return (
    <Stack aria-busy="true" aria-label="Checking the link">
      <Skeleton height={28} width="60%" />
      <Skeleton height={36} />
      <Skeleton height={36} />
    </Stack>
  );
}

/** /activate?token=…: a user created without a password chooses one (spec §2). */
export function ActivatePage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const navigate = useNavigate();
  const link = useQuery({
    queryKey: ['activation-link', token],
    queryFn: () => accountApi.checkActivation(token),
    enabled: token !== '',
    retry: false,
    gcTime: 0,
    staleTime: Infinity,
    refetchOnWindowFocus: false,
    meta: { silentErrors: true },
  });
  // Every refusal is shown above the form (`errorsOf` names no field), as before.
  const form = useServerForm({ password: '', confirm: '' }, (d) => accountApi.activate(token, d.password), {
    validate: (d) => passwordErrors(d.password, d.confirm),
    errorsOf: () => undefined,
    onSuccess: (answer) =>
      void navigate('/login', { replace: true, state: { notice: answer.msg, login: link.data?.login } }),
  });

  if (
    !token ||
    (link.isError && isInvalidLink(link.error)) ||
    (form.failure !== null && isInvalidLink(form.failure))
  )
    return <Navigate to={ACTIVATION_INVALID_PATH} replace />;

  return (
    <AccountFrame title="Activate your account">
      {link.isPending ? (
        <LinkSkeleton />
      ) : link.isError ? (
        <Alert color="red" title="Could not check the link" role="alert">
          {failureText(link.error)}
        </Alert>
      ) : (
        <form onSubmit={form.onSubmit} noValidate aria-label="Activate your account">
          <Stack gap="md">
            <div>
              <Title order={1} fz="h2">
                Welcome, {link.data.first_name} {link.data.last_name}
              </Title>
              <Text c="dimmed" fz="sm" mt={4}>
                Choose a password to activate your account.
              </Text>
            </div>
            {form.failure !== null && (
              <Alert color="red" title="The account was not activated" role="alert">
                {failureText(form.failure)}
              </Alert>
            )}
            <TextInput label="Email" value={link.data.login} readOnly autoComplete="username" />
            <PasswordInput
              label="New password"
              autoComplete="new-password"
              required
              autoFocus
              description={`At least ${MIN_PASSWORD_LENGTH} characters`}
              value={form.draft.password}
              onChange={(e) => form.set('password', e.currentTarget.value)}
              error={form.err('password')}
            />
            <PasswordInput
              label="Repeat the new password"
              autoComplete="new-password"
              required
              value={form.draft.confirm}
              onChange={(e) => form.set('confirm', e.currentTarget.value)}
              error={form.err('confirm')}
            />
            <Button type="submit" loading={form.pending} fullWidth size="md">
              Activate account
            </Button>
          </Stack>
        </form>
      )}
    </AccountFrame>
  );
}
