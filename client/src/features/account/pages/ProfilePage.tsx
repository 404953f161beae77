import '@mantine/dates/styles.css';
import {
  Alert,
  Badge,
  Button,
  Group,
  NumberInput,
  Paper,
  PasswordInput,
  Select,
  SimpleGrid,
  Skeleton,
  Stack,
  Switch,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { DateInput } from '@mantine/dates';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { ApiError, apiRequest } from '../../../shared/api/client';
import { fieldMessage } from '../../../shared/forms/field-message';
import type { CurrentUser } from '../../../shared/current-user';
import { DATE_FORMAT, formatInZone } from '../../../shared/dates';
import { notifySuccess } from '../../../shared/notify';
import { useSession } from '../../../shared/session';
import { PRODUCT_NAME } from '../../../shared/ui/BrandMark';
import { fetchCurrentUser } from '../../auth/api';
import { useLoginNotice } from '../../auth/login-notice';
import { isImpersonating } from '../../impersonation/impersonation';
import { failureText, parseDayMonthYear, passwordErrors, timezoneOptions } from '../api';

/** The /users/me fields this screen edits (server/src/identity/login.controller.ts CurrentUser). */
export interface ProfileUser extends CurrentUser {
  birth_date?: string | null;
  receive_weekly_summary_reports?: boolean;
  requested_number_of_lessons_per_week?: number | null;
  notification_email?: string | null;
  pending_notification_email?: string | null;
}

/** Spec: requested lessons per week 0–50 (server MAX_LESSONS_PER_WEEK). */
export const MAX_LESSONS_PER_WEEK = 50;
const ME = '/api/v1/users/me';

/** Re-reads /users/me (after the write, via X-Min-Position) into the query cache and the session. */
function useRefreshMe() {
  const queryClient = useQueryClient();
  return async () => {
    const fresh = await fetchCurrentUser();
    queryClient.setQueryData(['users', 'me'], fresh);
    useSession.getState().updateUser(fresh);
  };
}

/** One setting saved with its own call; the answer's refusal is shown under the field. */
function useSetting<T>(path: string, success: string, body: (value: T) => unknown) {
  const refresh = useRefreshMe();
  return useMutation({
    mutationFn: async (value: T) => {
      await apiRequest<{ position: string }>(`${ME}${path}`, { method: 'PUT', json: body(value) });
      await refresh().catch(() => undefined);
    },
    meta: { silentErrors: true },
    onSuccess: () => notifySuccess(success),
  });
}

function Section({
  title,
  description,
  children,
}: {
  title: string;
  description?: string;
  children: ReactNode;
}) {
  return (
    <Paper withBorder radius="md" p="lg" component="section" aria-label={title}>
      <Stack gap="sm">
        <div>
          <Title order={2} fz="h4">
            {title}
          </Title>
          {description && (
            <Text c="dimmed" fz="sm">
              {description}
            </Text>
          )}
        </div>
        {children}
      </Stack>
    </Paper>
  );
}

/** /profile: the signed-in user's own details and settings (spec §2, §7 "Auth and current user"). */
export function ProfilePage() {
  const me = useQuery({
    queryKey: ['users', 'me'],
    queryFn: () => fetchCurrentUser(),
    staleTime: 5 * 60_000,
  });
  const user: ProfileUser | undefined = me.data;
  return (
    <Stack gap="md" maw={760}>
      <title>{`Profile · ${PRODUCT_NAME}`}</title>
      <Title order={1}>Your profile</Title>
      <VerifyNotificationEmail />
      {!user ? (
        me.isError ? (
          <Alert color="red" title="Could not load your profile" role="alert">
            {failureText(me.error)}
          </Alert>
        ) : (
          <Stack aria-busy="true" aria-label="Loading">
            <Skeleton height={120} />
            <Skeleton height={120} />
          </Stack>
        )
      ) : (
        <>
          <NamesSection user={user} />
          <TimezoneSection user={user} />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <BirthDateSection user={user} />
            <LessonsSection user={user} />
          </SimpleGrid>
          <WeeklySummarySection user={user} />
          <NotificationEmailSection user={user} />
          <PasswordSection user={user} />
        </>
      )}
    </Stack>
  );
}

function NamesSection({ user }: { user: ProfileUser }) {
  const [first, setFirst] = useState(user.first_name ?? '');
  const [last, setLast] = useState(user.last_name ?? '');
  const [local, setLocal] = useState<{ first?: string; last?: string }>({});
  const save = useSetting<{ first_name: string; last_name: string }>(
    '',
    'Your name has been saved.',
    (v) => v,
  );
  const serverError = save.isError ? failureText(save.error) : undefined;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const errors: typeof local = {};
    if (!first.trim()) errors.first = 'Enter your first name';
    else if (first.trim().length > 100) errors.first = 'Use at most 100 characters';
    if (!last.trim()) errors.last = 'Enter your last name';
    else if (last.trim().length > 100) errors.last = 'Use at most 100 characters';
    setLocal(errors);
    if (!errors.first && !errors.last) save.mutate({ first_name: first.trim(), last_name: last.trim() });
  };
  return (
    <Section title="Name" description={`Signed in as ${user.login ?? user.email ?? ''}`}>
      <form onSubmit={submit} noValidate aria-label="Name">
        <Stack gap="sm">
          <Group grow align="flex-start">
            <TextInput
              label="First name"
              required
              value={first}
              onChange={(e) => setFirst(e.currentTarget.value)}
              error={local.first ?? (serverError && /first/i.test(serverError) ? serverError : undefined)}
            />
            <TextInput
              label="Last name"
              required
              value={last}
              onChange={(e) => setLast(e.currentTarget.value)}
              error={local.last ?? (serverError && /last/i.test(serverError) ? serverError : undefined)}
            />
          </Group>
          {serverError && !/first|last/i.test(serverError) && (
            <Alert color="red" role="alert">
              {serverError}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button type="submit" loading={save.isPending}>
              Save name
            </Button>
          </Group>
        </Stack>
      </form>
    </Section>
  );
}

function TimezoneSection({ user }: { user: ProfileUser }) {
  const zones = useMemo(timezoneOptions, []);
  const [zone, setZone] = useState<string | null>(user.timezone ?? null);
  const save = useSetting<string>('/timezone', 'Your time zone has been saved.', (timezone) => ({
    timezone,
  }));
  const info = user.timezone_info;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (zone) save.mutate(zone);
  };
  return (
    <Section title="Time zone" description="Dates and times in the portal are shown in this time zone.">
      <form onSubmit={submit} noValidate aria-label="Time zone">
        <Stack gap="sm">
          <Select
            label="Time zone"
            searchable
            data={zones}
            value={zone}
            onChange={setZone}
            nothingFoundMessage="No such time zone"
            limit={200}
            error={!zone ? 'Choose a time zone' : save.isError ? failureText(save.error) : undefined}
          />
          {info?.is_different && info.network_timezone && (
            <Text fz="sm" c="dimmed">
              Your network {info.network_name ? `(${info.network_name}) ` : ''}uses {info.network_timezone}.
            </Text>
          )}
          <Group justify="flex-end">
            <Button type="submit" loading={save.isPending} disabled={!zone}>
              Save time zone
            </Button>
          </Group>
        </Stack>
      </form>
    </Section>
  );
}

function BirthDateSection({ user }: { user: ProfileUser }) {
  const [date, setDate] = useState<string | null>(user.birth_date ?? null);
  const save = useSetting<string | null>('/birth_date', 'Your birth date has been saved.', (birth_date) => ({
    birth_date,
  }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate(date);
  };
  return (
    <Section title="Birth date">
      <form onSubmit={submit} noValidate aria-label="Birth date">
        <Stack gap="sm">
          <DateInput
            label="Birth date"
            valueFormat="DD.MM.YYYY"
            dateParser={parseDayMonthYear}
            placeholder="dd.mm.yyyy"
            clearable
            value={date}
            onChange={setDate}
            minDate="1900-01-01"
            maxDate={new Date().toISOString().slice(0, 10)}
            defaultLevel="decade"
            error={save.isError ? failureText(save.error) : undefined}
            description={
              user.birth_date
                ? `Saved: ${formatInZone(`${user.birth_date}T12:00:00Z`, 'UTC', DATE_FORMAT)}`
                : 'Not set'
            }
          />
          <Group justify="flex-end">
            <Button type="submit" loading={save.isPending}>
              Save birth date
            </Button>
          </Group>
        </Stack>
      </form>
    </Section>
  );
}

function LessonsSection({ user }: { user: ProfileUser }) {
  const [value, setValue] = useState<number | string>(user.requested_number_of_lessons_per_week ?? '');
  const [local, setLocal] = useState<string | null>(null);
  const save = useSetting<number | null>(
    '/requested_number_of_lessons',
    'Your requested number of lessons has been saved.',
    (n) => ({ requested_number_of_lessons_per_week: n }),
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (value === '') {
      setLocal(null);
      save.mutate(null);
      return;
    }
    const n = Number(value);
    if (!Number.isInteger(n) || n < 0 || n > MAX_LESSONS_PER_WEEK) {
      setLocal(`Enter a whole number from 0 to ${MAX_LESSONS_PER_WEEK}`);
      return;
    }
    setLocal(null);
    save.mutate(n);
  };
  return (
    <Section title="Lessons per week">
      <form onSubmit={submit} noValidate aria-label="Lessons per week">
        <Stack gap="sm">
          <NumberInput
            label="Requested number of lessons per week"
            min={0}
            max={MAX_LESSONS_PER_WEEK}
            allowDecimal={false}
            allowNegative={false}
            clampBehavior="none"
            value={value}
            onChange={setValue}
            description={`0 to ${MAX_LESSONS_PER_WEEK}; leave empty for no preference`}
            error={local ?? (save.isError ? failureText(save.error) : undefined)}
          />
          <Group justify="flex-end">
            <Button type="submit" loading={save.isPending}>
              Save lessons
            </Button>
          </Group>
        </Stack>
      </form>
    </Section>
  );
}

function WeeklySummarySection({ user }: { user: ProfileUser }) {
  const save = useSetting<boolean>(
    '/receive_weekly_summary_reports',
    'Your weekly summary setting has been saved.',
    (value) => ({ value }),
  );
  const checked = save.isPending ? save.variables : Boolean(user.receive_weekly_summary_reports);
  return (
    <Section title="Weekly summary reports">
      <Switch
        label="Receive the weekly summary reports by e-mail"
        checked={checked}
        disabled={save.isPending}
        onChange={(e) => save.mutate(e.currentTarget.checked)}
        error={save.isError ? failureText(save.error) : undefined}
      />
    </Section>
  );
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function NotificationEmailSection({ user }: { user: ProfileUser }) {
  const [email, setEmail] = useState('');
  const [local, setLocal] = useState<string | null>(null);
  const save = useSetting<string>(
    '/notification_email',
    'We have sent a confirmation link to the new address.',
    (address) => ({ email: address }),
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const address = email.trim();
    if (!EMAIL.test(address)) {
      setLocal('Enter a valid e-mail address');
      return;
    }
    setLocal(null);
    save.mutate(address, { onSuccess: () => setEmail('') });
  };
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
      <form onSubmit={submit} noValidate aria-label="Notification e-mail">
        <Stack gap="sm">
          <TextInput
            label="New notification e-mail"
            type="email"
            autoComplete="email"
            value={email}
            onChange={(e) => setEmail(e.currentTarget.value)}
            error={local ?? (save.isError ? failureText(save.error) : undefined)}
          />
          <Group justify="flex-end">
            <Button type="submit" loading={save.isPending}>
              Send confirmation link
            </Button>
          </Group>
        </Stack>
      </form>
    </Section>
  );
}

/** The mailed confirmation link opens /profile?token=…: confirm it once, then drop the token from the URL. */
function VerifyNotificationEmail() {
  const [params, setParams] = useSearchParams();
  const token = params.get('token');
  const refresh = useRefreshMe();
  const started = useRef<string | null>(null);
  const verify = useMutation({
    mutationFn: (t: string) =>
      apiRequest<{ notification_email: string }>(`${ME}/notification_email/verify`, { query: { token: t } }),
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

/**
 * Change password (the account menu's "Change password" opens /profile?section=password). The server
 * ends every session of the user, this one included, so the user signs in again with the new password.
 */
function PasswordSection({ user }: { user: ProfileUser }) {
  const [params] = useSearchParams();
  const ref = useRef<HTMLDivElement>(null);
  const navigate = useNavigate();
  const signOut = useSession((state) => state.signOut);
  const queryClient = useQueryClient();
  const [current, setCurrent] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [local, setLocal] = useState<{ current?: string; password?: string; confirm?: string }>({});
  const change = useMutation({
    mutationFn: () =>
      apiRequest<{ position: string }>(`${ME}/password`, {
        method: 'PUT',
        json: { current_password: current, password },
        // The answer ends this session: no "session expired" detour on the way to Login.
        handleSessionErrors: false,
      }),
    meta: { silentErrors: true },
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
  });
  useEffect(() => {
    if (params.get('section') === 'password') ref.current?.scrollIntoView({ block: 'center' });
  }, [params]);

  const serverError = change.isError ? failureText(change.error) : undefined;
  const detail = change.error instanceof ApiError ? (change.error.detailText ?? '') : '';
  // The server names the field first ("current_password: is not your current password").
  const serverOn = (field: 'current_password' | 'password') =>
    detail.startsWith(`${field}: `) ? fieldMessage(detail.slice(field.length + 2)) : undefined;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const errors = {
      ...passwordErrors(password, confirm),
      ...(current ? {} : { current: 'Enter your current password' }),
    };
    setLocal(errors);
    if (!errors.current && !errors.password && !errors.confirm) change.mutate();
  };

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
        <form onSubmit={submit} noValidate aria-label="Change password">
          <Stack gap="sm">
            <PasswordInput
              label="Current password"
              required
              autoComplete="current-password"
              value={current}
              onChange={(e) => {
                setCurrent(e.currentTarget.value);
                setLocal(({ current: _c, ...rest }) => rest);
              }}
              error={local.current ?? serverOn('current_password')}
            />
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <PasswordInput
                label="New password"
                required
                autoComplete="new-password"
                description="At least 8 characters"
                value={password}
                onChange={(e) => {
                  setPassword(e.currentTarget.value);
                  setLocal(({ password: _p, ...rest }) => rest);
                }}
                error={local.password ?? serverOn('password')}
              />
              <PasswordInput
                label="New password again"
                required
                autoComplete="new-password"
                value={confirm}
                onChange={(e) => {
                  setConfirm(e.currentTarget.value);
                  setLocal(({ confirm: _c, ...rest }) => rest);
                }}
                error={local.confirm}
              />
            </SimpleGrid>
            {serverError && !serverOn('current_password') && !serverOn('password') && (
              <Alert color="red" role="alert">
                {serverError}
              </Alert>
            )}
            <Group justify="flex-end">
              <Button type="submit" loading={change.isPending}>
                Change password
              </Button>
            </Group>
          </Stack>
        </form>
      </Section>
    </div>
  );
}
