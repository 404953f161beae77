import { Badge, Box, Tooltip } from '@mantine/core';
import type { LiveState as LiveConnectionState } from '../live/live-connection';

const LOOK: Record<LiveConnectionState, { label: string; color: string; hint: string }> = {
  connected: { label: 'Live', color: 'green', hint: 'Live updates are on.' },
  connecting: { label: 'Connecting…', color: 'yellow', hint: 'Connecting to live updates…' },
  offline: {
    label: 'Offline',
    color: 'gray',
    hint: 'Live updates are off. Pages show the latest data when you open them.',
  },
};

/** The live-connection indicator in the header. Presentational: the caller passes the state. */
export function ConnectionIndicator({ state }: { state: LiveConnectionState }) {
  const look = LOOK[state];
  return (
    <Tooltip label={look.hint} withArrow>
      <Badge
        variant="light"
        color={look.color}
        // The dot carries the colour; the word is in the body text colour (AA contrast on the tint).
        c="var(--mantine-color-text)"
        radius="xl"
        size="lg"
        tt="none"
        fw={600}
        role="status"
        aria-label={`Live connection: ${look.label}`}
        data-state={state}
        leftSection={
          <Box
            component="span"
            w={8}
            h={8}
            display="inline-block"
            style={{ borderRadius: '50%', background: `var(--mantine-color-${look.color}-6)` }}
          />
        }
      >
        {look.label}
      </Badge>
    </Tooltip>
  );
}
