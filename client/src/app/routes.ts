import {
  adminOnly,
  canAccessHalfTermAssignments,
  canLeadReviewReports,
  canListHalfTermReports,
  canPartnerSeeAssessments,
  canQaReviewReports,
  canAccessHomeworksPanel,
  canAccessPathways,
  canAccessSafeguarding,
  canAudit,
  canModifyProgram,
  canReadCustomers,
  canReadAttendance,
  canReadLessons,
  canManagePermissionTemplates,
  canModifyUser,
  canReadNetworks,
  canPartnerEditProfile,
  canPartnerSeeIncidentReports,
  canPartnerAccessUserRelations,
  canPartnerSeeUser,
  canSetupPathways,
  canViewAllRecordings,
  canViewTeachersTimetables,
  mayReportSafeguarding,
  hasPartnerAccess,
  isFamilyPartner,
  isInternal,
  type AccessPredicate,
  type PermissionList,
} from './access';

/**
 * The one route table (spec §2). Every protected route needs portal access (checked by the layout
 * guard); a route with a `requirement` needs that too. `nav` puts the route in the sidebar under its group.
 * Routes whose screens are not built yet render the "not built yet" page naming `title`.
 */

export interface Requirement {
  /** The requirement's name as spec §2 writes it. */
  name: string;
  allows: AccessPredicate;
}

export interface PortalRoute {
  path: string;
  title: string;
  requirement?: Requirement;
  /** Sidebar label; routes without one are reached from their area's screens. */
  nav?: string;
}

export interface RouteGroup {
  heading: string;
  routes: PortalRoute[];
}

const req = (name: string, allows: AccessPredicate): Requirement => ({ name, allows });

export const REQUIREMENTS = {
  canModifyProgram: req('canModifyProgram', canModifyProgram),
  /** Not named in spec §2: the customers API's read rule (decision 0046). */
  customersRead: req('customers read', canReadCustomers),
  /** Not named in spec §2: the lessons API's read rule (decision 0053). */
  lessonsRead: req('lessons read', canReadLessons),
  /** Not named in spec §2: the attendance lists' read rule (decision 0056). */
  attendanceRead: req('attendance read', canReadAttendance),
  /** Not named in spec §2: the incident types API's read rule (whoever reports or reads concerns). */
  incidentTypesRead: req(
    'incident types read',
    (p) => mayReportSafeguarding(p) || canPartnerSeeIncidentReports(p),
  ),
  canModifyUser: req('canModifyUser', canModifyUser),
  partnerSeeUser: req('partner see-user', canPartnerSeeUser),
  partnerUserRelations: req('partner user-relations', canPartnerAccessUserRelations),
  safeguardingAccess: req('safeguarding access', canAccessSafeguarding),
  /** Not named in spec §2: whoever may report a concern follows the concerns they reported. */
  reportSafeguarding: req('report safeguarding', mayReportSafeguarding),
  partnerSeeIncidentReports: req('partner see-incident-reports', canPartnerSeeIncidentReports),
  halfTermAssignmentAccess: req('half-term assignment access', canAccessHalfTermAssignments),
  /** Not named in spec §2: the half-term report APIs' rules (decision 0057). */
  halfTermReportLists: req('half-term report lists', canListHalfTermReports),
  qaReview: req('QA review', canQaReviewReports),
  qaLeadReview: req('QA lead review', canLeadReviewReports),
  partnerSeeAssessments: req('partner see-assessments', canPartnerSeeAssessments),
  teachersTimetables: req('teachers timetables', canViewTeachersTimetables),
  homeworksPanel: req('homeworks panel', canAccessHomeworksPanel),
  pathwaysAccess: req('pathways access', canAccessPathways),
  pathwaysSetup: req('pathways setup', canSetupPathways),
  viewAllRecordings: req('view-all-recordings', canViewAllRecordings),
  partnerEditProfile: req('partner edit-profile', canPartnerEditProfile),
  partnerAccess: req('partner access', hasPartnerAccess),
  audit: req('audit', canAudit),
  /** Not named in spec §2: the networks API's read rule (ADR 0031). */
  networksAccess: req('networks access', canReadNetworks),
  /** Not named in spec §2: the permission templates API's rule (ADR 0031). */
  permissionTemplates: req('permission templates', canManagePermissionTemplates),
  /** Not named in spec §2: administrators and teachers (the teaching settings, decision 0049). */
  internal: req('internal users', isInternal),
  /** Not named in spec §2: parents' and link contacts' page about one child (decision 0062). */
  familyPartner: req('family partner', isFamilyPartner),
  /** Spec §6 "Admin-only" areas. */
  admin: req('admin only (spec §6)', adminOnly),
} as const;

