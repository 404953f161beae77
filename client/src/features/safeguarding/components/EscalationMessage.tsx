import { Anchor, Stack, Text } from '@mantine/core';

/** The escalation alert's text, with a link to the incident (shown on any page of the portal). */
export function EscalationMessage({ minutes, onOpen }: { minutes: number | undefined; onOpen: () => void }) {
  return (
    <Stack gap={2}>
      <Text size="sm">An incident has waited {minutes ?? 'several'} minutes without acknowledgement.</Text>
      <Anchor component="button" type="button" size="sm" onClick={onOpen} style={{ alignSelf: 'flex-start' }}>
        Open the incident
      </Anchor>
    </Stack>
  );
}
