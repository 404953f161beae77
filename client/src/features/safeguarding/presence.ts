import type { IncidentPresence, PresenceViewer } from '@portal/projections/live-contract';
import { useEffect } from 'react';
import { create } from 'zustand';
import {
  connectedLiveSocket,
  onLiveConnected,
  onPresence,
  useLiveStatus,
} from '../../shared/live/live-connection';

/**
 * Who has which incident open (docs/decisions/0036-safeguarding-presence-and-claims.md). The server
 * sends `presence` to sockets with safeguarding access only; this tab tells it which incidents it has
 * open with `presence:view` / `presence:leave`, again after every reconnect.
 */
export type PresenceByIncident = Readonly<Record<string, readonly PresenceViewer[]>>;

const NOBODY: readonly PresenceViewer[] = [];

export const usePresenceStore = create<{ byIncident: PresenceByIncident }>()(() => ({ byIncident: {} }));

/** The store after one `presence` message: the incident's viewers replaced (removed when nobody). */
export function applyPresence(state: PresenceByIncident, presence: IncidentPresence): PresenceByIncident {
  const { [presence.incidentId]: _previous, ...rest } = state;
  return presence.viewers.length ? { ...rest, [presence.incidentId]: presence.viewers } : rest;
}

/** The store from a `presence:list` answer. */
export function presenceFromList(incidents: readonly IncidentPresence[]): PresenceByIncident {
  return incidents.reduce<PresenceByIncident>(applyPresence, {});
}

/** Incidents this tab has open, with how many mounted pages view each (re-sent on reconnect). */
const viewing = new Map<string, number>();

/**
 * Mounted once in the portal layout for users with safeguarding access: keeps the presence store in
 * step with the server (a full list on every connect, then `presence` messages) and re-announces what
 * this tab views. While offline the store is emptied rather than left stale.
 */
export function useSafeguardingPresence(enabled: boolean): void {
  useEffect(() => {
    if (!enabled) return undefined;
    const stopPresence = onPresence((presence) =>
      usePresenceStore.setState((s) => ({ byIncident: applyPresence(s.byIncident, presence) })),
    );
    const stopConnected = onLiveConnected((socket) => {
      for (const incidentId of viewing.keys()) socket.emit('presence:view', incidentId);
      socket.emit('presence:list', (answer) => {
        if ('incidents' in answer)
          usePresenceStore.setState({ byIncident: presenceFromList(answer.incidents) });
      });
    });
    const stopStatus = useLiveStatus.subscribe((s) => {
      if (s.state !== 'connected') usePresenceStore.setState({ byIncident: {} });
    });
    return () => {
      stopPresence();
      stopConnected();
      stopStatus();
      usePresenceStore.setState({ byIncident: {} });
    };
  }, [enabled]);
}

/** Tells the others that this tab has `incidentId` open while the calling component is mounted. */
export function useViewingIncident(incidentId: string, enabled: boolean): void {
  useEffect(() => {
    if (!enabled || !incidentId) return undefined;
    viewing.set(incidentId, (viewing.get(incidentId) ?? 0) + 1);
    connectedLiveSocket()?.emit('presence:view', incidentId);
    return () => {
      const left = (viewing.get(incidentId) ?? 1) - 1;
      if (left > 0) {
        viewing.set(incidentId, left);
        return;
      }
      viewing.delete(incidentId);
      connectedLiveSocket()?.emit('presence:leave', incidentId);
    };
  }, [incidentId, enabled]);
}

/** Who views an incident now (every user once), optionally without the current user. */
export function useIncidentViewers(incidentId: string, exceptUserId?: string): readonly PresenceViewer[] {
  const viewers = usePresenceStore((s) => s.byIncident[incidentId] ?? NOBODY);
  return exceptUserId ? viewers.filter((v) => v.userId !== exceptUserId) : viewers;
}
