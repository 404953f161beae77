export * from './projection.js';
export * from './list-query.js';
export * from './live-contract.js';
export * from './streams.js';
export * from './users/users.projection.js';
export * from './users/personal-fields.js';
export * from './permission-audit/permission-audit.projection.js';
export * from './customers/customers.projection.js';
export * from './safeguarding/safeguarding-events.js';
export * from './safeguarding/feedback-link-events.js';
export * from './safeguarding/safeguarding.projection.js';
export * from './customer-invitations/customer-invitations.projection.js';
export * from './availability/availability.projection.js';
export * from './custom-fields/custom-fields.projection.js';
export * from './permission-templates/permission-templates.projection.js';
export * from './networks/networks.projection.js';
export * from './one-page-profiles/one-page-profiles.projection.js';
export * from './users/student-activity.projection.js';
export * from './ehcp/ehcp-reminders.projection.js';
export * from './student-links/student-links.projection.js';
export * from './notifications/notifications.projection.js';
export * from './notifications/notifications.queries.js';
export * from './reference/reference.projection.js';
export * from './term-calendars/term-calendars.projection.js';
export * from './lessons/lessons.projection.js';
export * from './cover/cover.projection.js';
export * from './programmes/programmes.projection.js';
export * from './half-term-reports/half-term-reports.projection.js';
export * from './report-content.js';
export * from './report-suggestions.js';

import { usersProjection } from './users/users.projection.js';
import { permissionAuditProjection } from './permission-audit/permission-audit.projection.js';
import { customersProjection } from './customers/customers.projection.js';
import { safeguardingProjection } from './safeguarding/safeguarding.projection.js';
import { customerInvitationsProjection } from './customer-invitations/customer-invitations.projection.js';
import { availabilityProjection } from './availability/availability.projection.js';
import { customFieldsProjection } from './custom-fields/custom-fields.projection.js';
import { permissionTemplatesProjection } from './permission-templates/permission-templates.projection.js';
import { networksProjection } from './networks/networks.projection.js';
import { onePageProfilesProjection } from './one-page-profiles/one-page-profiles.projection.js';
import { studentActivityProjection } from './users/student-activity.projection.js';
import { ehcpRemindersProjection } from './ehcp/ehcp-reminders.projection.js';
import { studentLinksProjection } from './student-links/student-links.projection.js';
import { notificationsProjection } from './notifications/notifications.projection.js';
import { referenceProjection } from './reference/reference.projection.js';
import { termCalendarsProjection } from './term-calendars/term-calendars.projection.js';
import { lessonsProjection } from './lessons/lessons.projection.js';
import { coverRequestsProjection } from './cover/cover.projection.js';
import { attendanceProjection } from './attendance/attendance.projection.js';
import {
  enrolmentsProjection,
  groupsProjection,
  programmesProjection,
} from './programmes/programmes.projection.js';
import { halfTermReportsProjection } from './half-term-reports/half-term-reports.projection.js';
import type { Projection } from './projection.js';

/** Every read model the portal maintains, in the order they are created. */
export const allProjections: readonly Projection[] = [
  usersProjection,
  permissionAuditProjection,
  customersProjection,
  safeguardingProjection,
  customerInvitationsProjection,
  availabilityProjection,
  customFieldsProjection,
  permissionTemplatesProjection,
  networksProjection,
  onePageProfilesProjection,
  studentActivityProjection,
  ehcpRemindersProjection,
  studentLinksProjection,
  notificationsProjection,
  referenceProjection,
  termCalendarsProjection,
  lessonsProjection,
  programmesProjection,
  groupsProjection,
  enrolmentsProjection,
  coverRequestsProjection,
  attendanceProjection,
  halfTermReportsProjection,
];
export * from './customers/customers.queries.js';
export * from './safeguarding/incident-types.queries.js';
export * from './permission-templates/permission-templates.queries.js';
export * from './one-page-profiles/one-page-profiles.queries.js';
export * from './permission-audit/permission-audit.queries.js';
export * from './availability/availability.queries.js';
export * from './custom-fields/custom-fields.queries.js';
export * from './customer-invitations/customer-invitations.queries.js';
export * from './ehcp/ehcp-reminders.queries.js';
export * from './users/users.queries.js';
export * from './users/family.queries.js';
export * from './reference/reference.queries.js';
export * from './term-calendars/term-calendars.queries.js';
export * from './lessons/lessons.queries.js';
export * from './lessons/teacher-grid.queries.js';
export * from './lessons/teaching-reports.queries.js';
export * from './cover/cover.queries.js';
export * from './programmes/programmes.queries.js';
export * from './attendance/attendance-events.js';
export * from './attendance/attendance-codes.js';
export * from './attendance/attendance.projection.js';
export * from './attendance/attendance.queries.js';
export * from './half-term-reports/half-term-reports.queries.js';
