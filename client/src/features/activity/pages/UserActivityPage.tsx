import {
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  Paper,
  SimpleGrid,
  Skeleton,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { canAudit } from '../../../app/access';
import { apiRequest } from '../../../shared/api/client';
import { useLiveStatus } from '../../../shared/live/live-connection';
import { notifyError } from '../../../shared/notify';
import { formatInZone, viewerTimezone } from '../../../shared/dates';
import { usePermissions, useSession } from '../../../shared/session';
import { PRODUCT_NAME } from '../../../shared/ui/BrandMark';
import { useUserName } from '../../users/api';
import { CustomerSelect } from '../../users/components/CustomerSelect';
import { END_MISSING, defaultRange, parseActivityReport, rangeProblem, summarise } from '../activity';
import { saveFile } from '../../../shared/api/download';
import { actionErrorText } from '../../../shared/ui/action-error';
import { DayInput } from '../../../shared/ui/DayInput';

/** Who is online is not an event: it is asked again this often while the page is open. */
const ONLINE_REFRESH_MS = 30_000;

// Query keys under `users`: user events on the live channel refresh them.
const activityKeys = {
  activeNow: (customer: string | null) => ['users', 'activity', 'active-now', customer] as const,
  report: (customer: string | null, from: string, to: string) =>
    ['users', 'activity', 'report', customer, from, to] as const,
  online: ['users', 'activity', 'online'] as const,
  permissionChanges: ['users', 'activity', 'permission-changes'] as const,
};

interface PermissionChange {
  position: string;
  user_id: string;
  recorded_at: string;
  actor_id: string | null;
  kind: 'initial' | 'changed';
  added: string[];
  removed: string[];
}

const reportPath = '/api/v1/users/students/count/active/report';

/** users/activity: active students over time and now, who is online, recent permission changes (ADR 0032). */
export function UserActivityPage() {
  const permissions = usePermissions();
  const [customer, setCustomer] = useState<string | null>(null);
  const [range, setRange] = useState(() => defaultRange(new Date()));
  const problem = rangeProblem(range.from, range.to);

  return (
    <Stack gap="md">
      <title>{`User activity · ${PRODUCT_NAME}`}</title>
      <div>
        <Text size="xs" fw={700} tt="uppercase" c="dimmed" lts={0.6}>
          Users
        </Text>
        <Title order={1} fz="h2">
          User activity
        </Title>
      </div>

      <Paper withBorder radius="md" p="md">
        <Group gap="sm" align="flex-start" wrap="wrap">
          <div style={{ minWidth: 260 }}>
            <CustomerSelect value={customer} onChange={setCustomer} />
            <Text size="xs" c="dimmed" mt={4}>
              Empty: every customer
            </Text>
          </div>
          <DayInput
            label="From"
            value={range.from}
            onChange={(value) => setRange((r) => ({ ...r, from: value }))}
            error={problem && problem !== END_MISSING ? problem : undefined}
          />
          <DayInput
            label="To"
            value={range.to}
            onChange={(value) => setRange((r) => ({ ...r, to: value }))}
            error={problem === END_MISSING ? problem : undefined}
          />
        </Group>
      </Paper>

      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <ActiveNow customer={customer} />
        <OnlineNow />
      </SimpleGrid>

      <ActiveReport customer={customer} from={range.from} to={range.to} invalid={problem !== null} />

      {canAudit(permissions) && <PermissionChanges />}
    </Stack>
  );
}

function Card({ title, children, label }: { title: string; label?: string; children: ReactNode }) {
  return (
    <Paper withBorder radius="md" p="md" role="region" aria-label={label ?? title}>
      <Title order={2} fz="h4" mb="sm">
        {title}
      </Title>
      {children}
    </Paper>
  );
}

function Failed({ error, retry }: { error: unknown; retry: () => void }) {
  return (
    <Alert color="red" role="alert" title="Could not be loaded">
      {actionErrorText(error)}
      <Group mt="xs">
        <Button size="xs" variant="default" onClick={retry}>
          Try again
        </Button>
      </Group>
    </Alert>
  );
}

function ActiveNow({ customer }: { customer: string | null }) {
  const query = useQuery({
    queryKey: activityKeys.activeNow(customer),
    queryFn: ({ signal }) =>
      apiRequest<{ count: number }>('/api/v1/users/students/count/active', {
        signal,
        query: { customer_id: customer },
      }),
    meta: { silentErrors: true },
  });
  return (
    <Card title="Active students now">
      {query.isPending ? (
        <Skeleton height={40} width={120} aria-label="Loading active students" />
      ) : query.isError ? (
        <Failed error={query.error} retry={() => void query.refetch()} />
      ) : (
        <>
          <Text fz={40} fw={700} lh={1.1} data-testid="active-now">
            {query.data.count.toLocaleString('en-GB')}
          </Text>
          <Text size="sm" c="dimmed">
            Students with access who are not blocked{customer ? ', of the chosen customer' : ''}.{' '}
            <Anchor component={Link} to="/users/students" size="sm">
              Students
            </Anchor>
          </Text>
        </>
      )}
    </Card>
  );
}

function OnlineUser({ id }: { id: string }) {
  const name = useUserName(id);
  return (
    <Anchor component={Link} to={`/users/${id}/details`} size="sm">
      {name.data ?? (name.isPending ? '…' : 'Unknown user')}
    </Anchor>
  );
}

function OnlineNow() {
  const query = useQuery({
    queryKey: activityKeys.online,
    queryFn: ({ signal }) =>
      apiRequest<{ items: { user_id: string; connections: number }[] }>('/api/v1/users/online/status', {
        signal,
      }),
    refetchInterval: ONLINE_REFRESH_MS,
    meta: { silentErrors: true },
  });
  // This tab's own connection counts too: ask again once it is up.
  const live = useLiveStatus((state) => state.state);
  const { refetch } = query;
  useEffect(() => {
    if (live === 'connected') void refetch();
  }, [live, refetch]);
  const shown = query.data?.items.slice(0, 20) ?? [];
  return (
    <Card title="Online now">
      {query.isPending ? (
        <Skeleton height={40} width={120} aria-label="Loading who is online" />
      ) : query.isError ? (
        <Failed error={query.error} retry={() => void query.refetch()} />
      ) : (
        <Stack gap={6}>
          <Text fz={40} fw={700} lh={1.1} data-testid="online-now">
            {query.data.items.length.toLocaleString('en-GB')}
          </Text>
          <Text size="sm" c="dimmed">
            Users with the portal open now (checked every 30 seconds).
          </Text>
          <Group gap="xs">
            {shown.map((u) => (
              <Badge key={u.user_id} variant="light" radius="sm" tt="none">
                <OnlineUser id={u.user_id} />
                {u.connections > 1 ? ` · ${u.connections} tabs` : ''}
              </Badge>
            ))}
            {query.data.items.length > shown.length && (
              <Text size="sm" c="dimmed">
                and {query.data.items.length - shown.length} more
              </Text>
            )}
          </Group>
        </Stack>
      )}
    </Card>
  );
}

function ActiveReport(props: { customer: string | null; from: string; to: string; invalid: boolean }) {
  const { customer, from, to, invalid } = props;
  const [downloading, setDownloading] = useState(false);
  const query = useQuery({
    queryKey: activityKeys.report(customer, from, to),
    enabled: !invalid,
    queryFn: async ({ signal }) =>
      parseActivityReport(
        await apiRequest<string>(reportPath, {
          signal,
          query: { date_from: from, date_to: to, customer_id: customer },
        }),
      ),
    meta: { silentErrors: true },
  });
  const download = async (asExcel: boolean) => {
    setDownloading(true);
    try {
      const file = await apiRequest<Blob>(reportPath, {
        query: { date_from: from, date_to: to, customer_id: customer, as_excel: asExcel || undefined },
        responseType: 'blob',
      });
      saveFile(file, `active-students-${from}-${to}.${asExcel ? 'xlsx' : 'csv'}`);
    } catch (error) {
      notifyError(error, 'The report could not be downloaded');
    } finally {
      setDownloading(false);
    }
  };
  const rows = query.data?.rows ?? [];
  const stats = summarise(rows);
  const unit = query.data?.bucket === 'month' ? 'month' : 'day';
  return (
    <Card title="Active students over time">
      <Group justify="space-between" mb="sm">
        <Text size="sm" c="dimmed">
          Students active at some moment of each {unit} (UTC); ranges over 93 days count per month.
        </Text>
        <Group gap="xs">
          <Button
            size="xs"
            variant="default"
            disabled={invalid}
            loading={downloading}
            onClick={() => void download(false)}
          >
            Download CSV
          </Button>
          <Button
            size="xs"
            variant="default"
            disabled={invalid}
            loading={downloading}
            onClick={() => void download(true)}
          >
            Download Excel
          </Button>
        </Group>
      </Group>
      {invalid ? (
        <Text size="sm">Choose a valid date range above.</Text>
      ) : query.isPending ? (
        <Stack gap={6} aria-label="Loading the report">
          {Array.from({ length: 5 }, (_, i) => (
            <Skeleton key={i} height={20} />
          ))}
        </Stack>
      ) : query.isError ? (
        <Failed error={query.error} retry={() => void query.refetch()} />
      ) : stats === null || stats.peak === 0 ? (
        <Text size="sm" fw={500}>
          No student was active in this period.
        </Text>
      ) : (
        <>
          <Group gap="xl" mb="sm">
            <Text size="sm">
              Peak <b>{stats.peak}</b>
            </Text>
            <Text size="sm">
              Lowest <b>{stats.low}</b>
            </Text>
            <Text size="sm">
              Average <b>{stats.mean}</b> per {unit}
            </Text>
          </Group>
          <Table.ScrollContainer minWidth={360} maxHeight={420}>
            <Table aria-label="Active students per period" striped stickyHeader>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{unit === 'day' ? 'Day' : 'Month'}</Table.Th>
                  <Table.Th>Active students</Table.Th>
                  <Table.Th w="50%" aria-hidden />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {[...rows].reverse().map((r) => (
                  <Table.Tr key={r.period}>
                    <Table.Td>{r.period}</Table.Td>
                    <Table.Td>{r.active}</Table.Td>
                    <Table.Td aria-hidden>
                      <div
                        style={{
                          height: 10,
                          borderRadius: 4,
                          width: `${(r.active / stats.peak) * 100}%`,
                          background: 'var(--mantine-color-blue-5)',
                        }}
                      />
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </>
      )}
    </Card>
  );
}

function ChangeUser({ id }: { id: string | null }) {
  const name = useUserName(id);
  if (!id) return <>System</>;
  return (
    <Anchor component={Link} to={`/users/${id}/details`} size="sm">
      {name.data ?? (name.isPending ? '…' : 'Removed user')}
    </Anchor>
  );
}

function PermissionChanges() {
  const timezone = viewerTimezone(useSession((state) => state.user));
  const query = useQuery({
    queryKey: activityKeys.permissionChanges,
    queryFn: ({ signal }) =>
      apiRequest<{ items: PermissionChange[]; total: number }>('/api/v1/audit/permission-changes', {
        signal,
        query: { page: 1, size: 15 },
      }),
    meta: { silentErrors: true },
  });
  return (
    <Card title="Recent permission changes">
      {query.isPending ? (
        <Skeleton height={80} aria-label="Loading permission changes" />
      ) : query.isError ? (
        <Failed error={query.error} retry={() => void query.refetch()} />
      ) : query.data.items.length === 0 ? (
        <Text size="sm">No permission changes recorded yet.</Text>
      ) : (
        <Table.ScrollContainer minWidth={640}>
          <Table aria-label="Recent permission changes" striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>When</Table.Th>
                <Table.Th>User</Table.Th>
                <Table.Th>Changed by</Table.Th>
                <Table.Th>Change</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {query.data.items.map((c) => (
                <Table.Tr key={c.position}>
                  <Table.Td>{formatInZone(c.recorded_at, timezone)}</Table.Td>
                  <Table.Td>
                    <ChangeUser id={c.user_id} />
                  </Table.Td>
                  <Table.Td>
                    <ChangeUser id={c.actor_id} />
                  </Table.Td>
                  <Table.Td>
                    {c.kind === 'initial' ? (
                      <Text size="sm">Account created</Text>
                    ) : (
                      <Text size="sm">
                        {c.added.length > 0 && `Granted ${c.added.join(', ')}`}
                        {c.added.length > 0 && c.removed.length > 0 && '; '}
                        {c.removed.length > 0 && `Revoked ${c.removed.join(', ')}`}
                        {c.added.length === 0 && c.removed.length === 0 && '—'}
                      </Text>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {query.data && query.data.total > query.data.items.length && (
        <Text size="xs" c="dimmed" mt="xs">
          The latest {query.data.items.length} of {query.data.total}. Each user’s full history is on their
          audit page.
        </Text>
      )}
    </Card>
  );
}

export default UserActivityPage;
