import type { Namespace, Server, Socket } from 'socket.io';
import type { ClientToServerEvents, ServerToClientEvents } from '@portal/projections';

/** Per-socket state (serializable: `fetchSockets()` carries it across processes through Redis). */
export interface LiveSocketData {
  userId: string;
  sessionId: string;
  impersonatorId: string | null;
  /** Incidents this socket has open (safeguarding presence, docs/decisions/0036). */
  viewing?: string[];
}

// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export type InterServerEvents = {};

export type LiveIo = Server<ClientToServerEvents, ServerToClientEvents, InterServerEvents, LiveSocketData>;
export type LiveNamespace = Namespace<
  ClientToServerEvents,
  ServerToClientEvents,
  InterServerEvents,
  LiveSocketData
>;
export type LiveSocket = Socket<
  ClientToServerEvents,
  ServerToClientEvents,
  InterServerEvents,
  LiveSocketData
>;
