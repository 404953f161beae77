/**
 * The signed-in user's details as GET /api/v1/users/me returns them (spec §3, §7), and the pure rules
 * derived from them: the default route (spec §2) and the primary colour (spec §1).
 *
 * Everything beyond id, names and the permission list is optional: the server is growing these fields.
 */

export interface NetworkSummary {
  id: string | number;
  name?: string;
  timezone?: string;
  /** The network's configured primary colour (hex); read defensively from several spellings. */
  primary_color?: string | null;
  primary_colour?: string | null;
  color?: string | null;
}

export interface TimezoneInfo {
  user_timezone?: string | null;
  network_timezone?: string | null;
  network_name?: string | null;
  is_different?: boolean;
  difference_in_hours?: number | null;
  hours_difference?: number | null;
}

export interface CurrentUser {
  id: string | number;
  login?: string;
  email?: string;
  first_name?: string;
  last_name?: string;
  full_name?: string;
  user_type?: string;
  permission_list: string[];
  impersonator_id?: string | null;
  timezone?: string | null;
  timezone_info?: TimezoneInfo | null;
  networks?: NetworkSummary[] | null;
  active_network?: NetworkSummary | string | number | null;
  active_network_id?: string | number | null;
  network_id?: string | number | null;
  custom_dashboards?: { id: string | number; name?: string }[] | null;
  default_custom_dashboard_id?: string | number | null;
  user_profile?: { default_custom_dashboard_id?: string | number | null } | null;
}

/** Accepts a /users/me answer only when it has the fields the portal cannot work without. */
export function parseCurrentUser(candidate: unknown): CurrentUser | null {
  if (typeof candidate !== 'object' || candidate === null) return null;
  const record = candidate as Record<string, unknown>;
  if (typeof record.id !== 'string' && typeof record.id !== 'number') return null;
  if (!Array.isArray(record.permission_list)) return null;
  if (!record.permission_list.every((item) => typeof item === 'string')) return null;
  return candidate as CurrentUser;
}

export function displayName(user: CurrentUser): string {
  const full = user.full_name?.trim() || [user.first_name, user.last_name].filter(Boolean).join(' ').trim();
  return full || user.email || user.login || 'there';
}

export function firstName(user: CurrentUser): string {
  return user.first_name?.trim() || displayName(user).split(' ')[0] || 'there';
}

export const DASHBOARD_ROUTE = '/dashboard';

/**
 * Spec §2: `/` goes to the user's default custom dashboard when it is among their custom dashboards,
 * otherwise to Dashboard.
 */
export function defaultRoute(user: CurrentUser | null): string {
  if (!user) return DASHBOARD_ROUTE;
  const id = user.user_profile?.default_custom_dashboard_id ?? user.default_custom_dashboard_id;
  if (id === null || id === undefined || id === '') return DASHBOARD_ROUTE;
  const dashboards = Array.isArray(user.custom_dashboards) ? user.custom_dashboards : [];
  const found = dashboards.some((dashboard) => dashboard && String(dashboard.id) === String(id));
  return found ? `/custom-dashboards/${encodeURIComponent(String(id))}/details` : DASHBOARD_ROUTE;
}

/** The active network: from `active_network` (object or id) or `active_network_id`, looked up in `networks`. */
export function activeNetwork(user: CurrentUser | null): NetworkSummary | null {
  if (!user) return null;
  const networks = Array.isArray(user.networks) ? user.networks : [];
  const active = user.active_network;
  let id: string | number | null | undefined;
  if (typeof active === 'object' && active !== null) id = active.id;
  else id = active ?? user.active_network_id ?? user.network_id;
  if (id === null || id === undefined) return typeof active === 'object' ? active : null;
  const listed = networks.find((network) => network && String(network.id) === String(id));
  if (listed) return typeof active === 'object' && active !== null ? { ...active, ...listed } : listed;
  return typeof active === 'object' && active !== null ? active : null;
}

const HEX_COLOUR = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;

/** Spec §1: the active network's configured primary colour, or null for the default dark teal. */
export function networkPrimaryColour(user: CurrentUser | null): string | null {
  const network = activeNetwork(user);
  if (!network) return null;
  const colour = network.primary_color ?? network.primary_colour ?? network.color;
  if (typeof colour !== 'string') return null;
  const trimmed = colour.trim();
  return HEX_COLOUR.test(trimmed) ? normaliseHex(trimmed) : null;
}

function normaliseHex(hex: string): string {
  const body = hex.slice(1).toLowerCase();
  return body.length === 3
    ? `#${body
        .split('')
        .map((c) => c + c)
        .join('')}`
    : `#${body}`;
}

function mix(hex: string, target: number, weight: number): string {
  const channels = [1, 3, 5].map((start) => parseInt(hex.slice(start, start + 2), 16));
  return `#${channels
    .map((value) =>
      Math.round(value + (target - value) * weight)
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;
}

/**
 * A ten-shade palette around a network colour, with the colour itself at shade 7 (the shade the theme
 * uses for filled buttons in the light scheme), lighter tints below and darker shades above.
 */
export function paletteFromColour(hex: string): string[] {
  const base = normaliseHex(hex);
  const tints = [0.9, 0.8, 0.62, 0.45, 0.3, 0.18, 0.08].map((weight) => mix(base, 255, weight));
  return [...tints, base, mix(base, 0, 0.18), mix(base, 0, 0.35)];
}

/** Timezone mismatch (spec §4): the network name and hours difference, when the user details report one. */
export function timezoneMismatch(
  user: CurrentUser | null,
): { networkName: string; hours: number; userTimezone?: string; networkTimezone?: string } | null {
  const info = user?.timezone_info;
  if (!info || typeof info !== 'object' || info.is_different !== true) return null;
  const hours = info.difference_in_hours ?? info.hours_difference;
  return {
    networkName: info.network_name?.trim() || activeNetwork(user ?? null)?.name || 'your network',
    hours: typeof hours === 'number' && Number.isFinite(hours) ? hours : 0,
    userTimezone: info.user_timezone ?? undefined,
    networkTimezone: info.network_timezone ?? undefined,
  };
}
