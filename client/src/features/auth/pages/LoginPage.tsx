import {
  Alert,
  Anchor,
  Button,
  Paper,
  PasswordInput,
  Stack,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { redirectTargetAfterLogin } from '../../../app/guards';
import { useSession } from '../../../shared/session';
import { PRODUCT_NAME } from '../../../shared/ui/BrandMark';
import { useLoginNotice } from '../login-notice';
import { hasPortalAccess } from '../../../app/access';
import type { CurrentUser } from '../../../shared/current-user';
import { describeLoginFailure, fetchCurrentUser, requestAccessToken, type Credentials } from '../api';

interface SignedIn {
  token: string;
  user: CurrentUser;
}

interface FieldErrors {
  username?: string;
  password?: string;
}

function AlertIcon() {
  return (
    <svg
      width={20}
      height={20}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      <circle cx="12" cy="12" r="9" />
      <path d="M12 7.5v5.5M12 16.5v.01" />
    </svg>
  );
}

export function LoginPage() {
  const navigate = useNavigate();
  const location = useLocation();
  const signIn = useSession((state) => state.signIn);
  const usernameRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);
  // Activation and partner registration arrive here with a success notice and the new login.
  const arrival = (location.state ?? {}) as { notice?: unknown; login?: unknown };
  const pending = useLoginNotice();
  const notice = typeof arrival.notice === 'string' ? arrival.notice : pending.notice;
  const [username, setUsername] = useState(
    typeof arrival.login === 'string' ? arrival.login : (pending.login ?? ''),
  );
  // A notice that arrives after this screen (the session ended by another path first) fills the login.
  useEffect(() => {
    if (pending.login) setUsername((current) => current || pending.login!);
  }, [pending.login]);
  const [password, setPassword] = useState('');
  const [passwordVisible, setPasswordVisible] = useState(false);
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});

  const login = useMutation<SignedIn, unknown, Credentials>({
    // The form shows its own failures (no notification).
    meta: { silentErrors: true },
    mutationFn: async (credentials) => {
      const answer = await requestAccessToken(credentials);
      if (typeof answer?.access_token !== 'string' || answer.access_token === '') {
        throw new Error('The sign-in answer carried no access token');
      }
      // Spec §4: after login, fetch the user details and keep them with the token.
      const user = await fetchCurrentUser(answer.access_token);
      return { token: answer.access_token, user };
    },
    onSuccess: ({ token, user }) => {
      signIn(token, user);
      // After a session ended on purpose (a password change) start from the default route, not the
      // screen the user was on when it ended.
      const endedOnPurpose = useLoginNotice.getState().notice !== null;
      useLoginNotice.getState().clear();
      const target = hasPortalAccess(user.permission_list)
        ? redirectTargetAfterLogin(endedOnPurpose ? { ...location, state: null } : location, user)
        : '/forbidden';
      void navigate(target, { replace: true });
    },
    onError: (error) => {
      if (describeLoginFailure(error).credentialsRejected) {
        passwordRef.current?.focus();
        passwordRef.current?.select();
      }
    },
  });

  const failure = login.isError ? describeLoginFailure(login.error) : null;

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (login.isPending) return;
    const errors: FieldErrors = {};
    if (username.trim() === '') errors.username = 'Enter your email address';
    if (password === '') errors.password = 'Enter your password';
    setFieldErrors(errors);
    if (errors.username || errors.password) {
      (errors.username ? usernameRef : passwordRef).current?.focus();
      return;
    }
    login.mutate({ username: username.trim(), password });
  }

  return (
    <Paper withBorder shadow="md" radius="lg" p={{ base: 'lg', xs: 'xl' }}>
      <title>{`Sign in · ${PRODUCT_NAME}`}</title>
      <Stack gap="lg">
        <div>
          <Title order={1} fz="h2">
            Sign in
          </Title>
          <Text c="dimmed" size="sm" mt={4}>
            Use your portal account to continue.
          </Text>
        </div>

        {notice && !failure && (
          <Alert color="teal" variant="light" title="All set" role="status">
            {notice}
          </Alert>
        )}

        {failure && (
          <Alert color="red" variant="light" title={failure.title} icon={<AlertIcon />}>
            {failure.message}
          </Alert>
        )}

        <form onSubmit={handleSubmit} noValidate aria-label="Sign in">
          <Stack gap="md">
            <TextInput
              ref={usernameRef}
              label="Email"
              name="username"
              type="text"
              inputMode="email"
              autoComplete="username"
              autoCapitalize="none"
              spellCheck={false}
              autoFocus
              required
              value={username}
              onChange={(event) => {
                setUsername(event.currentTarget.value);
                if (fieldErrors.username) setFieldErrors((current) => ({ ...current, username: undefined }));
              }}
              error={fieldErrors.username}
            />
            <PasswordInput
              ref={passwordRef}
              label="Password"
              name="password"
              autoComplete="current-password"
              required
              value={password}
              onChange={(event) => {
                setPassword(event.currentTarget.value);
                if (fieldErrors.password) setFieldErrors((current) => ({ ...current, password: undefined }));
              }}
              error={fieldErrors.password}
              visible={passwordVisible}
              onVisibilityChange={setPasswordVisible}
              visibilityToggleFocusable
              visibilityToggleButtonProps={{ 'aria-label': 'Show password' }}
            />
            <Button type="submit" fullWidth size="md" mt="xs" loading={login.isPending}>
              Sign in
            </Button>
            <VisuallyHidden role="status">{login.isPending ? 'Signing in…' : ''}</VisuallyHidden>
            <Anchor component={Link} to="/passwordreset" ta="center" fz="sm">
              Forgot your password?
            </Anchor>
          </Stack>
        </form>
      </Stack>
    </Paper>
  );
}
