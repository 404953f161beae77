import {
  Alert,
  Anchor,
  Badge,
  Group,
  Paper,
  SimpleGrid,
  Skeleton,
  Slider,
  Stack,
  Text,
  Timeline,
  Title,
} from '@mantine/core';
import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { Link, useParams } from 'react-router-dom';
import { formatInZone, viewerTimezone } from '../../../shared/dates';
import { permissionLabel } from '../../../shared/permissions';
import { useSession } from '../../../shared/session';
import { PRODUCT_NAME } from '../../../shared/ui/BrandMark';
import { Icon } from '../../../shared/ui/icons';
import { ScreenSkeleton } from '../../../shared/ui/ScreenSkeleton';
import { useAccountState, useAuditHistory, useUser, useUserName, type AuditEntry } from '../api';
import { describeEvent } from '../audit-text';
import { actionErrorText } from '../../../shared/ui/action-error';

function Person({ id, fallback }: { id: string | null; fallback: string }) {
  const name = useUserName(id);
  if (id === null) return <>{fallback}</>;
  if (name.isPending) return <Skeleton component="span" height={12} width={90} display="inline-block" />;
  return <>{name.data ?? 'an unknown user'}</>;
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Group justify="space-between" gap="xs" wrap="nowrap">
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text size="sm" ta="right">
        {children}
      </Text>
    </Group>
  );
}

function EventItemBody({ entry, timeZone }: { entry: AuditEntry; timeZone: string }) {
  return (
    <>
      <Text size="xs" c="dimmed">
        {formatInZone(entry.recorded_at, timeZone)} · by <Person id={entry.actor_id} fallback="the system" />
        {entry.impersonator_id && (
          <>
            {' '}
            · impersonated by <Person id={entry.impersonator_id} fallback="" />
          </>
        )}
      </Text>
    </>
  );
}

