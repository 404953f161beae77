import {
  Alert,
  Badge,
  Button,
  Card,
  Group,
  MultiSelect,
  Pagination,
  Select,
  Skeleton,
  Stack,
  Table,
  Tabs,
  Text,
  Title,
} from '@mantine/core';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { viewerTimezone } from '../../../shared/dates';
import { setItem } from '../../../shared/storage';
import { isSafeguardingLead } from '../../../app/access';
import { usePermissions, useSession } from '../../../shared/session';
import { PRODUCT_NAME } from '../../../shared/ui/BrandMark';
import { RISK_LEVELS, STATUS_LABELS, type IncidentStatus, type RiskLevel } from '../api';
import { IncidentRow } from '../components/IncidentRow';
import { ReportIncidentModal } from '../components/ReportIncidentModal';
import {
  BROWSER_NOTIFICATIONS_AGREEMENT,
  useIncidentTypes,
  useIncidents,
  useIncidentArrivals,
  useStatusCount,
} from '../hooks';

const PER_PAGE = 10;
const OPEN: IncidentStatus[] = [
  'reported',
  'acknowledged',
  'under_review',
  'actions',
  'partner_informed',
  'partner_feedback',
];
const TABS: { value: string; label: string; status?: IncidentStatus[] }[] = [
  { value: 'open', label: 'Open', status: OPEN },
  { value: 'reported', label: STATUS_LABELS.reported, status: ['reported'] },
  { value: 'acknowledged', label: STATUS_LABELS.acknowledged, status: ['acknowledged'] },
  {
    value: 'in-progress',
    label: 'In progress',
    status: ['under_review', 'actions', 'partner_informed', 'partner_feedback'],
  },
  { value: 'closed', label: STATUS_LABELS.closed, status: ['closed'] },
  { value: 'all', label: 'All' },
];

function TabCount({ status }: { status?: IncidentStatus[] }) {
  const count = useStatusCount(status);
  if (count.data === undefined) return null;
  return (
    <Badge
      size="sm"
      variant="light"
      color={status?.includes('reported') && count.data > 0 ? 'red' : 'gray'}
      ml={6}
    >
      {count.data}
    </Badge>
  );
}

/**
 * Safeguarding triage (route safeguarding-incidents, needs safeguarding access): new incidents
 * appear at the top within a second (live), counts per stage, filters, and the report form.
 */
