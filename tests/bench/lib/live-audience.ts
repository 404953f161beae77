/**
 * Socket.IO clients for the live benchmarks (`live`, `attendance`): many sockets on `/live` that
 * record when each `live` message reached them, and a wait for a number of messages in all.
 */
import { io as connectClient, type Socket } from 'socket.io-client';
import { LIVE_NAMESPACE, LIVE_PATH, type LiveMessage } from '../../../projections/src/live-contract.js';

export interface Audience {
  sockets: Socket[];
  /** Per socket: receipt times (performance.now()) of the counted `live` messages, in order. */
  received: number[][];
  waiters: { count: number; resolve: () => void }[];
  total: number;
}

/**
 * Connects `count` sockets (50 at a time), socket i with `tokens[i % tokens.length]` (none for a bare
 * server). Only messages `accept` takes are counted (all by default).
 */
export async function connectAudience(
  url: string,
  count: number,
  tokens: readonly (string | null)[],
  accept: (m: LiveMessage) => boolean = () => true,
): Promise<Audience> {
  const audience: Audience = { sockets: [], received: [], waiters: [], total: 0 };
  const connectOne = (i: number) =>
    new Promise<void>((resolve, reject) => {
      const token = tokens[i % tokens.length] ?? null;
      const socket: Socket = connectClient(`${url}${LIVE_NAMESPACE}`, {
        path: LIVE_PATH,
        auth: token ? { token } : {},
        forceNew: true,
        reconnection: false,
        transports: ['websocket'],
      });
      audience.sockets.push(socket);
      const times: number[] = [];
      audience.received[i] = times;
      socket.on('live', (m: LiveMessage) => {
        if (!accept(m)) return;
        times.push(performance.now());
        audience.total++;
        for (const w of audience.waiters) if (audience.total >= w.count) w.resolve();
      });
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
  for (let i = 0; i < count; i += 50)
    await Promise.all(Array.from({ length: Math.min(50, count - i) }, (_, j) => connectOne(i + j)));
  return audience;
}

/** Resolves once the audience has received `count` messages in all (or rejects after 15 s). */
export function receivedAll(a: Audience, count: number): Promise<void> {
  if (a.total >= count) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`only ${a.total} of ${count} messages arrived`)), 15_000);
    a.waiters.push({
      count,
      resolve: () => {
        clearTimeout(timer);
        a.waiters = a.waiters.filter((w) => w.count !== count);
        resolve();
      },
    });
  });
}

/** Closes every socket of the audiences. */
export function closeAudiences(audiences: readonly Audience[]): void {
  for (const a of audiences) for (const s of a.sockets) s.close();
}
