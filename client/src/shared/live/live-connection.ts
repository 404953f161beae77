import { io, type Socket } from 'socket.io-client';
import {
  LIVE_ERRORS,
  LIVE_NAMESPACE,
  LIVE_PATH,
  type ClientToServerEvents,
  type ImportProgress,
  type IncidentPresence,
  type LiveMessage,
  type ReportPresence,
  type ServerToClientEvents,
} from '@portal/projections/live-contract';
import { create } from 'zustand';

export type LiveState = 'connected' | 'connecting' | 'offline';

interface LiveStatus {
  state: LiveState;
  /** Highest position processed (decimal string), kept across reconnects so nothing is missed. */
  lastPosition: string | null;
}

export const useLiveStatus = create<LiveStatus>()(() => ({ state: 'offline', lastPosition: null }));

type Listener = (message: LiveMessage) => void;
const listeners = new Set<Listener>();

/** Subscribes to every `live` message (after de-duplication). Returns the unsubscribe function. */
export function onLiveMessage(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

type ImportProgressListener = (progress: ImportProgress) => void;
const importListeners = new Set<ImportProgressListener>();

/** Subscribes to `import-progress` (CSV user imports this user started). Returns the unsubscribe function. */
export function onImportProgress(listener: ImportProgressListener): () => void {
  importListeners.add(listener);
  return () => importListeners.delete(listener);
}

export type LiveClientSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

let currentSocket: LiveClientSocket | null = null;
const connectListeners = new Set<(socket: LiveClientSocket) => void>();
const presenceListeners = new Set<(presence: IncidentPresence) => void>();

/**
 * Calls `listener` with the socket each time the tab's live connection (re)connects, and at once when
 * it is connected now: per-connection state on the server (what this tab views) is sent again there.
 */
export function onLiveConnected(listener: (socket: LiveClientSocket) => void): () => void {
  connectListeners.add(listener);
  if (currentSocket?.connected) listener(currentSocket);
  return () => connectListeners.delete(listener);
}

/** The live socket when connected (for client→server messages), otherwise null. */
export function connectedLiveSocket(): LiveClientSocket | null {
  return currentSocket?.connected ? currentSocket : null;
}

/** Subscribes to `presence` messages (who views an incident; safeguarding access only). */
export function onPresence(listener: (presence: IncidentPresence) => void): () => void {
  presenceListeners.add(listener);
  return () => presenceListeners.delete(listener);
}

const reportPresenceListeners = new Set<(presence: ReportPresence) => void>();

/** Subscribes to `report-presence` (who has a half-term report open; administrators and QA rooms). */
export function onReportPresence(listener: (presence: ReportPresence) => void): () => void {
  reportPresenceListeners.add(listener);
  return () => reportPresenceListeners.delete(listener);
}

/** True when `position` is new: positions are strictly increasing, so anything not above the last is a repeat. */
export function isNewPosition(position: string, last: string | null): boolean {
  return last === null || BigInt(position) > BigInt(last);
}

export interface LiveConnectionOptions {
  token: string;
  /** Server origin; defaults to the page's own. */
  url?: string;
  /** The server refused the session: the app signs out. */
  onSessionRejected: () => void;
  /** More was missed than the server replays: refetch everything shown. */
  onResyncNeeded: () => void;
}

/**
 * One Socket.IO connection per tab to `/live`. On every (re)connect the handshake carries the last
 * processed position, so the server replays what was missed; repeats are dropped by position.
 */
export function connectLive(options: LiveConnectionOptions): () => void {
  const socket: LiveClientSocket = io(`${options.url ?? ''}${LIVE_NAMESPACE}`, {
    path: LIVE_PATH,
    transports: ['websocket'],
    auth: (cb) => {
      const last = useLiveStatus.getState().lastPosition;
      cb(last === null ? { token: options.token } : { token: options.token, lastPosition: last });
    },
  });
  useLiveStatus.setState({ state: 'connecting' });
  currentSocket = socket;

  socket.on('connect', () => {
    // A first connection has no position to replay from: whatever was committed between this tab's
    // first reads and the moment the socket joined its rooms would be lost. Refetch what is shown once,
    // now that every later change arrives on the socket.
    if (useLiveStatus.getState().lastPosition === null) options.onResyncNeeded();
    useLiveStatus.setState({ state: 'connected' });
    for (const listener of connectListeners) listener(socket);
  });
  socket.on('presence', (presence) => {
    for (const listener of presenceListeners) listener(presence);
  });
  socket.on('report-presence', (presence) => {
    for (const listener of reportPresenceListeners) listener(presence);
  });
  socket.on('disconnect', () => useLiveStatus.setState({ state: socket.active ? 'connecting' : 'offline' }));
  socket.on('connect_error', (error) => {
    const rejected: string[] = [
      LIVE_ERRORS.invalidCredentials,
      LIVE_ERRORS.sessionEnded,
      LIVE_ERRORS.notAuthenticated,
    ];
    if (rejected.includes(error.message)) {
      socket.disconnect();
      useLiveStatus.setState({ state: 'offline' });
      options.onSessionRejected();
      return;
    }
    useLiveStatus.setState({ state: 'connecting' });
  });
  socket.on('ended', () => {
    socket.disconnect();
    useLiveStatus.setState({ state: 'offline' });
    options.onSessionRejected();
  });
  socket.on('resumed', (result) => {
    if (result.truncated) options.onResyncNeeded();
  });
  socket.on('live', (message) => {
    const { lastPosition } = useLiveStatus.getState();
    if (!isNewPosition(message.position, lastPosition)) return;
    useLiveStatus.setState({ lastPosition: message.position });
    for (const listener of listeners) listener(message);
  });

  socket.on('import-progress', (progress) => {
    for (const listener of importListeners) listener(progress);
  });

  return () => {
    if (currentSocket === socket) currentSocket = null;
    socket.disconnect();
    useLiveStatus.setState({ state: 'offline' });
  };
}
