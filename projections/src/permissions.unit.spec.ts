import { describe, expect, it } from '@jest/globals';
import {
  ALL_PERMISSIONS,
  isCataloguedPermission,
  PARTNER_PERMISSIONS,
  permissionLabel,
} from './permissions.js';

describe('the permission catalogue', () => {
  it('lists each name once, in upper snake case', () => {
    expect(new Set(ALL_PERMISSIONS).size).toBe(ALL_PERMISSIONS.length);
    for (const name of ALL_PERMISSIONS) expect(name).toMatch(/^[A-Z][A-Z_]*[A-Z]$/);
  });

  it('keeps the stored strings (a rename would orphan permission lists and events)', () => {
    expect(ALL_PERMISSIONS.length).toBe(87);
    expect(PARTNER_PERMISSIONS).toHaveLength(46);
    for (const name of [
      'USER_IS_ADMIN',
      'AUDIT',
      'CAN_ACCESS_SAFEGUARDING',
      'CAN_ACCESS_AND_UPLOAD_EHCP',
      'CAN_JOIN_LESSONS',
    ])
      expect(isCataloguedPermission(name)).toBe(true);
    expect(isCataloguedPermission('CAN_DO_ANYTHING')).toBe(false);
  });

  it('labels a partner permission without its prefix', () => {
    expect(permissionLabel('PARTNER_CAN_SEE_ALL_STUDENTS_DETAILS')).toBe('See All Students Details');
  });
});
