import { has, hasAny, isAdmin, isPartner, type PermissionList } from '../../app/access';
import type { CustomerRole, UserTypeName, UserView } from './api';
import { PARTNER, type PartnerUserKind } from '@portal/projections/permissions';

/**
 * What a partner may see and do with their own school's users (spec §6), mirroring the server's rules
 * (server/src/identity/policy/policy.ts `partnerVisibility`, server/src/identity/user-access.ts
 * `partnerPermissionsFor`), so the my-users screens never offer what the server would refuse.
 */

/** The kinds of customer-side users (the PARTNER_CAN_*_<KIND> suffixes). */
export type PartnerKind = PartnerUserKind;

export interface MyUserKind {
  kind: PartnerKind;
  /** The route segment of my-users/:type/:id and my-users/import/:type. */
  slug: string;
  label: string;
  /** One user of the kind, for "Add student" and the like. */
  singular: string;
  userType: UserTypeName;
  customerType: CustomerRole | null;
  /** The permission that shows users of this kind. */
  see: string;
}

/** In spec §6 order: students first, then the customer roles. */
export const MY_USER_KINDS: readonly MyUserKind[] = [
  {
    kind: 'STUDENTS',
    slug: 'students',
    label: 'Students',
    singular: 'Student',
    userType: 'student',
    customerType: null,
    see: PARTNER.SEE_ALL_STUDENTS_DETAILS,
  },
  {
    kind: 'SUPER_SYSADMINS',
    slug: 'super-sysadmins',
    label: 'Super system administrators',
    singular: 'Super system administrator',
    userType: 'partner',
    customerType: 'super-admin',
    see: PARTNER.SEE_SUPER_SYSADMINS,
  },
  {
    kind: 'SYSADMINS',
    slug: 'sysadmins',
    label: 'System administrators',
    singular: 'System administrator',
    userType: 'partner',
    customerType: 'admin',
    see: PARTNER.SEE_SYSADMINS,
  },
  {
    kind: 'LINK_CONTACTS',
    slug: 'link-contacts',
    label: 'Link contacts',
    singular: 'Link contact',
    userType: 'partner',
    customerType: 'link-contact',
    see: PARTNER.SEE_LINK_CONTACTS,
  },
  {
    kind: 'PARENTS',
    slug: 'parents',
    label: 'Parents / carers',
    singular: 'Parent / carer',
    userType: 'partner',
    customerType: 'parent',
    see: PARTNER.SEE_PARENTS,
  },
];

export const kindBySlug = (slug: string | undefined) => MY_USER_KINDS.find((k) => k.slug === slug);

/** The kind of a listed user; teachers and administrators are no kind. */
export function kindOfUser(user: Pick<UserView, 'user_type' | 'customer_profile'>): MyUserKind | undefined {
  if (user.user_type === 'student') return MY_USER_KINDS[0];
  if (user.user_type !== 'partner') return undefined;
  return MY_USER_KINDS.find((k) => k.customerType === user.customer_profile?.type);
}

/** The kinds the partner's SEE_* permissions show (the my-users tabs). */
export const visibleKinds = (permissions: PermissionList) =>
  MY_USER_KINDS.filter((k) => has(permissions, k.see));

/** The kinds a partner may add (ADD_NEW_<KIND>); administrators add every kind. */
export const addableKinds = (permissions: PermissionList) =>
  MY_USER_KINDS.filter((k) => isAdmin(permissions) || has(permissions, `PARTNER_CAN_ADD_NEW_${k.kind}`));

export type PartnerAction = 'edit' | 'disable' | 'password';

/** The permissions any one of which allows `action` on a user of `kind` (server `partnerPermissionsFor`). */
export function permissionsFor(action: PartnerAction, kind: PartnerKind): string[] {
  switch (action) {
    case 'edit':
      return [
        `PARTNER_CAN_EDIT_${kind}`,
        ...(kind === 'STUDENTS' ? [PARTNER.EDIT_ALL_STUDENTS] : []),
        PARTNER.EDIT_PROFILE_FOR_SELECTED_USER,
      ];
    case 'disable':
      return [`PARTNER_CAN_DISABLE_${kind}`];
    case 'password':
      return [PARTNER.CHANGE_PASSWORD_FOR_SELECTED_USER];
  }
}

/** Whether the viewer may do `action` to `user`: administrators always; partners per permission. */
export function mayActOn(
  permissions: PermissionList,
  action: PartnerAction,
  user: Pick<UserView, 'user_type' | 'customer_profile'>,
): boolean {
  if (isAdmin(permissions)) return true;
  const kind = kindOfUser(user);
  return (
    isPartner(permissions) && kind !== undefined && hasAny(permissions, permissionsFor(action, kind.kind))
  );
}

/** Whether the signed-in user is a parent / carer (spec §6: parents cannot see additional user notes). */
export function viewerIsParent(user: unknown): boolean {
  const profile = (user as { customer_profile?: { type?: unknown } | null } | null)?.customer_profile;
  return profile?.type === 'parent';
}

/** The two areas showing users: the administrators' users/… and the partners' my-users/…. */
export type UsersArea = 'users' | 'my-users';

export const areaPaths = {
  list: (area: UsersArea) => `/${area}`,
  listLabel: (area: UsersArea) => (area === 'users' ? 'All users' : 'My users'),
  details: (area: UsersArea, id: string) => `/${area}/${id}/details`,
  /** users/:id, or my-users/:type/:id with the user's kind (undefined when the user is no partner kind). */
  edit: (area: UsersArea, user: Pick<UserView, 'id' | 'user_type' | 'customer_profile'>) => {
    if (area === 'users') return `/users/${user.id}`;
    const kind = kindOfUser(user);
    return kind ? `/my-users/${kind.slug}/${user.id}` : undefined;
  },
};
