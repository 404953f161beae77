import { Badge, Group, Stack, Text } from '@mantine/core';
import type { DataTableColumn } from 'mantine-datatable';
import { formatInZone } from '../../../shared/dates';
import type { ReaderIncident } from '../api';
import { useIncidentViewers } from '../presence';
import { RiskBadge, StatusBadge } from './IncidentBadges';
import { ClaimButton, ClaimedBy, ViewerAvatars } from './IncidentPeople';
import classes from './IncidentColumns.module.css';

// A partner's view has no escalated_at (ADR 0037).
const isEscalated = (incident: ReaderIncident) =>
  Boolean(incident.escalated_at) && incident.status === 'reported';

/**
 * The columns of an incident list. With `people`, the triage board's column: who claimed it, who is
 * viewing it (live), and Claim / Release for leads. `fresh` marks incidents that just arrived.
 */
export function incidentColumns(
  timezone: string,
  options: { fresh?: (id: string) => boolean; people?: { meId?: string; isLead: boolean } } = {},
): DataTableColumn<ReaderIncident>[] {
  const { fresh, people } = options;
  const columns: DataTableColumn<ReaderIncident>[] = [
    {
      accessor: 'occurred_at',
      title: 'Happened',
      render: (incident) => (
        <>
          <Text size="sm">{formatInZone(incident.occurred_at, timezone)}</Text>
          {fresh?.(incident.id) && (
            <Badge size="xs" color="red" variant="filled">
              New
            </Badge>
          )}
        </>
      ),
    },
    {
      accessor: 'students',
      title: 'Students',
      render: (incident) => (
        <Stack gap={0}>
          {incident.students.map((s) => (
            <Text key={s.id} size="sm" fw={500}>
              {s.name}
              {(s.school || s.year_group) && (
                <Text span size="xs" c="dimmed" fw={400}>
                  {' '}
                  · {[s.school, s.year_group].filter(Boolean).join(', ')}
                </Text>
              )}
            </Text>
          ))}
        </Stack>
      ),
    },
    { accessor: 'types', title: 'Type', render: (incident) => incident.types.map((t) => t.name).join(', ') },
    // Badges shrink with their cell and cut their label: these two columns keep their width.
    {
      accessor: 'risk_level',
      title: 'Risk',
      width: 130,
      render: (incident) => <RiskBadge risk={incident.risk_level} />,
    },
    {
      accessor: 'status',
      title: 'Stage',
      width: 200,
      render: (incident) => (
        <Group gap={6}>
          <StatusBadge status={incident.status} />
          {isEscalated(incident) && (
            <Badge color="red" variant="filled" size="sm">
              Escalated
            </Badge>
          )}
        </Group>
      ),
    },
    { accessor: 'reporter.name', title: 'Reported by' },
  ];
  if (people)
    columns.push({
      accessor: 'people',
      title: 'Claimed / viewing',
      render: (incident) => <IncidentPeople incident={incident} meId={people.meId} isLead={people.isLead} />,
    });
  return columns;
}

/** The row's accessible name and classes (escalated: red edge; fresh: arrival highlight). */
export const incidentRowLabel = (incident: ReaderIncident) =>
  `Incident about ${incident.students.map((s) => s.name).join(', ')}, ${incident.status.replace('_', ' ')}`;

export const incidentRowClass = (incident: ReaderIncident, fresh = false) =>
  [classes.row, fresh && classes.fresh, isEscalated(incident) && classes.escalated].filter(Boolean).join(' ');

export const incidentRowAttributes = (incident: ReaderIncident) => ({ 'data-incident': incident.id });

function IncidentPeople({
  incident,
  meId,
  isLead,
}: {
  incident: ReaderIncident;
  meId?: string;
  isLead: boolean;
}) {
  const viewers = useIncidentViewers(incident.id);
  return (
    <Stack gap={4} align="flex-start">
      <Group gap="xs" wrap="nowrap">
        <ClaimedBy incident={incident} meId={meId} />
        {isLead && <ClaimButton incident={incident} meId={meId} />}
      </Group>
      <ViewerAvatars viewers={viewers} />
    </Stack>
  );
}
