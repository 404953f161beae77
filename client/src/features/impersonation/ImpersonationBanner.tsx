import { Alert, Button, Group, Text } from '@mantine/core';
import { useState } from 'react';
import { displayName } from '../../shared/current-user';
import { notifyError } from '../../shared/notify';
import { useSession } from '../../shared/session';
import { isImpersonating, useImpersonation } from './impersonation';

/** Shown across the portal while an administrator is signed in as someone else, with the way back. */
export function ImpersonationBanner() {
  const user = useSession((state) => state.user);
  const { stop } = useImpersonation();
  const [pending, setPending] = useState(false);
  if (!user || !isImpersonating()) return null;
  return (
    <Alert color="yellow" variant="light" mb="md" role="status">
      <Group justify="space-between" wrap="wrap">
        <Text size="sm">
          You are signed in as <b>{displayName(user)}</b> (impersonating).
        </Text>
        <Button
          size="xs"
          variant="filled"
          color="yellow"
          loading={pending}
          onClick={() => {
            setPending(true);
            stop()
              .catch((error: unknown) => notifyError(error, 'Could not stop impersonating'))
              .finally(() => setPending(false));
          }}
        >
          Stop impersonating
        </Button>
      </Group>
    </Alert>
  );
}
