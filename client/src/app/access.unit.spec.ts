import { describe, expect, it } from '@jest/globals';
import {
  CAN_MANAGE_TEMPLATES,
  CAN_MODIFY_NETWORK,
  canManagePermissionTemplates,
  canModifyNetwork,
  canReadNetworks,
  CAN_ACCESS_HOMEWORKS_PANEL,
  CAN_ACCESS_PATHWAYS,
  CAN_ACCESS_SAFEGUARDING,
  CAN_MANAGE_PROGRAMMES,
  CAN_MODIFY_USER,
  CAN_SETUP_PATHWAYS,
  CAN_ACCESS_RECORDINGS,
  CAN_VIEW_TEACHERS_TIMETABLES,
  PARTNER_CAN_EDIT_PROFILE_FOR_SELECTED_USER,
  PARTNER_CAN_SEE_PARENTS,
  PARTNER_CAN_SEE_SAFEGUARDING_INCIDENT_REPORTS,
  USER_IS_ADMIN,
  USER_IS_PARTNER,
  USER_IS_STUDENT,
  USER_IS_TEACHER,
  canAccessHalfTermAssignments,
  canAccessHomeworksPanel,
  canAccessPathways,
  canAccessSafeguarding,
  isSafeguardingLead,
  CAN_LEAD_SAFEGUARDING,
  canModifyProgram,
  canModifyUser,
  canPartnerEditProfile,
  canPartnerSeeIncidentReports,
  canPartnerSeeUser,
  canSetupPathways,
  canViewAllRecordings,
  canViewTeachersTimetables,
  has,
  hasAny,
  hasPartnerAccess,
  hasPortalAccess,
  isInternal,
  userTypeLabel,
} from './access';

describe('portal access (spec §1)', () => {
  it('admits admins, teachers and partners only', () => {
    expect(hasPortalAccess([USER_IS_ADMIN])).toBe(true);
    expect(hasPortalAccess([USER_IS_TEACHER])).toBe(true);
    expect(hasPortalAccess([USER_IS_PARTNER])).toBe(true);
    expect(hasPortalAccess([USER_IS_STUDENT])).toBe(false);
    expect(hasPortalAccess([])).toBe(false);
    expect(hasPortalAccess([CAN_MANAGE_PROGRAMMES])).toBe(false);
  });

  it('one permission or any of several', () => {
    expect(has(['A', 'B'], 'B')).toBe(true);
    expect(has(['A'], 'B')).toBe(false);
    expect(hasAny(['A'], ['B', 'A'])).toBe(true);
    expect(hasAny(['A'], [])).toBe(false);
  });

  it('internal means admin or teacher', () => {
    expect(isInternal([USER_IS_ADMIN])).toBe(true);
    expect(isInternal([USER_IS_TEACHER])).toBe(true);
    expect(isInternal([USER_IS_PARTNER])).toBe(false);
  });

  it('labels the user type from the marker permissions (spec §3)', () => {
    expect(userTypeLabel([USER_IS_ADMIN, USER_IS_TEACHER])).toBe('Administrator');
    expect(userTypeLabel([USER_IS_TEACHER])).toBe('Teacher');
    expect(userTypeLabel([USER_IS_PARTNER])).toBe('Customer');
    expect(userTypeLabel([USER_IS_STUDENT])).toBe('Student');
  });
});

