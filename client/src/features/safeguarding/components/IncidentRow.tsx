import { Badge, Group, Stack, Table, Text } from '@mantine/core';
import { formatInZone } from '../../../shared/dates';
import type { ReaderIncident } from '../api';
import { useIncidentViewers } from '../presence';
import { RiskBadge, StatusBadge } from './IncidentBadges';
import { ClaimButton, ClaimedBy, ViewerAvatars } from './IncidentPeople';
import classes from './IncidentRow.module.css';

/**
 * One incident in a list; the whole row opens it (Enter or Space on the focused row too). With
 * `people`, the triage board's column: who claimed it, who is viewing it (live), and Claim / Release
 * for leads.
 */
export function IncidentRow({
  incident,
  timezone,
  fresh,
  onOpen,
  people,
}: {
  incident: ReaderIncident;
  timezone: string;
  fresh?: boolean;
  onOpen: () => void;
  people?: { meId?: string; isLead: boolean };
}) {
  // A partner's view has no escalated_at (ADR 0037).
  const escalated = Boolean(incident.escalated_at) && incident.status === 'reported';
  const className = [classes.row, fresh && classes.fresh, escalated && classes.escalated]
    .filter(Boolean)
    .join(' ');
  return (
    <Table.Tr
      className={className}
      data-incident={incident.id}
      tabIndex={0}
      aria-label={`Incident about ${incident.students.map((s) => s.name).join(', ')}, ${incident.status.replace('_', ' ')}`}
      onClick={onOpen}
      onKeyDown={(e) => {
        if (e.key === 'Enter' || e.key === ' ') {
          e.preventDefault();
          onOpen();
        }
      }}
    >
      <Table.Td>
        <Text size="sm">{formatInZone(incident.occurred_at, timezone)}</Text>
        {fresh && (
          <Badge size="xs" color="red" variant="filled">
            New
          </Badge>
        )}
      </Table.Td>
      <Table.Td>
        <Text size="sm" fw={500}>
          {incident.students.map((s) => s.name).join(', ')}
        </Text>
      </Table.Td>
      <Table.Td>
        <Text size="sm">{incident.types.map((t) => t.name).join(', ')}</Text>
      </Table.Td>
      <Table.Td>
        <RiskBadge risk={incident.risk_level} />
      </Table.Td>
      <Table.Td>
        <Group gap={6}>
          <StatusBadge status={incident.status} />
          {escalated && (
            <Badge color="red" variant="filled" size="sm">
              Escalated
            </Badge>
          )}
        </Group>
      </Table.Td>
      <Table.Td>
        <Text size="sm">{incident.reporter.name}</Text>
      </Table.Td>
      {people && (
        <Table.Td>
          <IncidentPeople incident={incident} meId={people.meId} isLead={people.isLead} />
        </Table.Td>
      )}
    </Table.Tr>
  );
}

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
