import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useNavigate } from 'react-router-dom';
import { apiRequest } from '../../shared/api/client';
import { fetchCurrentUser, type AccessToken } from '../auth/api';
import { endServerSessions, useSession } from '../../shared/session';
import { getItem, removeItem, setItem } from '../../shared/storage';

/**
 * Impersonation (spec §4): an administrator signs in as another user with an access token issued by
 * POST /api/v1/login/{id}/access-token. The administrator's own token is kept under `admin_token`, so
 * the session can switch back; a second impersonation is not offered while one is running.
 */
export const ADMIN_TOKEN_KEY = 'admin_token';

export function isImpersonating(): boolean {
  return getItem<string>(ADMIN_TOKEN_KEY) !== null;
}

export function useImpersonation() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const token = useSession((state) => state.token);
  const signIn = useSession((state) => state.signIn);

  const start = useCallback(
    async (userId: string) => {
      if (!token || isImpersonating()) throw new Error('Already impersonating: stop first.');
      const answer = await apiRequest<AccessToken>(
        `/api/v1/login/${encodeURIComponent(userId)}/access-token`,
        {
          method: 'POST',
        },
      );
      const user = await fetchCurrentUser(answer.access_token);
      setItem(ADMIN_TOKEN_KEY, token);
      signIn(answer.access_token, user);
      queryClient.clear();
      void navigate('/', { replace: true });
    },
    [token, signIn, queryClient, navigate],
  );

  const stop = useCallback(async () => {
    const adminToken = getItem<string>(ADMIN_TOKEN_KEY);
    if (!adminToken) return;
    const admin = await fetchCurrentUser(adminToken);
    // The impersonation session is done with: end it on the server too (decision 0039).
    void endServerSessions([token]);
    removeItem(ADMIN_TOKEN_KEY);
    signIn(adminToken, admin);
    queryClient.clear();
    void navigate('/users', { replace: true });
  }, [token, signIn, queryClient, navigate]);

  return { start, stop };
}
