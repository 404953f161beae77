import { create } from 'zustand';
import { clearOnLogout, getToken, setToken, TOKEN_KEY } from './storage';

/** The signed-in session. The token lives in local storage (spec §4); this store mirrors it for rendering. */
interface SessionState {
  token: string | null;
  signIn: (token: string) => void;
  /** Logout: clears local storage except the kept keys (see storage.clearOnLogout). */
  signOut: () => void;
}

export const useSession = create<SessionState>()((set) => ({
  token: getToken(),
  signIn: (token) => {
    setToken(token);
    set({ token });
  },
  signOut: () => {
    clearOnLogout();
    set({ token: null });
  },
}));

/** Follows sign-in and sign-out made in other tabs. Returns the unsubscribe function. */
export function followSessionAcrossTabs(): () => void {
  const onStorage = (event: StorageEvent) => {
    if (event.key === null || event.key === TOKEN_KEY) useSession.setState({ token: getToken() });
  };
  window.addEventListener('storage', onStorage);
  return () => window.removeEventListener('storage', onStorage);
}
