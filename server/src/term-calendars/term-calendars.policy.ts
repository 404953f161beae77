import { INTERNAL_PERMISSIONS, internalMay, isInternal, isPartner } from '../identity/policy/policy.js';
import { permissionRule } from '../platform/auth/rule.js';
import type { Actor } from '../platform/auth/request-context.js';

/**
 * Who reads and edits term calendars (pure; decision 0049). Internal users read all of them and edit
 * with the programme permission (administrators implicitly): calendars shape programmes' schedules.
 * Partners read their own customer's calendars and their network's.
 */
export const mayEditTermCalendars = (perms: ReadonlySet<string>) =>
  internalMay(perms, INTERNAL_PERMISSIONS.PROGRAMME);
export const mayReadTermCalendars = (perms: ReadonlySet<string>) => isInternal(perms) || isPartner(perms);

/** Whose calendars a reader sees: all (internal users) or a partner's customer and its network. */
export type CalendarScope = { all: true } | { all: false; customerId: string | null };

export function calendarScope(actor: Pick<Actor, 'permissions' | 'customerId'>): CalendarScope {
  return isInternal(actor.permissions) ? { all: true } : { all: false, customerId: actor.customerId };
}

/** Whether a scoped reader sees a calendar of this network and customer. */
export function calendarVisible(
  scope: CalendarScope,
  calendar: { network_id: string; customer_id: string | null },
  readerNetworkId: string | null,
): boolean {
  if (scope.all) return true;
  if (calendar.customer_id !== null) return calendar.customer_id === scope.customerId;
  return readerNetworkId !== null && calendar.network_id === readerNetworkId;
}

export const TermCalendarRules = {
  read: permissionRule(mayReadTermCalendars),
  edit: permissionRule(mayEditTermCalendars, 'You need the programme permission to change term calendars'),
};
