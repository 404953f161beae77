/**
 * Permission names as words. The assignable catalogue itself (names, labels, the view / action split)
 * comes from the server: GET /api/v1/permissions (features/permissions/api.ts); ADR 0031.
 */

import { PARTNER_PREFIX } from '@portal/projections/permissions';

export { PARTNER_PREFIX };

/** "PARTNER_CAN_SEE_ALL_STUDENTS_DETAILS" → "See All Students Details" (prefix dropped, title case). */
export function permissionLabel(perm: string): string {
  const bare = perm.startsWith(PARTNER_PREFIX)
    ? perm.slice(PARTNER_PREFIX.length)
    : perm.startsWith('CAN_')
      ? perm.slice('CAN_'.length)
      : perm;
  return bare
    .split('_')
    .filter(Boolean)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1).toLowerCase())
    .join(' ');
}