const R = REQUIREMENTS;

/** Public routes (auth layout, no login). Login, Forbidden and NotFound have their own pages. */
export const PUBLIC_ROUTES: PortalRoute[] = [
  { path: 'passwordreset', title: 'Password reset' },
  { path: 'activate', title: 'Account activation' },
  { path: 'register/partner/invite', title: 'Partner registration' },
  { path: 'safeguarding-incident/feedback/submitted', title: 'Safeguarding feedback' },
  { path: 'safeguarding-incident/feedback/:token?', title: 'Safeguarding feedback' },
  { path: 'safeguarding-incident/feedback/:feedbackId/confirm/:token?', title: 'Safeguarding feedback' },
  { path: 'meeting/join/:meetingId', title: 'Join a meeting' },
];

/** Public routes for links that are invalid or expired (spec §8). */
export const INVALID_TOKEN_ROUTES: PortalRoute[] = [
  { path: 'activate/invalid-token', title: 'Account activation' },
  { path: 'register/partner/invalid-token', title: 'Partner registration' },
  { path: 'safeguarding-incident/feedback/invalid-token', title: 'Safeguarding feedback' },
];

export const ROUTE_GROUPS: RouteGroup[] = [
  {
    heading: 'Dashboard and notifications',
    routes: [
      { path: 'dashboard/:type?', title: 'Dashboard', nav: 'Dashboard' },
      { path: 'notifications', title: 'Notifications', nav: 'Notifications' },
      // Not in spec §2 (issue 18, decision 0062): a parent's page about their child, beside their home.
      { path: 'my-child/:id?', title: 'My child', requirement: R.familyPartner, nav: 'My child' },
    ],
  },
  {
    heading: 'Programmes',
    routes: [
      { path: 'programmes', title: 'Programmes', nav: 'Programmes' },
      { path: 'programmes/statistics', title: 'Programme statistics', nav: 'Statistics' },
      { path: 'my-programmes', title: 'My programmes', nav: 'My programmes' },
      { path: 'programmes/details/:id', title: 'Programme details' },
      { path: 'programmes/bulk/:bulkid', title: 'Programme bulk edit' },
      { path: 'programmes/objectives/:bulkid', title: 'Programme objectives' },
      { path: 'programmes/add', title: 'Add a programme' },
      { path: 'programmes/:id/schedules', title: 'Programme schedules' },
      { path: 'programmes/:id/groups/add', title: 'Add a programme group', requirement: R.canModifyProgram },
    ],
  },
  {
    heading: 'Networks and permissions',
    routes: [
      { path: 'networks', title: 'Networks', requirement: R.networksAccess, nav: 'Networks' },
      { path: 'networks/details/:id', title: 'Network details', requirement: R.networksAccess },
      { path: 'networks/:id', title: 'Network', requirement: R.networksAccess },
      {
        path: 'permission-templates',
        title: 'Permission templates',
        requirement: R.permissionTemplates,
        nav: 'Permission templates',
      },
      { path: 'permission-templates/:id', title: 'Permission template', requirement: R.permissionTemplates },
    ],
  },
  {
    heading: 'Groups and students',
    routes: [
      { path: 'groups', title: 'Groups', requirement: R.admin, nav: 'Groups' },
      { path: 'groups/:id', title: 'Group', requirement: R.admin },
      { path: 'my-students', title: 'My students', requirement: R.internal, nav: 'My students' },
      { path: 'my-students/:id', title: 'Student' },
      {
        path: 'teacher-my-students',
        title: "Teacher's students",
        requirement: R.internal,
        nav: "Teacher's students",
      },
      { path: 'student-contacts', title: 'Student contacts', nav: 'Student contacts' },
      {
        path: 'partner/relationships/:tabName?',
        title: 'Relationships',
        requirement: R.partnerUserRelations,
        nav: 'Relationships',
      },
    ],
  },
  {
    heading: 'Lessons',
    routes: [
      { path: 'my-lessons', title: 'My lessons', requirement: R.lessonsRead, nav: 'My lessons' },
      { path: 'lessons', title: 'Lessons', requirement: R.lessonsRead, nav: 'Lessons' },
      { path: 'lessons/:id', title: 'Lesson' },
      { path: 'lessons/:id/details', title: 'Lesson details' },
      { path: 'lessons/:id/recordings/:recordingId/editor/:type?', title: 'Recording editor' },
    ],
  },
  {
    heading: 'Half-term reports',
    routes: [
      { path: 'half-term-report/:id/:mode?', title: 'Half-term report' },
      {
        path: 'partner/half-term-reports',
        title: 'Partner half-term reports',
        requirement: R.partnerSeeAssessments,
        nav: 'Partner reports',
      },
      {
        path: 'my-half-term-reports',
        title: 'My half-term reports',
        requirement: R.internal,
        nav: 'My reports',
      },
      {
        path: 'half-term-reports',
        title: 'Half-term reports',
        requirement: R.halfTermReportLists,
        nav: 'All reports',
      },
      {
        path: 'half-term-reports-qa',
        title: 'Half-term reports QA',
        requirement: R.qaReview,
        nav: 'QA review',
      },
      {
        path: 'half-term-reports-qa-lead',
        title: 'Half-term reports QA lead',
        requirement: R.qaLeadReview,
        nav: 'QA lead review',
      },
      {
        path: 'half-term-reports/assignments',
        title: 'Half-term report assignments',
        requirement: R.halfTermAssignmentAccess,
        nav: 'Assignments',
      },
      {
        // Not in spec §3: who is in which report now (issue 17 item 10, decision 0067).
        path: 'half-term-reports/live',
        title: 'Half-term reports live board',
        requirement: R.halfTermReportLists,
        nav: 'Live board',
      },
    ],
  },
  {
    heading: 'Partner organisation',
    routes: [
      {
        path: 'partner/organization',
        title: 'Partner organisation',
        requirement: R.partnerEditProfile,
        nav: 'Organisation',
      },
      {
        path: 'partner/organization/:id/contacts',
        title: 'Organisation contacts',
        requirement: R.partnerEditProfile,
      },
    ],
  },
  {
    heading: 'Safeguarding',
    routes: [
      {
        path: 'safeguarding-incidents',
        title: 'Safeguarding incidents',
        requirement: R.safeguardingAccess,
        nav: 'Incidents',
      },
      // Not in spec §2 (which lists no details route): one incident. No client requirement: the server
      // lets safeguarding staff and the reporter (their own report) read it and answers 404 to others.
      { path: 'safeguarding-incidents/:id', title: 'Safeguarding incident' },
      {
        path: 'my-safeguarding-incidents',
        title: 'My safeguarding incidents',
        requirement: R.partnerSeeIncidentReports,
        nav: 'My incidents',
      },
      {
        path: 'my-safeguarding-incidents/:id',
        title: 'Safeguarding incident',
        requirement: R.partnerSeeIncidentReports,
      },
      // Not in spec §2 (issue 18): the concerns the user reported, followed live.
      {
        path: 'my-reported-concerns',
        title: 'My reported concerns',
        requirement: R.reportSafeguarding,
        nav: 'My reported concerns',
      },
      {
        path: 'safeguarding-incident-types',
        title: 'Safeguarding incident types',
        requirement: R.incidentTypesRead,
        nav: 'Incident types',
      },
      { path: 'safeguarding-incident/:id/pdf', title: 'Safeguarding incident PDF' },
    ],
  },
  {
    heading: 'Scheduling',
    routes: [
      { path: 'scheduling', title: 'Scheduling', requirement: R.canModifyProgram, nav: 'Scheduling' },
      { path: 'scheduling/:id', title: 'Schedule' },
      { path: 'timetable/:id?', title: 'Timetable', requirement: R.lessonsRead, nav: 'Timetable' },
      {
        path: 'timetables/teachers',
        title: "Teachers' timetables",
        requirement: R.teachersTimetables,
        nav: "Teachers' timetables",
      },
    ],
  },
  {
    heading: 'Enrolments',
    routes: [
      { path: 'enrolments', title: 'Enrolments', nav: 'Enrolments' },
      { path: 'enrolment-submissions/:id?', title: 'Enrolment submissions' },
      { path: 'enrolment-submissions/admin/:id', title: 'Enrolment submission', requirement: R.admin },
      {
        path: 'enrolment-submissions/admin',
        title: 'Enrolment submissions (admin)',
        requirement: R.admin,
        nav: 'Submissions',
      },
      {
        path: 'enrolment-submissions/partner',
        title: 'Partner enrolment submissions',
        nav: 'Partner submissions',
      },
    ],
  },
  {
    heading: 'Users',
    routes: [
      { path: 'fields', title: 'Custom fields', requirement: R.canModifyUser, nav: 'Custom fields' },
      { path: 'users', title: 'Users', requirement: R.admin, nav: 'All users' },
      { path: 'users/students', title: 'Students', requirement: R.admin, nav: 'Students' },
      { path: 'users/teachers', title: 'Teachers', requirement: R.admin, nav: 'Teachers' },
      { path: 'users/partners', title: 'Partner users', requirement: R.admin, nav: 'Partner users' },
      { path: 'users/admins', title: 'Administrators', requirement: R.admin, nav: 'Administrators' },
      {
        path: 'users/permissions',
        title: 'User permissions',
        requirement: R.canModifyUser,
        nav: 'Permissions',
      },
      { path: 'users/activity', title: 'User activity', requirement: R.admin, nav: 'Activity' },
      {
        path: 'users/one-page-profiles',
        title: 'One-page profiles',
        // The list is for administrators and partners; teachers open their students' profiles from
        // _My students_ and the home page (issue 18).
        requirement: R.partnerAccess,
        nav: 'One-page profiles',
      },
      { path: 'users/import/:type', title: 'Import users', requirement: R.canModifyUser },
      { path: 'my-users', title: 'My users', requirement: R.partnerSeeUser, nav: 'My users' },
      { path: 'my-users/import/:type', title: 'Import my users', requirement: R.partnerSeeUser },
      { path: 'users/:id/details', title: 'User details' },
      { path: 'users/:id', title: 'User' },
      { path: 'users/:id/audit', title: 'User audit', requirement: R.audit },
      { path: 'users/legacy/:id', title: 'User (legacy view)' },
      { path: 'users/:id/enrolment', title: 'User enrolment', requirement: R.partnerSeeUser },
      { path: 'my-users/:id/details', title: 'My user details', requirement: R.partnerSeeUser },
      { path: 'my-users/:type/:id', title: 'My user', requirement: R.partnerSeeUser },
      { path: 'one-page-profiles/:id/details', title: 'One-page profile' },
    ],
  },
  {
    heading: 'Learning',
    routes: [
      { path: 'learning-objectives', title: 'Learning objectives', nav: 'Learning objectives' },
      { path: 'learning-objectives/import', title: 'Import learning objectives' },
      { path: 'learning-objectives/details/:id', title: 'Learning objective details' },
      { path: 'learning-objectives/:id', title: 'Learning objective' },
      { path: 'homeworks', title: 'Homeworks', requirement: R.homeworksPanel, nav: 'Homeworks' },
      { path: 'homeworks/details/:id', title: 'Homework details' },
      { path: 'skills', title: 'Skills', nav: 'Skills' },
      { path: 'curriculum/leaders', title: 'Curriculum leaders', nav: 'Curriculum leaders' },
    ],
  },
  {
    heading: 'Posts',
    routes: [
      { path: 'posts', title: 'Posts', nav: 'Posts' },
      { path: 'posts/reports', title: 'Post reports', nav: 'Reported posts' },
      { path: 'posts/moderation', title: 'Post moderation', nav: 'Moderation' },
    ],
  },
  {
    // Not in spec §2 (decision 0049): the teaching reference data and term calendars. Every internal
    // user reads them; the screens offer editing to holders of the subject / programme permissions.
    heading: 'Teaching settings',
    routes: [
      { path: 'settings/subjects', title: 'Subjects', requirement: R.internal, nav: 'Subjects' },
      { path: 'settings/year-groups', title: 'Year groups', requirement: R.internal, nav: 'Year groups' },
      {
        path: 'settings/term-calendars',
        title: 'Term calendars',
        requirement: R.internal,
        nav: 'Term calendars',
      },
    ],
  },
  {
    heading: 'Bases and customers',
    routes: [
      { path: 'bases', title: 'Bases', nav: 'Bases' },
      { path: 'bases/details/:id', title: 'Base details' },
      { path: 'bases/:id', title: 'Base' },
      { path: 'bases/feed/:id', title: 'Base feed' },
      { path: 'my-bases', title: 'My bases', nav: 'My bases' },
      { path: 'customers', title: 'Customers', requirement: R.customersRead, nav: 'Customers' },
      { path: 'customers/details/:id', title: 'Customer details', requirement: R.partnerAccess },
      { path: 'customers/:id', title: 'Customer' },
      { path: 'customer-invitations', title: 'Customer invitations', nav: 'Invitations' },
    ],
  },
  {
    heading: 'Products and pricing',
    routes: [
      { path: 'products', title: 'Products', nav: 'Products' },
      { path: 'products/:id', title: 'Product' },
      { path: 'pricelists', title: 'Price lists', nav: 'Price lists' },
      { path: 'pricelists/:id', title: 'Price list' },
      { path: 'teacher-rate-schedules', title: 'Teacher rate schedules', nav: 'Teacher rates' },
      { path: 'teacher-rate-schedules/:id', title: 'Teacher rate schedule' },
    ],
  },
  {
    heading: 'Revenue and orders',
    routes: [
      { path: 'revenue/lessons/records', title: 'Lesson revenue', nav: 'Lesson revenue' },
      { path: 'revenue/students/records', title: 'Student revenue', nav: 'Student revenue' },
      { path: 'revenue/statistics', title: 'Revenue statistics', nav: 'Revenue statistics' },
      { path: 'purchase-orders', title: 'Purchase orders', nav: 'Purchase orders' },
      { path: 'teacher-my-purchase-orders', title: 'My purchase orders', nav: 'My purchase orders' },
    ],
  },
  {
    heading: 'Profile and messages',
    routes: [
      { path: 'profile', title: 'Profile', nav: 'Profile' },
      { path: 'my-messages', title: 'Messages', nav: 'Messages' },
      { path: 'messages/:id', title: 'Message' },
    ],
  },
  {
    heading: 'Attendance',
    routes: [
      { path: 'attendance', title: 'Attendance', requirement: R.attendanceRead, nav: 'Attendance' },
      {
        path: 'attendance/groups',
        title: 'Attendance by group',
        requirement: R.attendanceRead,
        nav: 'By group',
      },
      {
        path: 'attendance/programmes',
        title: 'Attendance by programme',
        requirement: R.attendanceRead,
        nav: 'By programme',
      },
      { path: 'attendance/tutors', title: 'Attendance by tutor', requirement: R.internal, nav: 'By tutor' },
      {
        path: 'attendance/different-class',
        title: 'Attendance in a different class',
        requirement: R.attendanceRead,
        nav: 'Different class',
      },
    ],
  },
  {
    heading: 'Recordings',
    routes: [
      { path: 'recordings', title: 'Recordings', requirement: R.viewAllRecordings, nav: 'All recordings' },
      { path: 'customer-recordings', title: 'Customer recordings', nav: 'Customer recordings' },
    ],
  },
  {
    heading: 'Reports and more',
    routes: [
      { path: 'reports/:reportName?', title: 'Reports', requirement: R.admin, nav: 'Reports' },
      { path: 'cover-requests', title: 'Cover requests', requirement: R.internal, nav: 'Cover requests' },
      { path: 'servers', title: 'Servers', nav: 'Servers' },
      {
        path: 'report-submission-timeframes',
        title: 'Report submission timeframes',
        requirement: R.internal,
        nav: 'Submission timeframes',
      },
      {
        path: 'report-submission-timeframes/:id',
        title: 'Report submission timeframe',
        requirement: R.admin,
      },
      {
        path: 'report-submission-timeframes/:id/details',
        title: 'Report submission timeframe details',
        requirement: R.internal,
      },
    ],
  },
  {
    heading: 'Contact',
    routes: [
      { path: 'contact-us', title: 'Contact us', nav: 'Contact us' },
      { path: 'request-types', title: 'Request types', nav: 'Request types' },
      { path: 'contact-submissions', title: 'Contact submissions', nav: 'Submissions' },
    ],
  },
  {
    heading: 'Broadcasts',
    routes: [
      { path: 'broadcasts/messages', title: 'Broadcast messages', nav: 'Messages' },
      { path: 'broadcasts/messages/:id', title: 'Broadcast message' },
      { path: 'broadcasts/categories', title: 'Broadcast categories', nav: 'Categories' },
      { path: 'email-templates', title: 'Email templates', nav: 'Email templates' },
    ],
  },
  {
    heading: 'Bookings',
    routes: [
      { path: 'booking-settings', title: 'Booking settings', requirement: R.admin, nav: 'Booking settings' },
      { path: 'bookings', title: 'Bookings', nav: 'Bookings' },
      { path: 'bookings/:id/details', title: 'Booking details' },
      { path: 'bookings/:id/shared/assignments', title: 'Shared booking assignments' },
      { path: 'bookings/:id/private/options', title: 'Private booking options' },
      { path: 'bookings/:buttonSettingsId/new', title: 'New booking' },
    ],
  },
  {
    heading: 'Mentoring',
    routes: [
      { path: 'mentoring/sessions', title: 'Mentoring sessions', nav: 'Sessions' },
      { path: 'mentoring/programmes', title: 'Mentoring programmes', nav: 'Programmes' },
      { path: 'mentoring/enrolments', title: 'Mentoring enrolments', nav: 'Enrolments' },
      { path: 'mentoring/sessions/create', title: 'New mentoring session' },
      { path: 'mentoring/sessions/:id/edit', title: 'Edit mentoring session' },
      { path: 'mentoring/programmes/create', title: 'New mentoring programme' },
      { path: 'mentoring/programmes/:id/edit', title: 'Edit mentoring programme' },
      { path: 'mentoring/sessions/:id/details', title: 'Mentoring session details' },
      { path: 'mentoring/programmes/:id/details', title: 'Mentoring programme details' },
      { path: 'mentoring/groups/:id', title: 'Mentoring group' },
      {
        path: 'mentoring/programmes/:id/groups/add',
        title: 'Add a mentoring group',
        requirement: R.canModifyProgram,
      },
    ],
  },
  {
    heading: 'Pathways',
    routes: [
      { path: 'pathways', title: 'Pathways', requirement: R.pathwaysAccess, nav: 'Pathways' },
      { path: 'pathways/details/:id?', title: 'Pathway details', requirement: R.pathwaysAccess },
      {
        path: 'pathways/setup/:id?',
        title: 'Pathway setup',
        requirement: R.pathwaysSetup,
        nav: 'Pathway setup',
      },
    ],
  },
  {
    heading: 'Custom dashboards',
    routes: [
      { path: 'custom-dashboards', title: 'Custom dashboards', nav: 'Custom dashboards' },
      { path: 'custom-dashboards/:id/details', title: 'Custom dashboard' },
      { path: 'custom-dashboards/:id/setup', title: 'Custom dashboard setup' },
    ],
  },
];