describe('route requirements (spec §2)', () => {
  it('internal named permissions need an internal user; admins hold them implicitly', () => {
    expect(canModifyProgram([USER_IS_ADMIN])).toBe(true);
    expect(canViewAllRecordings([USER_IS_ADMIN])).toBe(true);
    expect(canModifyProgram([USER_IS_TEACHER, CAN_MANAGE_PROGRAMMES])).toBe(true);
    expect(canModifyProgram([USER_IS_TEACHER])).toBe(false);
    expect(canModifyProgram([USER_IS_PARTNER, CAN_MANAGE_PROGRAMMES])).toBe(false);
    expect(canAccessSafeguarding([USER_IS_TEACHER, CAN_ACCESS_SAFEGUARDING])).toBe(true);
    expect(canAccessSafeguarding([USER_IS_TEACHER])).toBe(false);
    expect(canAccessSafeguarding([USER_IS_PARTNER, CAN_ACCESS_SAFEGUARDING])).toBe(false);
    expect(canViewAllRecordings([USER_IS_TEACHER, CAN_ACCESS_RECORDINGS])).toBe(true);
    expect(canViewAllRecordings([USER_IS_TEACHER])).toBe(false);
  });

  it('opens safeguarding only with safeguarding access or the lead permission, not for being an admin', () => {
    expect(canAccessSafeguarding([USER_IS_ADMIN])).toBe(false);
    expect(canAccessSafeguarding([USER_IS_ADMIN, CAN_ACCESS_SAFEGUARDING])).toBe(true);
    expect(canAccessSafeguarding([USER_IS_TEACHER, CAN_LEAD_SAFEGUARDING])).toBe(true);
    expect(isSafeguardingLead([USER_IS_TEACHER, CAN_LEAD_SAFEGUARDING])).toBe(true);
    expect(isSafeguardingLead([USER_IS_ADMIN, CAN_ACCESS_SAFEGUARDING])).toBe(false);
    expect(isSafeguardingLead([USER_IS_PARTNER, CAN_LEAD_SAFEGUARDING])).toBe(false);
  });

  it('modify-user areas are admin-only', () => {
    expect(canModifyUser([USER_IS_ADMIN, CAN_MODIFY_USER])).toBe(true);
    expect(canModifyUser([USER_IS_ADMIN])).toBe(true);
    expect(canModifyUser([USER_IS_TEACHER, CAN_MODIFY_USER])).toBe(false);
  });

  it('partner requirements need a partner with the partner permission', () => {
    expect(canPartnerSeeUser([USER_IS_PARTNER, PARTNER_CAN_SEE_PARENTS])).toBe(true);
    expect(canPartnerSeeUser([USER_IS_PARTNER])).toBe(false);
    expect(canPartnerSeeUser([USER_IS_ADMIN, PARTNER_CAN_SEE_PARENTS])).toBe(false);
    expect(canPartnerEditProfile([USER_IS_PARTNER, PARTNER_CAN_EDIT_PROFILE_FOR_SELECTED_USER])).toBe(true);
    expect(canPartnerEditProfile([USER_IS_PARTNER])).toBe(false);
    expect(
      canPartnerSeeIncidentReports([USER_IS_PARTNER, PARTNER_CAN_SEE_SAFEGUARDING_INCIDENT_REPORTS]),
    ).toBe(true);
    expect(canPartnerSeeIncidentReports([USER_IS_PARTNER])).toBe(false);
  });

  it('named permissions without a role requirement', () => {
    for (const [predicate, permission] of [
      [canAccessHomeworksPanel, CAN_ACCESS_HOMEWORKS_PANEL],
      [canAccessPathways, CAN_ACCESS_PATHWAYS],
      [canSetupPathways, CAN_SETUP_PATHWAYS],
    ] as const) {
      expect(predicate([USER_IS_PARTNER, permission])).toBe(true);
      expect(predicate([USER_IS_TEACHER, permission])).toBe(true);
      expect(predicate([USER_IS_ADMIN])).toBe(false);
    }
    expect(canAccessPathways([USER_IS_TEACHER, CAN_SETUP_PATHWAYS])).toBe(false);
    // The teachers' grid is built: its server lets administrators in without the permission too.
    expect(canViewTeachersTimetables([USER_IS_PARTNER, CAN_VIEW_TEACHERS_TIMETABLES])).toBe(true);
    expect(canViewTeachersTimetables([USER_IS_TEACHER])).toBe(false);
    expect(canViewTeachersTimetables([USER_IS_ADMIN])).toBe(true);
  });

  it('half-term assignments need half-term assignment access (admins implicitly); partner access is admin or partner', () => {
    expect(canAccessHalfTermAssignments([USER_IS_ADMIN])).toBe(true);
    expect(canAccessHalfTermAssignments([USER_IS_TEACHER])).toBe(false);
    expect(canAccessHalfTermAssignments([USER_IS_TEACHER, 'CAN_MANAGE_HALF_TERM_ASSIGNMENTS'])).toBe(true);
    expect(canAccessHalfTermAssignments([USER_IS_PARTNER, 'CAN_MANAGE_HALF_TERM_ASSIGNMENTS'])).toBe(false);
    expect(hasPartnerAccess([USER_IS_ADMIN])).toBe(true);
    expect(hasPartnerAccess([USER_IS_PARTNER])).toBe(true);
    expect(hasPartnerAccess([USER_IS_TEACHER])).toBe(false);
  });
});

describe('network and permission template access (ADR 0031)', () => {
  const admin = [USER_IS_ADMIN];
  const adminWithNetwork = [USER_IS_ADMIN, CAN_MODIFY_NETWORK];
  const teacherWithNetwork = [USER_IS_TEACHER, CAN_MODIFY_NETWORK];
  const teacherWithTemplates = [USER_IS_TEACHER, CAN_MANAGE_TEMPLATES];
  const partner = [USER_IS_PARTNER, CAN_MANAGE_TEMPLATES, CAN_MODIFY_NETWORK];

  it('changing a network needs admin plus the network permission (spec §6)', () => {
    expect(canModifyNetwork(adminWithNetwork)).toBe(true);
    expect(canModifyNetwork(admin)).toBe(false);
    expect(canModifyNetwork(teacherWithNetwork)).toBe(false);
  });

  it('reading networks: administrators or holders of the network permission', () => {
    expect(canReadNetworks(admin)).toBe(true);
    expect(canReadNetworks(teacherWithNetwork)).toBe(true);
    expect(canReadNetworks([USER_IS_TEACHER])).toBe(false);
  });

  it('permission templates: internal users with the templates permission, administrators implicitly', () => {
    expect(canManagePermissionTemplates(admin)).toBe(true);
    expect(canManagePermissionTemplates(teacherWithTemplates)).toBe(true);
    expect(canManagePermissionTemplates([USER_IS_TEACHER])).toBe(false);
    expect(canManagePermissionTemplates(partner)).toBe(false);
  });
});
