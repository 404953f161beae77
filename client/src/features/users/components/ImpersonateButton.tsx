import { Button } from '@mantine/core';
import { useState } from 'react';
import { CAN_IMPERSONATE, internalMay } from '../../../app/access';
import { usePermissions, useSession } from '../../../shared/session';
import { isImpersonating, useImpersonation } from '../../impersonation/impersonation';
import { Icon } from '../../../shared/ui/icons';
import type { UserView } from '../api';
import { ConfirmDialog } from '../../../shared/ui/ConfirmDialog';

/** "Sign in as" for users with the impersonation permission, when not impersonating already (spec §4). */
export function ImpersonateButton({ user }: { user: UserView }) {
  const permissions = usePermissions();
  const viewer = useSession((state) => state.user);
  const { start } = useImpersonation();
  const [open, setOpen] = useState(false);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<unknown>(null);
  if (!internalMay(permissions, CAN_IMPERSONATE) || isImpersonating() || String(viewer?.id) === user.id)
    return null;
  if (!user.has_access || user.is_blocked) return null;
  return (
    <>
      <Button variant="default" leftSection={<Icon name="key" size={16} />} onClick={() => setOpen(true)}>
        Sign in as
      </Button>
      <ConfirmDialog
        opened={open}
        title="Sign in as this user"
        message={`You will see the portal as ${user.full_name}. Your own session is kept; use "Stop impersonating" to return.`}
        confirmLabel="Sign in as"
        pending={pending}
        error={error}
        onClose={() => setOpen(false)}
        onConfirm={() => {
          setPending(true);
          setError(null);
          start(user.id)
            .catch((e: unknown) => setError(e))
            .finally(() => setPending(false));
        }}
      />
    </>
  );
}
