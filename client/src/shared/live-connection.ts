import { create } from 'zustand';

/** State of the live (real-time) connection. The socket work drives it; until then it stays 'offline'. */
export type LiveConnectionState = 'connected' | 'connecting' | 'offline';

interface LiveConnectionStore {
  state: LiveConnectionState;
  setState: (state: LiveConnectionState) => void;
}

export const useLiveConnection = create<LiveConnectionStore>()((set) => ({
  state: 'offline',
  setState: (state) => set({ state }),
}));
