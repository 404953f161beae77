import { Alert, Anchor, Button, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { ApiError } from '../../../shared/api/client';
import { useServerForm } from '../../../shared/forms/useServerForm';
import { PRODUCT_NAME } from '../../../shared/ui/BrandMark';
import { UNREACHABLE_MESSAGE, requestRecoveryLink, setNewPassword } from '../api';

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
  const [sent, setSent] = useState<string | null>(null);
  // Every refusal is shown above the form (`errorsOf` names no field), as before.
  const form = useServerForm({ email: '' }, (d) => requestRecoveryLink(d.email.trim()), {
    validate: (d) => ({
      email: /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(d.email.trim())
        ? undefined
        : 'Enter the e-mail address of your account',
    }),
    errorsOf: () => undefined,
    onSuccess: (answer) => setSent(answer.msg),
  });
  if (sent !== null) {
    return (
      <Stack gap="sm">
        <Title order={1} fz="h2">
          Check your e-mail
        </Title>
        <Text>{sent}</Text>
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
    <form onSubmit={form.onSubmit} noValidate>
      <Stack gap="md">
        <div>
          <Title order={1} fz="h2">
            Forgot your password?
          </Title>
          <Text c="dimmed" fz="sm" mt={4}>
            Enter your account&apos;s e-mail address and we&apos;ll send you a link to choose a new one.
          </Text>
        </div>
        {form.failure !== null && (
          <Alert color="red" title="Could not send the link" role="alert">
            {failureText(form.failure)}
          </Alert>
        )}
        <TextInput
          label="Email"
          type="email"
          autoComplete="email"
          required
          autoFocus
          value={form.draft.email}
          onChange={(e) => form.set('email', e.currentTarget.value)}
          error={form.err('email')}
        />
        <Button type="submit" loading={form.pending} fullWidth size="md">
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
  const [changed, setChanged] = useState<string | null>(null);
  // Every refusal is shown above the form (`errorsOf` names no field), as before.
  const form = useServerForm({ password: '', confirm: '' }, (d) => setNewPassword(token, d.password), {
    validate: (d) => ({
      password:
        d.password.length < MIN_PASSWORD_LENGTH
          ? `Use at least ${MIN_PASSWORD_LENGTH} characters`
          : undefined,
      confirm: d.confirm !== d.password ? 'The two passwords do not match' : undefined,
    }),
    errorsOf: () => undefined,
    onSuccess: (answer) => setChanged(answer.msg),
  });
  if (changed !== null) {
    return (
      <Stack gap="sm">
        <Title order={1} fz="h2">
          Password changed
        </Title>
        <Text>{changed}</Text>
        <Button component={Link} to="/login" fullWidth>
          Sign in
        </Button>
      </Stack>
    );
  }
  return (
    <form onSubmit={form.onSubmit} noValidate>
      <Stack gap="md">
        <Title order={1} fz="h2">
          Choose a new password
        </Title>
        {form.failure !== null && (
          <Alert color="red" title="The password was not changed" role="alert">
            {failureText(form.failure)}{' '}
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
          Change password
        </Button>
      </Stack>
    </form>
  );
}
