import { Alert, Anchor, Button, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { ApiError, apiRequest } from '../../../shared/api/client';
import { PRODUCT_NAME } from '../../../shared/ui/BrandMark';
import { UNREACHABLE_MESSAGE } from '../api';

/** Spec §5: minimum password length 8. */
export const MIN_PASSWORD_LENGTH = 8;

function failureText(error: unknown): string {
  if (error instanceof ApiError && !error.isNetworkError && !error.isServerError) {
    return error.detailText ?? 'The request was refused.';
  }
  return UNREACHABLE_MESSAGE;
}

/** /passwordreset: ask for a recovery link, or (with ?token=) choose a new password. */
export function PasswordResetPage() {
  const [params] = useSearchParams();
  const token = params.get('token');
  return (
    <Paper withBorder radius="lg" p="xl" shadow="sm" w="100%" maw={420}>
      <title>{`Password reset · ${PRODUCT_NAME}`}</title>
      {token ? <NewPasswordForm token={token} /> : <RequestLinkForm />}
    </Paper>
  );
}

function RequestLinkForm() {
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);
  const request = useMutation({
    mutationFn: (address: string) =>
      apiRequest<{ msg: string }>(`/api/v1/password-recovery/${encodeURIComponent(address)}`, {
        method: 'POST',
        handleSessionErrors: false,
      }),
    meta: { silentErrors: true },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const address = email.trim();
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(address)) {
      setError('Enter the e-mail address of your account');
      return;
    }
    setError(null);
    request.mutate(address);
  };
  if (request.isSuccess) {
    return (
      <Stack gap="sm">
        <Title order={1} fz="h2">
          Check your e-mail
        </Title>
        <Text>{request.data.msg}</Text>
        <Text c="dimmed" fz="sm">
          The link works once and expires after a while. Nothing arrived? Check your spam folder or ask again.
        </Text>
        <Anchor component={Link} to="/login">
          Back to sign in
        </Anchor>
      </Stack>
    );
  }
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <div>
          <Title order={1} fz="h2">
            Forgot your password?
          </Title>
          <Text c="dimmed" fz="sm" mt={4}>
            Enter your account&apos;s e-mail address and we&apos;ll send you a link to choose a new one.
          </Text>
        </div>
        {request.isError && (
          <Alert color="red" title="Could not send the link" role="alert">
            {failureText(request.error)}
          </Alert>
        )}
        <TextInput
          label="Email"
          type="email"
          autoComplete="email"
          required
          autoFocus
          value={email}
          onChange={(e) => setEmail(e.currentTarget.value)}
          error={error}
        />
        <Button type="submit" loading={request.isPending} fullWidth size="md">
          Send recovery link
        </Button>
        <Anchor component={Link} to="/login" ta="center" fz="sm">
          Back to sign in
        </Anchor>
      </Stack>
    </form>
  );
}

function NewPasswordForm({ token }: { token: string }) {
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<{ password?: string; confirm?: string }>({});
  const change = useMutation({
    mutationFn: (newPassword: string) =>
      apiRequest<{ msg: string }>('/api/v1/set-new-password', {
        method: 'POST',
        json: { token, password: newPassword },
        handleSessionErrors: false,
      }),
    meta: { silentErrors: true },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const next: typeof errors = {};
    if (password.length < MIN_PASSWORD_LENGTH)
      next.password = `Use at least ${MIN_PASSWORD_LENGTH} characters`;
    if (confirm !== password) next.confirm = 'The two passwords do not match';
    setErrors(next);
    if (Object.keys(next).length === 0) change.mutate(password);
  };
  if (change.isSuccess) {
    return (
      <Stack gap="sm">
        <Title order={1} fz="h2">
          Password changed
        </Title>
        <Text>{change.data.msg}</Text>
        <Button component={Link} to="/login" fullWidth>
          Sign in
        </Button>
      </Stack>
    );
  }
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <Title order={1} fz="h2">
          Choose a new password
        </Title>
        {change.isError && (
          <Alert color="red" title="The password was not changed" role="alert">
            {failureText(change.error)}{' '}
            <Anchor component={Link} to="/passwordreset">
              Ask for a new link
            </Anchor>
          </Alert>
        )}
        <PasswordInput
          label="New password"
          autoComplete="new-password"
          required
          autoFocus
          description={`At least ${MIN_PASSWORD_LENGTH} characters`}
          value={password}
          onChange={(e) => setPassword(e.currentTarget.value)}
          error={errors.password}
        />
        <PasswordInput
          label="Repeat the new password"
          autoComplete="new-password"
          required
          value={confirm}
          onChange={(e) => setConfirm(e.currentTarget.value)}
          error={errors.confirm}
        />
        <Button type="submit" loading={change.isPending} fullWidth size="md">
          Change password
        </Button>
      </Stack>
    </form>
  );
}
