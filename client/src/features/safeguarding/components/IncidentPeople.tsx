import { Avatar, Button, Group, Text, Tooltip } from '@mantine/core';
import type { PresenceViewer } from '@portal/projections/live-contract';
import type { KeyboardEvent, MouseEvent } from 'react';
import { safeguardingApi, type ReaderIncident } from '../api';
import { useSafeguardingCommand } from '../hooks';

const SHOWN = 4;
/** Tooltips open on keyboard focus too, not only on hover. */
const FOCUS_TOO = { hover: true, focus: true, touch: true };

/** Avatars (initials) of the people who have an incident open, each named in a tooltip. */
export function ViewerAvatars({
  viewers,
  label = 'Viewing',
}: {
  viewers: readonly PresenceViewer[];
  label?: string;
}) {
  if (viewers.length === 0) return null;
  const names = viewers.map((v) => v.name || 'Someone').join(', ');
  return (
    <Group gap={6} wrap="nowrap" aria-label={`${label}: ${names}`} role="group">
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Avatar.Group spacing="xs">
        {viewers.slice(0, SHOWN).map((v) => (
          <Tooltip
            key={v.userId}
            label={`${v.name || 'Someone'} is viewing`}
            withArrow
            position="bottom"
            events={FOCUS_TOO}
          >
            <Avatar size="sm" radius="xl" name={v.name || '?'} color="initials" alt={v.name} tabIndex={0} />
          </Tooltip>
        ))}
        {viewers.length > SHOWN && (
          <Tooltip
            label={viewers
              .slice(SHOWN)
              .map((v) => v.name)
              .join(', ')}
            withArrow
            position="bottom"
            events={FOCUS_TOO}
          >
            <Avatar size="sm" radius="xl" tabIndex={0}>
              +{viewers.length - SHOWN}
            </Avatar>
          </Tooltip>
        )}
      </Avatar.Group>
    </Group>
  );
}

/** "Claimed by …", or that nobody has claimed it yet (open incidents only). */
export function ClaimedBy({ incident, meId }: { incident: ReaderIncident; meId?: string }) {
  if (incident.assigned_lead)
    return (
      <Text size="xs" fw={500}>
        Claimed by {incident.assigned_lead.id === meId ? 'you' : incident.assigned_lead.name}
      </Text>
    );
  if (incident.status === 'closed') return null;
  return (
    <Text size="xs" c="dimmed">
      Not claimed
    </Text>
  );
}

const stop = (e: MouseEvent | KeyboardEvent) => e.stopPropagation();

/**
 * A lead claims an open incident nobody holds, or releases their claim; with `releaseOthers`, also
 * another lead's claim (when they are away). The server has the last word.
 */
export function ClaimButton({
  incident,
  meId,
  size = 'xs',
  releaseOthers = false,
}: {
  incident: ReaderIncident;
  meId?: string;
  size?: 'xs' | 'sm';
  releaseOthers?: boolean;
}) {
  const command = useSafeguardingCommand((step: 'claim' | 'release') =>
    safeguardingApi.step(incident.id, step),
  );
  if (incident.status === 'closed') return null;
  const mine = incident.assigned_lead?.id === meId;
  const held = Boolean(incident.assigned_lead);
  if (held && !mine && !releaseOthers) return null;
  const step = held ? 'release' : 'claim';
  const text = !held ? 'Claim' : mine ? 'Release' : `Release ${incident.assigned_lead!.name}'s claim`;
  const students = incident.students.map((s) => s.name).join(', ');
  return (
    <Button
      size={size}
      variant={held ? 'default' : 'light'}
      loading={command.isPending}
      aria-label={`${text} (incident about ${students})`}
      onClick={(e) => {
        stop(e);
        command.mutate(step);
      }}
      onKeyDown={stop}
    >
      {text}
    </Button>
  );
}