/** users/:id/audit: the user's history as a timeline, and the account as it was at any event. */
export function UserAuditPage() {
  const { id = '' } = useParams();
  const viewer = useSession((state) => state.user);
  const timeZone = viewerTimezone(viewer);
  const user = useUser(id);
  const history = useAuditHistory(id);
  const items = useMemo(() => history.data?.items ?? [], [history.data]);

  // The slider's stop (an event index). null = follow the latest event, so new events move it along.
  const [chosen, setChosen] = useState<number | null>(null);
  const [dragging, setDragging] = useState<number | null>(null);
  const last = items.length - 1;
  const index = chosen === null ? last : Math.min(chosen, last);
  const at = index >= 0 ? (items[index]?.recorded_at ?? null) : null;
  const state = useAccountState(id, at);

  // Announce newly arrived events to screen readers.
  const seen = useRef(0);
  const [announcement, setAnnouncement] = useState('');
  useEffect(() => {
    if (seen.current > 0 && items.length > seen.current) {
      setAnnouncement(`${items.length - seen.current} new event(s)`);
    }
    seen.current = items.length;
  }, [items.length]);

  if (history.isPending) return <ScreenSkeleton rows={6} />;
  if (history.isError)
    return (
      <Alert color="red" role="alert" title="The history could not be loaded">
        {actionErrorText(history.error)}
      </Alert>
    );

  const name = user.data?.full_name ?? 'User';
  const shown = dragging ?? index;
  const account = state.data?.account;

  return (
    <Stack gap="md">
      <title>{`Audit · ${name} · ${PRODUCT_NAME}`}</title>
      <Anchor component={Link} to={`/users/${id}/details`} size="sm">
        <Group gap={4}>
          <Icon name="arrowLeft" size={14} /> {name}
        </Group>
      </Anchor>
      <div>
        <Text size="xs" fw={700} tt="uppercase" c="dimmed" lts={0.6}>
          Audit
        </Text>
        <Title order={1} fz="h2">
          {name}: history
        </Title>
        <Text size="sm" c="dimmed">
          {items.length} event{items.length === 1 ? '' : 's'} · times in {timeZone}
        </Text>
      </div>
      <div aria-live="polite" className="visually-hidden" style={{ position: 'absolute', left: -9999 }}>
        {announcement}
      </div>

      <Paper withBorder radius="md" p="md">
        <Text id="audit-slider-label" fw={600} size="sm" mb={4}>
          Account as it was after event {shown + 1} of {items.length}
        </Text>
        <Text size="xs" c="dimmed" mb={36}>
          {items[shown] ? formatInZone(items[shown].recorded_at, timeZone) : ''} · move the slider (or use the
          arrow keys) to go back in time
        </Text>
        <Slider
          aria-labelledby="audit-slider-label"
          thumbLabel="Point in the history"
          min={0}
          max={Math.max(0, last)}
          step={1}
          value={shown}
          disabled={items.length < 2}
          label={(v) => (items[v] ? formatInZone(items[v].recorded_at, timeZone) : '')}
          marks={items.length <= 40 ? items.map((_, i) => ({ value: i })) : undefined}
          onChange={setDragging}
          onChangeEnd={(v) => {
            setDragging(null);
            setChosen(v >= last ? null : v);
          }}
          mb="lg"
        />
        {state.isError ? (
          <Alert color="red" role="alert">
            {actionErrorText(state.error)}
          </Alert>
        ) : !account ? (
          <Skeleton height={120} />
        ) : (
          <SimpleGrid
            cols={{ base: 1, md: 2 }}
            spacing="lg"
            style={{ opacity: state.isFetching ? 0.6 : 1 }}
            aria-busy={state.isFetching}
          >
            <Stack gap={6} aria-label="Account at this point">
              <Row label="Name">
                {account.firstName} {account.lastName}
              </Row>
              <Row label="E-mail">{account.email}</Row>
              <Row label="Type">{state.data?.type_label}</Row>
              <Row label="Access">{account.hasAccess ? 'Active' : 'Deactivated'}</Row>
              <Row label="Blocked">{account.isBlocked ? 'Yes' : 'No'}</Row>
              <Row label="Deactivation scheduled">
                {account.scheduledDeactivationAt
                  ? formatInZone(account.scheduledDeactivationAt, timeZone)
                  : 'No'}
              </Row>
              <Row label="Quality issue">{account.qualityIssue ?? 'None'}</Row>
              <Row label="Timezone">{account.timezone ?? 'Default'}</Row>
            </Stack>
            <div>
              <Text size="sm" fw={600} mb={6}>
                Effective permissions ({state.data?.permission_list.length ?? 0})
              </Text>
              <Group gap={6} aria-label="Effective permissions">
                {state.data?.permission_list.map((p) => (
                  <Badge key={p} variant="light" radius="sm" tt="none" title={p}>
                    {permissionLabel(p)}
                  </Badge>
                ))}
              </Group>
              {account.userType === 'super_admin' && (
                <Text size="xs" c="dimmed" mt={6}>
                  Administrators also hold every internal permission implicitly.
                </Text>
              )}
            </div>
          </SimpleGrid>
        )}
      </Paper>

      <Paper withBorder radius="md" p="md">
        <Title order={2} fz="h4" mb="md">
          Timeline
        </Title>
        <Timeline active={shown} bulletSize={18} lineWidth={2} aria-label="History">
          {items.map((entry, i) => (
            <Timeline.Item
              key={entry.position}
              title={
                <Anchor
                  component="button"
                  type="button"
                  fw={600}
                  size="sm"
                  c={i <= shown ? undefined : 'dimmed'}
                  onClick={() => setChosen(i >= last ? null : i)}
                  aria-current={i === shown ? 'step' : undefined}
                >
                  {describeEvent(entry.type, entry.data, timeZone)}
                </Anchor>
              }
              bullet={i === shown ? <Icon name="clock" size={12} /> : undefined}
            >
              {i === shown && (
                <Badge size="xs" variant="light" mb={4}>
                  Shown above
                </Badge>
              )}
              <EventItemBody entry={entry} timeZone={timeZone} />
            </Timeline.Item>
          ))}
        </Timeline>
      </Paper>
    </Stack>
  );
}

export default UserAuditPage;
