import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useNavigate } from 'react-router-dom';
import { endServerSessions, useSession } from '../../../shared/session';
import { getItem, getToken } from '../../../shared/storage';
import { ADMIN_TOKEN_KEY } from '../../impersonation/impersonation';

/**
 * Clears the session in this tab only: drops cached server data, clears storage (keeping the spec's two
 * keys), goes to Login. For sessions the server has already ended (the live channel's `ended`).
 */
export function useEndSession(): () => void {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const signOut = useSession((state) => state.signOut);
  return useCallback(() => {
    signOut();
    queryClient.clear();
    // Already on Login (e.g. sent there with a notice after a password change, while the live channel
    // reports the same session end): stay, keeping the notice.
    if (window.location.pathname !== '/login') void navigate('/login', { replace: true });
  }, [navigate, queryClient, signOut]);
}

/**
 * Signs out as the user asked: ends the session on the server first (and, while impersonating, the
 * administrator's own session, whose token is about to be forgotten), then clears it here, even when the
 * server could not be reached or the session had already ended.
 */
export function useLogout(): () => Promise<void> {
  const endSession = useEndSession();
  return useCallback(async () => {
    await endServerSessions([getToken(), getItem<string>(ADMIN_TOKEN_KEY)]);
    endSession();
  }, [endSession]);
}
