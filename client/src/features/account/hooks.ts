import { useQueryClient } from '@tanstack/react-query';
import { notifySuccess } from '../../shared/notify';
import { useSession } from '../../shared/session';
import { fetchCurrentUser } from '../auth/api';
import { meApi } from './api';

/** Re-reads /users/me (after the write, via X-Min-Position) into the query cache and the session. */
export function useRefreshMe() {
  const queryClient = useQueryClient();
  return async () => {
    const fresh = await fetchCurrentUser();
    queryClient.setQueryData(['users', 'me'], fresh);
    useSession.getState().updateUser(fresh);
  };
}

/**
 * One profile setting saved with its own call (a `useServerForm` submit): write, re-read /users/me so
 * the header and the timezone banner follow, then say so. A refusal is the form's to show.
 */
export function useSaveSetting<T>(setting: string, success: string, body: (value: T) => unknown) {
  const refresh = useRefreshMe();
  return async (value: T) => {
    await meApi.saveSetting(setting, body(value));
    await refresh().catch(() => undefined);
    notifySuccess(success);
  };
}
