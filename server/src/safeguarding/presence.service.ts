import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import type { IncidentPresence } from '@portal/projections';
import type { Log } from '../platform/logging/logger.js';
import { LiveServer } from '../platform/live/live-server.js';
import type { LiveSocket } from '../platform/live/live-types.js';
import { LOGGER } from '../platform/tokens.js';
import { IncidentsReadModel } from './incidents.read.js';
import { parseIncidentId, presenceByIncident, startViewing, stopViewing, viewersOf } from './presence.js';
import { SAFEGUARDING_ROOMS } from './safeguarding-live.js';

const NO_ACCESS = 'You do not have permission to do this';
const NOT_FOUND = 'Incident not found';

/**
 * Who has which incident open (docs/decisions/0036-safeguarding-presence-and-claims.md), over the
 * `/live` connection: `presence:view` / `presence:leave` / `presence:list` from sockets in the
 * `safeguarding` room, a `presence` message to that room only. The state is each socket's
 * `data.viewing`, read with `fetchSockets()` on the room, so it holds across processes (Redis adapter)
 * and a disconnected socket, or one that lost safeguarding access, drops out by itself.
 */
@Injectable()
export class SafeguardingPresence implements OnModuleInit {
  private readonly log: Log;
  private readonly watched = new WeakSet<object>();

  constructor(
    private readonly live: LiveServer,
    private readonly incidents: IncidentsReadModel,
    @Inject(LOGGER) log: Log,
  ) {
    this.log = log.child({ component: 'safeguarding-presence' });
  }

  onModuleInit(): void {
    this.live.onConnection((socket) => this.attach(socket));
  }

  /** Everyone viewing each incident now (from every process's sockets in the `safeguarding` room). */
  async current(): Promise<IncidentPresence[]> {
    const sockets = await this.roomSockets();
    const byIncident = presenceByIncident(sockets);
    const names = await this.incidents.userNames([...byIncident.values()].flat());
    return [...byIncident].map(([incidentId, users]) => ({
      incidentId,
      viewers: users.map((userId) => ({ userId, name: names.get(userId) ?? '' })),
    }));
  }

  /** Who views one incident now. */
  async of(incidentId: string): Promise<IncidentPresence> {
    const users = viewersOf(await this.roomSockets(), incidentId);
    const names = await this.incidents.userNames(users);
    return { incidentId, viewers: users.map((userId) => ({ userId, name: names.get(userId) ?? '' })) };
  }

  private attach(socket: LiveSocket): void {
    const fail = (e: unknown) => {
      this.log.warn({ err: e, userId: socket.data.userId }, 'presence update failed');
    };
    socket.on('presence:view', (raw, ack) => {
      const reply = typeof ack === 'function' ? ack : () => {};
      const incidentId = parseIncidentId(raw);
      if (!this.mayUse(socket)) return reply({ error: NO_ACCESS });
      if (!incidentId) return reply({ error: 'incidentId must be a UUID' });
      this.incidents.byId(incidentId).then(async (row) => {
        if (!row) return reply({ error: NOT_FOUND });
        // Re-checked after the lookup: the socket may have gone or lost access meanwhile.
        if (!socket.connected || !this.mayUse(socket)) return reply({ error: NO_ACCESS });
        socket.data.viewing = startViewing(socket.data.viewing, incidentId);
        reply(await this.broadcast(incidentId));
      }, fail);
    });
    socket.on('presence:leave', (raw) => {
      const incidentId = parseIncidentId(raw);
      if (!incidentId || !socket.data.viewing?.includes(incidentId)) return;
      socket.data.viewing = stopViewing(socket.data.viewing, incidentId);
      this.broadcast(incidentId).catch(fail);
    });
    socket.on('presence:list', (ack) => {
      if (typeof ack !== 'function') return;
      if (!this.mayUse(socket)) return ack({ error: NO_ACCESS });
      this.current().then(
        (incidents) => ack({ incidents }),
        (e: unknown) => {
          fail(e);
          ack({ error: 'Could not read who is viewing' });
        },
      );
    });
    this.watchRoomLeaves();
  }

  /**
   * A socket leaving the `safeguarding` room (it disconnected, or its user lost safeguarding access and
   * `LiveSessions` took it out of the room) no longer counts: tell the room who is left on each incident
   * it viewed. The adapter reports leaves of this process's sockets only, which is where their state is.
   */
  private watchRoomLeaves(): void {
    const nsp = this.live.namespace;
    if (!nsp || this.watched.has(nsp.adapter)) return;
    this.watched.add(nsp.adapter);
    nsp.adapter.on('leave-room', (room: string, socketId: string) => {
      if (room !== SAFEGUARDING_ROOMS.access) return;
      const left: LiveSocket | undefined = nsp.sockets.get(socketId);
      const viewing = left?.data.viewing ?? [];
      if (!left || viewing.length === 0) return;
      left.data.viewing = [];
      for (const incidentId of viewing)
        this.broadcast(incidentId).catch((e: unknown) =>
          this.log.warn({ err: e, userId: left.data.userId }, 'presence update failed'),
        );
    });
  }

  /** Internal users with safeguarding access (the room follows permission changes). */
  private mayUse(socket: LiveSocket): boolean {
    return socket.rooms.has(SAFEGUARDING_ROOMS.access);
  }

  private async broadcast(incidentId: string): Promise<IncidentPresence> {
    const presence = await this.of(incidentId);
    this.live.namespace?.to(SAFEGUARDING_ROOMS.access).emit('presence', presence);
    return presence;
  }

  private async roomSockets() {
    const nsp = this.live.namespace;
    if (!nsp) return [];
    const sockets = await nsp.in(SAFEGUARDING_ROOMS.access).fetchSockets();
    return sockets.map((s) => ({ userId: s.data.userId, viewing: s.data.viewing }));
  }
}
