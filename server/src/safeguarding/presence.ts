/**
 * Presence on the triage board (docs/decisions/0036-safeguarding-presence-and-claims.md): pure
 * bookkeeping over what each live socket says it has open. The sockets themselves (their
 * `data.viewing`, fetched across processes) are the state: nothing else is stored, so a socket that
 * disconnects, or a process that stops, takes its presence with it.
 */

/** What presence needs of one socket: whose it is and which incidents it has open. */
export interface PresenceSocket {
  userId: string;
  viewing?: readonly string[];
}

/** A socket keeps at most this many incidents open (tabs of one browser share one socket). */
export const MAX_VIEWING_PER_SOCKET = 20;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The incident id a client sent, lower-cased, or null when it is not a UUID. */
export function parseIncidentId(value: unknown): string | null {
  return typeof value === 'string' && UUID.test(value) ? value.toLowerCase() : null;
}

/** `viewing` with `incidentId` added last (once); the oldest are dropped past the limit. */
export function startViewing(viewing: readonly string[] | undefined, incidentId: string): string[] {
  const next = (viewing ?? []).filter((id) => id !== incidentId);
  next.push(incidentId);
  return next.slice(-MAX_VIEWING_PER_SOCKET);
}

/** `viewing` without `incidentId`. */
export function stopViewing(viewing: readonly string[] | undefined, incidentId: string): string[] {
  return (viewing ?? []).filter((id) => id !== incidentId);
}

/** Distinct users viewing `incidentId`, in the order of the sockets (a user with two tabs counts once). */
export function viewersOf(sockets: readonly PresenceSocket[], incidentId: string): string[] {
  const users = new Set<string>();
  for (const s of sockets) if (s.viewing?.includes(incidentId)) users.add(s.userId);
  return [...users];
}

/** Every incident someone views, with its distinct viewers (incidents in first-seen order). */
export function presenceByIncident(sockets: readonly PresenceSocket[]): Map<string, string[]> {
  const byIncident = new Map<string, Set<string>>();
  for (const s of sockets)
    for (const incidentId of s.viewing ?? []) {
      const users = byIncident.get(incidentId) ?? new Set<string>();
      users.add(s.userId);
      byIncident.set(incidentId, users);
    }
  return new Map([...byIncident].map(([id, users]) => [id, [...users]]));
}
