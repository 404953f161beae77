import { Inject, Injectable } from '@nestjs/common';
import { streamIdOf, type LiveEndReason } from '@portal/projections';
import type { RecordedEvent } from '../event-store/event-store.js';
import type { Log } from '../logging/logger.js';
import { LOGGER } from '../tokens.js';
import { SessionService } from '../auth/session.service.js';
import { LiveServer } from './live-server.js';
import { LiveRooms } from './room-policy.js';

/** `user-` events that end a user's live connections at once (matched by type name). */
export const DISCONNECTING_EVENTS: Readonly<Record<string, LiveEndReason>> = {
  UserBlocked: 'blocked',
  UserDeactivated: 'deactivated',
  PasswordChanged: 'session_ended',
  UserPersonalDataErased: 'no_access',
  UserDeleted: 'no_access',
};

/** `user-` events after which a user's rooms are derived again (and dead sessions dropped). */
export const REFRESHING_EVENTS: ReadonlySet<string> = new Set(['UserPermissionsChanged']);

export interface RefreshResult {
  /** Sockets whose rooms were re-derived. */
  kept: number;
  /** Sockets disconnected (session ended, user blocked, deactivated or gone). */
  disconnected: number;
}

/**
 * Keeps open sockets in line with their users' sessions and permissions. Works across processes: with
 * the Redis adapter, `fetchSockets`, `join`/`leave` and `disconnectSockets` reach every server.
 */
@Injectable()
export class LiveSessions {
  private readonly log: Log;

  constructor(
    private readonly server: LiveServer,
    private readonly sessions: SessionService,
    @Inject(LOGGER) log: Log,
  ) {
    this.log = log.child({ component: 'live' });
  }

  /**
   * Re-derives the rooms of every socket of `userId` from their current permissions; disconnects the
   * sockets whose session has ended, or all of them when the user may no longer sign in.
   */
  async refreshUser(userId: string): Promise<RefreshResult> {
    const nsp = this.server.namespace;
    if (!nsp) return { kept: 0, disconnected: 0 };
    const sockets = await nsp.in(LiveRooms.user(userId)).fetchSockets();
    if (sockets.length === 0) return { kept: 0, disconnected: 0 };
    const rooms = await this.server.roomsFor(userId);
    if (!rooms) {
      this.disconnectUser(userId, 'no_access');
      return { kept: 0, disconnected: sockets.length };
    }
    const alive = await this.sessions.alive([...new Set(sockets.map((s) => s.data.sessionId))]);
    const wanted = new Set(rooms);
    let kept = 0;
    let disconnected = 0;
    for (const socket of sockets) {
      if (!alive.has(socket.data.sessionId)) {
        socket.emit('ended', { reason: 'session_ended' });
        socket.disconnect(true);
        disconnected++;
        continue;
      }
      const current = [...socket.rooms].filter((r) => r !== socket.id);
      const leave = current.filter((r) => !wanted.has(r));
      const join = rooms.filter((r) => !socket.rooms.has(r));
      for (const room of leave) socket.leave(room);
      if (join.length) socket.join(join);
      kept++;
    }
    return { kept, disconnected };
  }

  /** Tells every socket of `userId` why, then disconnects them (on every server process). */
  disconnectUser(userId: string, reason: LiveEndReason): void {
    const nsp = this.server.namespace;
    if (!nsp) return;
    const room = LiveRooms.user(userId);
    nsp.to(room).emit('ended', { reason });
    nsp.in(room).disconnectSockets(true);
  }

  /** Reacts to committed `user-` events: blocks and deactivations disconnect, permission changes refresh. */
  handle(events: readonly RecordedEvent[]): void {
    const refresh = new Set<string>();
    for (const event of events) {
      const userId = streamIdOf(event.stream, 'user');
      if (!userId) continue;
      const reason = DISCONNECTING_EVENTS[event.type];
      if (reason) {
        refresh.delete(userId);
        this.disconnectUser(userId, reason);
      } else if (REFRESHING_EVENTS.has(event.type)) refresh.add(userId);
    }
    for (const userId of refresh) {
      this.refreshUser(userId).catch((e: unknown) =>
        this.log.error({ err: e, userId }, 'could not re-evaluate live rooms'),
      );
    }
  }
}
