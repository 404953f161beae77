import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useNavigate } from 'react-router-dom';
import { useSession } from '../../../shared/session';

/** Signs out: drops cached server data, clears storage (keeping the spec's two keys), goes to Login. */
export function useLogout(): () => void {
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
