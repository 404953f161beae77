import { ApiProperty } from '@nestjs/swagger';
import {
  ASSIGNABLE_PARTNER_PERMISSIONS,
  INTERNAL_PERMISSIONS,
  isViewPermission,
  permissionLabel,
} from '../policy/policy.js';

export type PermissionKind = 'view' | 'action' | 'internal';

/** One permission as the API shows it: its name (also its id), label and kind. */
export class PermissionInfo {
  @ApiProperty({ description: 'The permission name; used as {id} in /permissions/{id}/...' }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ example: 'See All Students Details' }) label!: string;
  @ApiProperty({
    enum: ['view', 'action', 'internal'],
    description: 'view / action: partner permissions (spec §6 split); internal: staff named permissions',
  })
  kind!: PermissionKind;
}

const info = (name: string, kind: PermissionKind): PermissionInfo => ({
  id: name,
  name,
  label: permissionLabel(name),
  kind,
});

/** The assignable partner permissions (spec §6), in catalogue order, with the view / action split. */
export const PARTNER_PERMISSION_INFOS: readonly PermissionInfo[] = ASSIGNABLE_PARTNER_PERMISSIONS.map((p) =>
  info(p, isViewPermission(p) ? 'view' : 'action'),
);

/** The internal named permissions staff (teachers) can be given; administrators hold them implicitly. */
export const INTERNAL_PERMISSION_INFOS: readonly PermissionInfo[] = Object.values(INTERNAL_PERMISSIONS).map(
  (p) => info(p, 'internal'),
);

/** Every permission an administrator can assign to users (docs/decisions/0013). */
export const ALL_PERMISSION_INFOS: readonly PermissionInfo[] = [
  ...PARTNER_PERMISSION_INFOS,
  ...INTERNAL_PERMISSION_INFOS,
];

const BY_NAME = new Map(ALL_PERMISSION_INFOS.map((p) => [p.name, p]));
export const permissionInfo = (name: string): PermissionInfo | undefined => BY_NAME.get(name);

const ASSIGNABLE = new Set(ASSIGNABLE_PARTNER_PERMISSIONS);
export const isAssignablePartnerPermission = (name: string) => ASSIGNABLE.has(name);
