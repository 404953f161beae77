import { Badge, Group, Table, Text } from '@mantine/core';
import { formatInZone } from '../../../shared/dates';
import type { Incident } from '../api';
import { RiskBadge, StatusBadge } from './IncidentBadges';
import classes from './IncidentRow.module.css';

/** One incident in a list; the whole row opens it (Enter or Space on the focused row too). */
export function IncidentRow({
  incident,
  timezone,
  fresh,
  onOpen,
}: {
  incident: Incident;
  timezone: string;
  fresh?: boolean;
  onOpen: () => void;
}) {
  return (
    <Table.Tr
      className={fresh ? `${classes.row} ${classes.fresh}` : classes.row}
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
          {incident.escalated_at && incident.status === 'reported' && (
            <Badge color="red" variant="dot" size="sm">
              Escalated
            </Badge>
          )}
        </Group>
      </Table.Td>
      <Table.Td>
        <Text size="sm">{incident.reporter.name}</Text>
      </Table.Td>
    </Table.Tr>
  );
}