/** Every protected route with its group. */
export const PROTECTED_ROUTES: (PortalRoute & { group: string })[] = ROUTE_GROUPS.flatMap((group) =>
  group.routes.map((route) => ({ ...route, group: group.heading })),
);

export function canOpen(route: PortalRoute, permissions: PermissionList): boolean {
  return route.requirement === undefined || route.requirement.allows(permissions);
}

export interface NavItem {
  label: string;
  /** Link target: the route path without optional segments. */
  to: string;
}

export interface NavGroup {
  heading: string;
  items: NavItem[];
}

/** The route's path for a link: optional segments dropped (`dashboard/:type?` → `/dashboard`). */
export function linkPath(path: string): string {
  return `/${path
    .split('/')
    .filter((segment) => !segment.endsWith('?'))
    .join('/')}`;
}

/**
 * The sidebar: the areas this permission list may open *and* whose screens are built (`isBuilt`, from
 * `app/built-screens.ts`), grouped like spec §2's headings. An area appears once it is built; no entry
 * leads to a "not built yet" or "no access" page (issue 18).
 */
export function navigationFor(permissions: PermissionList, isBuilt: (path: string) => boolean): NavGroup[] {
  return ROUTE_GROUPS.map((group) => ({
    heading: group.heading,
    items: group.routes
      .filter((route) => route.nav !== undefined && canOpen(route, permissions) && isBuilt(route.path))
      .map((route) => ({ label: route.nav as string, to: linkPath(route.path) })),
  })).filter((group) => group.items.length > 0);
}

function matches(pathname: string, to: string): boolean {
  return pathname === to || pathname.startsWith(`${to}/`);
}

/** The one sidebar entry for a path: the longest matching link (/programmes/statistics beats /programmes). */
export function activeNavTarget(groups: NavGroup[], pathname: string): string | null {
  let best: string | null = null;
  for (const group of groups) {
    for (const item of group.items) {
      if (matches(pathname, item.to) && (best === null || item.to.length > best.length)) best = item.to;
    }
  }
  return best;
}
