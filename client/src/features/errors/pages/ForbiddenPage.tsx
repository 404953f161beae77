import { useQueryClient } from '@tanstack/react-query';
import { endServerSessions, useSession } from '../../../shared/session';
import { getItem, getToken } from '../../../shared/storage';
import { ADMIN_TOKEN_KEY } from '../../impersonation/impersonation';
import { StatusCard } from './StatusCard';

/** A signed-in user without portal access (spec §2): signing in again starts from a clean session. */
export function ForbiddenPage() {
  const hasSession = useSession((state) => state.token !== null);
  const signOut = useSession((state) => state.signOut);
  const queryClient = useQueryClient();
  return (
    <StatusCard
      code="403"
      title="Access denied"
      message="Your account does not have access to the portal. Sign in with a different account or contact your administrator."
      actionLabel={hasSession ? 'Sign in with a different account' : 'Back to sign in'}
      actionTo="/login"
      onAction={
        hasSession
          ? () => {
              // The link goes to Login at once; the server ends the session meanwhile (decision 0039).
              void endServerSessions([getToken(), getItem<string>(ADMIN_TOKEN_KEY)]);
              signOut();
              queryClient.clear();
            }
          : undefined
      }
    />
  );
}
