import { Alert, Button, Paper, PasswordInput, Skeleton, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState, type FormEvent, type ReactNode } from 'react';
import { Navigate, useNavigate, useSearchParams } from 'react-router-dom';
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
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<{ password?: string; confirm?: string }>({});
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
  const activate = useMutation({
    mutationFn: (pw: string) => accountApi.activate(token, pw),
    meta: { silentErrors: true },
    onSuccess: (answer) =>
      navigate('/login', { replace: true, state: { notice: answer.msg, login: link.data?.login } }),
  });

  if (
    !token ||
    (link.isError && isInvalidLink(link.error)) ||
    (activate.isError && isInvalidLink(activate.error))
  )
    return <Navigate to={ACTIVATION_INVALID_PATH} replace />;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const next = passwordErrors(password, confirm);
    setErrors(next);
    if (Object.keys(next).length === 0) activate.mutate(password);
  };

  return (
    <AccountFrame title="Activate your account">
      {link.isPending ? (
        <LinkSkeleton />
      ) : link.isError ? (
        <Alert color="red" title="Could not check the link" role="alert">
          {failureText(link.error)}
        </Alert>
      ) : (
        <form onSubmit={submit} noValidate aria-label="Activate your account">
          <Stack gap="md">
            <div>
              <Title order={1} fz="h2">
                Welcome, {link.data.first_name} {link.data.last_name}
              </Title>
              <Text c="dimmed" fz="sm" mt={4}>
                Choose a password to activate your account.
              </Text>
            </div>
            {activate.isError && (
              <Alert color="red" title="The account was not activated" role="alert">
                {failureText(activate.error)}
              </Alert>
            )}
            <TextInput label="Email" value={link.data.login} readOnly autoComplete="username" />
            <PasswordInput
              label="New password"
              autoComplete="new-password"
              required
              autoFocus
              description={`At least ${MIN_PASSWORD_LENGTH} characters`}
              value={password}
              onChange={(e) => {
                setPassword(e.currentTarget.value);
                setErrors((current) => ({ ...current, password: undefined }));
              }}
              error={errors.password}
            />
            <PasswordInput
              label="Repeat the new password"
              autoComplete="new-password"
              required
              value={confirm}
              onChange={(e) => {
                setConfirm(e.currentTarget.value);
                setErrors((current) => ({ ...current, confirm: undefined }));
              }}
              error={errors.confirm}
            />
            <Button type="submit" loading={activate.isPending} fullWidth size="md">
              Activate account
            </Button>
          </Stack>
        </form>
      )}
    </AccountFrame>
  );
}
