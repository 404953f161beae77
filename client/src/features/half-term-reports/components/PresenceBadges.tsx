import { Badge, Group, Text } from '@mantine/core';
import { MODE_LABEL, type PresenceEditor } from '../live-board';

/** "Being edited by …": who has the report open now, each with their mode, in their cursor colour. */
export function PresenceBadges({ editors }: { editors: PresenceEditor[] | undefined }) {
  if (!editors?.length)
    return (
      <Text size="xs" c="dimmed">
        —
      </Text>
    );
  return (
    <Group
      gap={4}
      aria-label={`Open now: ${editors.map((e) => `${e.name} (${MODE_LABEL[e.mode] ?? e.mode})`).join(', ')}`}
    >
      {editors.map((e) => (
        <Badge
          key={e.user_id}
          variant="dot"
          color={e.color}
          styles={{ root: { textTransform: 'none' } }}
          title={`${e.name} is ${MODE_LABEL[e.mode] ?? e.mode}`}
        >
          {e.name} · {MODE_LABEL[e.mode] ?? e.mode}
        </Badge>
      ))}
    </Group>
  );
}