export function SafeguardingIncidentsPage() {
  const navigate = useNavigate();
  const user = useSession((s) => s.user);
  const lead = isSafeguardingLead(usePermissions());
  const timezone = viewerTimezone(user);
  const [tab, setTab] = useState('open');
  const [page, setPage] = useState(1);
  const [risk, setRisk] = useState<RiskLevel[]>([]);
  const [typeId, setTypeId] = useState<string | null>(null);
  const [reporting, setReporting] = useState(false);
  const [fresh, setFresh] = useState<Set<string>>(new Set());
  const [permission, setPermission] = useState(
    typeof Notification === 'undefined' ? 'denied' : Notification.permission,
  );

  const status = TABS.find((t) => t.value === tab)?.status;
  const incidents = useIncidents({
    page,
    size: PER_PAGE,
    status,
    risk_level: risk.length ? risk : undefined,
    type_id: typeId ?? undefined,
  });
  const types = useIncidentTypes(true);

  useIncidentArrivals((id) => {
    setFresh((s) => new Set(s).add(id));
    window.setTimeout(
      () =>
        setFresh((s) => {
          const next = new Set(s);
          next.delete(id);
          return next;
        }),
      10_000,
    );
  });

  // §5: back to page 1 when the filters change or the total shrinks below the current page.
  useEffect(() => setPage(1), [tab, risk, typeId]);
  const total = incidents.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / PER_PAGE));
  useEffect(() => {
    if (page > pages) setPage(1);
  }, [page, pages]);

  const enableAlerts = async () => {
    if (typeof Notification === 'undefined') return;
    const answer = await Notification.requestPermission();
    setPermission(answer);
    setItem(BROWSER_NOTIFICATIONS_AGREEMENT, answer === 'granted');
  };

  return (
    <Stack gap="lg">
      <title>{`Safeguarding incidents · ${PRODUCT_NAME}`}</title>
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={1}>Safeguarding incidents</Title>
          <Text c="dimmed" mt={4}>
            New concerns appear here the moment they are reported. Acknowledge each one promptly:
            unacknowledged incidents escalate to every lead and stay pinned at the top, marked in red.
          </Text>
        </div>
        <Group>
          {permission === 'default' && (
            <Button variant="default" onClick={() => void enableAlerts()}>
              Enable browser alerts
            </Button>
          )}
          <Button onClick={() => setReporting(true)}>Report an incident</Button>
        </Group>
      </Group>

      <Tabs value={tab} onChange={(v) => setTab(v ?? 'open')} keepMounted={false}>
        <Tabs.List aria-label="Incident stages">
          {TABS.map((t) => (
            <Tabs.Tab key={t.value} value={t.value}>
              {t.label}
              <TabCount status={t.status} />
            </Tabs.Tab>
          ))}
        </Tabs.List>
      </Tabs>

      <Group gap="sm">
        <MultiSelect
          aria-label="Risk level"
          placeholder={risk.length ? undefined : 'Any risk'}
          data={RISK_LEVELS.map((r) => ({ value: r, label: `${r[0]!.toUpperCase()}${r.slice(1)} risk` }))}
          value={risk}
          onChange={(v) => setRisk(v)}
          w={260}
          clearable
        />
        <Select
          aria-label="Type"
          placeholder="Any type"
          data={(types.data?.items ?? []).map((t) => ({
            value: t.id,
            label: t.retired ? `${t.name} (retired)` : t.name,
          }))}
          value={typeId}
          onChange={setTypeId}
          w={260}
          clearable
          searchable
        />
      </Group>

      <Card withBorder radius="md" p={0}>
        {incidents.isError ? (
          <Alert color="red" m="md" title="The incidents could not be loaded">
            Try again in a moment.
          </Alert>
        ) : incidents.isPending ? (
          <Stack p="md" gap="xs" aria-busy="true" aria-label="Loading incidents">
            {Array.from({ length: 5 }, (_, i) => (
              <Skeleton key={i} height={36} />
            ))}
          </Stack>
        ) : total === 0 ? (
          <Stack align="center" p="xl" gap={4}>
            <Text fw={600}>No incidents here</Text>
            <Text c="dimmed" size="sm">
              {tab === 'open'
                ? 'Nothing is waiting. New reports will appear here at once.'
                : 'Try another stage or filter.'}
            </Text>
          </Stack>
        ) : (
          <Table highlightOnHover verticalSpacing="sm" aria-label="Safeguarding incidents">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Happened</Table.Th>
                <Table.Th>Students</Table.Th>
                <Table.Th>Type</Table.Th>
                <Table.Th>Risk</Table.Th>
                <Table.Th>Stage</Table.Th>
                <Table.Th>Reported by</Table.Th>
                <Table.Th>Claimed / viewing</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {incidents.data.items.map((incident) => (
                <IncidentRow
                  key={incident.id}
                  incident={incident}
                  timezone={timezone}
                  fresh={fresh.has(incident.id)}
                  onOpen={() => void navigate(`/safeguarding-incidents/${incident.id}`)}
                  people={{ meId: user ? String(user.id) : undefined, isLead: lead }}
                />
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Card>
      {pages > 1 && (
        <Group justify="space-between">
          <Text size="sm" c="dimmed">
            {total} incidents
          </Text>
          <Pagination
            total={pages}
            value={page}
            onChange={setPage}
            siblings={2}
            boundaries={0}
            aria-label="Pages"
          />
        </Group>
      )}
      <ReportIncidentModal
        opened={reporting}
        onClose={(id) => {
          setReporting(false);
          if (id) void navigate(`/safeguarding-incidents/${id}`);
        }}
      />
    </Stack>
  );
}
