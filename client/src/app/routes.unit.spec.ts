import { describe, expect, it } from '@jest/globals';
import { PARTNER } from '@portal/projections/permissions';
import { CAN_ACCESS_HOMEWORKS_PANEL, USER_IS_ADMIN, USER_IS_PARTNER, USER_IS_TEACHER } from './access';
import {
  activeNavTarget,
  INVALID_TOKEN_ROUTES,
  linkPath,
  navigationFor,
  PROTECTED_ROUTES,
  PUBLIC_ROUTES,
} from './routes';

const paths = PROTECTED_ROUTES.map((route) => route.path);

describe('route table (spec §2)', () => {
  it('holds every protected route once, each with a title', () => {
    expect(new Set(paths).size).toBe(paths.length);
    for (const route of PROTECTED_ROUTES) expect(route.title.trim()).not.toBe('');
    for (const path of [
      'dashboard/:type?',
      'programmes/:id/groups/add',
      'half-term-reports/assignments',
      'safeguarding-incidents',
      'my-safeguarding-incidents',
      'timetables/teachers',
      'users/import/:type',
      'my-users/:type/:id',
      'homeworks',
      'customers/details/:id',
      'recordings',
      'pathways/setup/:id?',
      'mentoring/programmes/:id/groups/add',
      'custom-dashboards/:id/details',
    ]) {
      expect(paths).toContain(path);
    }
    // Spec §2 lists 142 child routes; users/:type is written out as its five values (users, users/students, ...);
    // added: users/:id/audit (ADR 0023) and the incident details routes the spec leaves out
    // (safeguarding-incidents/:id, my-safeguarding-incidents/:id), my-reported-concerns (issue 18).
    // Also added: the three teaching settings screens (settings/subjects, settings/year-groups,
    // settings/term-calendars; ADR 0049), my-child/:id? (a parent's page, ADR 0062) and
    // half-term-reports/live (the live board, ADR 0067).
    expect(PROTECTED_ROUTES.length).toBe(155);
  });

  it('writes the spec requirement beside the routes that have one', () => {
    const requirementOf = (path: string) =>
      PROTECTED_ROUTES.find((route) => route.path === path)?.requirement?.name;
    expect(requirementOf('programmes/:id/groups/add')).toBe('canModifyProgram');
    expect(requirementOf('mentoring/programmes/:id/groups/add')).toBe('canModifyProgram');
    expect(requirementOf('users/import/:type')).toBe('canModifyUser');
    expect(requirementOf('my-users/:type/:id')).toBe('partner see-user');
    expect(requirementOf('users/:id/enrolment')).toBe('partner see-user');
    expect(requirementOf('safeguarding-incidents')).toBe('safeguarding access');
    expect(requirementOf('my-safeguarding-incidents')).toBe('partner see-incident-reports');
    expect(requirementOf('half-term-reports/assignments')).toBe('half-term assignment access');
    expect(requirementOf('timetables/teachers')).toBe('teachers timetables');
    expect(requirementOf('homeworks')).toBe('homeworks panel');
    expect(requirementOf('pathways/details/:id?')).toBe('pathways access');
    expect(requirementOf('pathways/setup/:id?')).toBe('pathways setup');
    expect(requirementOf('recordings')).toBe('view-all-recordings');
    expect(requirementOf('partner/organization/:id/contacts')).toBe('partner edit-profile');
    expect(requirementOf('customers/details/:id')).toBe('partner access');
    expect(requirementOf('partner/relationships/:tabName?')).toBe('partner user-relations');
    expect(requirementOf('lessons')).toBe('lessons read');
    expect(requirementOf('enrolments')).toBeUndefined();
    // ADR 0031: the networks and permission templates APIs' own read rules.
    expect(requirementOf('networks/:id')).toBe('networks access');
    expect(requirementOf('permission-templates/:id')).toBe('permission templates');
  });

  it('lists the public pages, including the invalid-token ones', () => {
    expect(INVALID_TOKEN_ROUTES.map((route) => route.path)).toEqual([
      'activate/invalid-token',
      'register/partner/invalid-token',
      'safeguarding-incident/feedback/invalid-token',
    ]);
    expect(PUBLIC_ROUTES.map((route) => route.path)).toContain('meeting/join/:meetingId');
  });

  it('links drop optional segments', () => {
    expect(linkPath('dashboard/:type?')).toBe('/dashboard');
    expect(linkPath('reports/:reportName?')).toBe('/reports');
    expect(linkPath('users/students')).toBe('/users/students');
  });
});

describe('sidebar', () => {
  const everything = () => true;
  const labels = (permissions: string[]) =>
    navigationFor(permissions, everything).flatMap((group) =>
      group.items.map((item) => `${group.heading}/${item.label}`),
    );

  it('offers only the areas the user may open, grouped by the spec headings', () => {
    const admin = labels([USER_IS_ADMIN]);
    expect(admin).toContain('Dashboard and notifications/Dashboard');
    expect(admin).toContain('Users/Students');
    expect(admin).toContain('Half-term reports/Assignments');
    expect(admin).not.toContain('Learning/Homeworks');
    expect(admin).not.toContain('Users/My users');

    const teacher = labels([USER_IS_TEACHER, CAN_ACCESS_HOMEWORKS_PANEL]);
    expect(teacher).toContain('Learning/Homeworks');
    expect(teacher).not.toContain('Users/Students');
    expect(teacher).not.toContain('Half-term reports/Assignments');

    const partner = labels([USER_IS_PARTNER]);
    expect(partner).not.toContain('Partner organisation/Organisation');
    // Attendance only for partners who see it (the API's rule), and for every internal user.
    expect(partner.filter((label) => label.startsWith('Attendance/'))).toEqual([]);
    expect(labels([USER_IS_PARTNER, PARTNER.SEE_ATTENDANCE])).toEqual(
      expect.arrayContaining(['Attendance/Attendance', 'Attendance/By group', 'Attendance/By programme']),
    );
    expect(labels([USER_IS_PARTNER, PARTNER.SEE_ATTENDANCE])).not.toContain('Attendance/By tutor');
    expect(teacher).toContain('Attendance/Attendance');
    expect(navigationFor([USER_IS_PARTNER], everything).every((group) => group.items.length > 0)).toBe(true);
  });

  it('offers only areas whose screens are built, and drops a heading left empty', () => {
    const built = new Set(['dashboard/:type?', 'users/students', 'programmes']);
    const groups = navigationFor([USER_IS_ADMIN], (path) => built.has(path));
    expect(groups.flatMap((group) => group.items.map((item) => item.to)).sort()).toEqual([
      '/dashboard',
      '/programmes',
      '/users/students',
    ]);
    expect(groups.every((group) => group.items.length > 0)).toBe(true);
    expect(groups.map((group) => group.heading)).not.toContain('Half-term reports');
  });
});

describe('active sidebar entry', () => {
  const groups = navigationFor([USER_IS_ADMIN], () => true);

  it('is the longest matching link', () => {
    expect(activeNavTarget(groups, '/programmes/statistics')).toBe('/programmes/statistics');
    expect(activeNavTarget(groups, '/programmes/details/4')).toBe('/programmes');
    expect(activeNavTarget(groups, '/dashboard')).toBe('/dashboard');
    expect(activeNavTarget(groups, '/users/students')).toBe('/users/students');
    expect(activeNavTarget(groups, '/nothing-here')).toBeNull();
  });
});
