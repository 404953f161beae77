import { Badge } from '@mantine/core';
import { RISK_COLOURS, STATUS_COLOURS, STATUS_LABELS, type IncidentStatus, type RiskLevel } from '../api';

export function StatusBadge({ status }: { status: IncidentStatus }) {
  return (
    <Badge color={STATUS_COLOURS[status]} variant="light" radius="sm">
      {STATUS_LABELS[status]}
    </Badge>
  );
}

export function RiskBadge({ risk }: { risk: RiskLevel }) {
  return (
    <Badge color={RISK_COLOURS[risk]} variant={risk === 'high' ? 'filled' : 'outline'} radius="sm">
      {risk} risk
    </Badge>
  );
}
