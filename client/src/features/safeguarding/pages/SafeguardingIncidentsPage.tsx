import { Badge, Button, Group, MultiSelect, Select, Stack, Tabs, Text } from '@mantine/core';
import { useState } from 'react';
import { useListState } from '../../../shared/routing/list-state';
import { useNavigate } from 'react-router-dom';
import { viewerTimezone } from '../../../shared/dates';
import { setItem } from '../../../shared/storage';
import { isSafeguardingLead } from '../../../app/access';
import { usePermissions, useSession } from '../../../shared/session';
import { ResourceListPage } from '../../../shared/ui/ResourceListPage';
import { RISK_LEVELS, STATUS_LABELS, type Incident, type IncidentStatus, type RiskLevel } from '../api';
import {
  incidentColumns,
  incidentRowAttributes,
  incidentRowClass,
  incidentRowLabel,
} from '../components/IncidentColumns';
import { ReportIncidentModal } from '../components/ReportIncidentModal';
import {
  BROWSER_NOTIFICATIONS_AGREEMENT,
  useIncidentTypes,
  useIncidents,
  useIncidentArrivals,
  useStatusCount,
} from '../hooks';

/** The board's filters (the tab's statuses, risk levels, type), sent with each page request. */
type IncidentListFilters = { status?: IncidentStatus[]; risk_level?: RiskLevel[]; type_id?: string };

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
  // The stage tab, risk levels and type live in the address, like the search and page (issue 18).
  const [list, setList] = useListState({ filters: { tab: 'open', risk: '', type: '' } });
  const tab = TABS.some((t) => t.value === list.tab) ? list.tab : 'open';
  const risk = list.risk ? (list.risk.split(',') as RiskLevel[]) : [];
  const typeId = list.type || null;
  const [reporting, setReporting] = useState(false);
  const [fresh, setFresh] = useState<Set<string>>(new Set());
  const [permission, setPermission] = useState(
    typeof Notification === 'undefined' ? 'denied' : Notification.permission,
  );

  const status = TABS.find((t) => t.value === tab)?.status;
  const filters = { status, risk_level: risk.length ? risk : undefined, type_id: typeId ?? undefined };
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

  const enableAlerts = async () => {
    if (typeof Notification === 'undefined') return;
    const answer = await Notification.requestPermission();
    setPermission(answer);
    setItem(BROWSER_NOTIFICATIONS_AGREEMENT, answer === 'granted');
  };

  return (
    <ResourceListPage<Incident, IncidentListFilters>
      title="Safeguarding incidents"
      description="New concerns appear here the moment they are reported. Acknowledge each one promptly: unacknowledged incidents escalate to every lead and stay pinned at the top, marked in red."
      noun="incidents"
      action={
        <>
          {permission === 'default' && (
            <Button variant="default" onClick={() => void enableAlerts()}>
              Enable browser alerts
            </Button>
          )}
          <Button onClick={() => setReporting(true)}>Report an incident</Button>
        </>
      }
      toolbar={
        <>
          <Tabs value={tab} onChange={(v) => setList({ tab: v ?? 'open' })} keepMounted={false}>
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
              onChange={(v) => setList({ risk: v.join(',') })}
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
              onChange={(v) => setList({ type: v ?? '' })}
              w={260}
              clearable
              searchable
            />
          </Group>
        </>
      }
      filters={filters}
      useList={useIncidents}
      columns={incidentColumns(timezone, {
        fresh: (id) => fresh.has(id),
        people: { meId: user ? String(user.id) : undefined, isLead: lead },
      })}
      rowHref={(incident) => `/safeguarding-incidents/${incident.id}`}
      rowLabel={incidentRowLabel}
      rowClassName={(incident) => incidentRowClass(incident, fresh.has(incident.id))}
      rowAttributes={incidentRowAttributes}
      empty={{
        none: (
          <Stack align="center" gap={4}>
            <Text fw={600}>No incidents here</Text>
            <Text c="dimmed" size="sm">
              {tab === 'open'
                ? 'Nothing is waiting. New reports will appear here at once.'
                : 'Try another stage or filter.'}
            </Text>
          </Stack>
        ),
      }}
    >
      <ReportIncidentModal
        opened={reporting}
        onClose={(id) => {
          setReporting(false);
          if (id) void navigate(`/safeguarding-incidents/${id}`);
        }}
      />
    </ResourceListPage>
  );
}
