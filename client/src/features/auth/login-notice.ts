import { create } from 'zustand';

/**
 * A notice for the next Login screen, kept outside the router's location state: when a session ends
 * on purpose (a password change), the live channel and the API may end it too and reach Login first,
 * without the notice. Whichever way the user arrives, Login shows it; signing in clears it.
 */
interface LoginNotice {
  notice: string | null;
  login: string | null;
  show: (notice: string, login: string | null) => void;
  clear: () => void;
}

export const useLoginNotice = create<LoginNotice>()((set) => ({
  notice: null,
  login: null,
  show: (notice, login) => set({ notice, login }),
  clear: () => set({ notice: null, login: null }),
}));
