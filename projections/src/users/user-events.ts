/**
 * Payloads of the events in a user's stream (`user-{id}`), written by server/src/identity and read by
 * the users projection. Payloads only grow compatibly: new fields are optional, old events stay valid.
 * No secret (password, hash, token) is ever part of a payload (docs/decisions/0004).
 */

export type UserTypeName = 'super_admin' | 'teacher' | 'partner' | 'student';
export type CustomerTypeName = 'super-admin' | 'admin' | 'link-contact' | 'parent';

export interface UserCreatedData {
  userId: string;
  login: string;
  email: string;
  firstName: string;
  lastName: string;
  userType: UserTypeName;
  permissions: string[];
  /** Added by the identity issue; absent in events written before it. */
  customerId?: string | null;
  customerType?: CustomerTypeName | null;
  networkId?: string | null;
  timezone?: string | null;
  notes?: string | null;
  /** True when created without a password: the user sets one through the mailed activation link. */
  awaitingActivation?: boolean;
  /** Values of the administrators' custom fields, by field id. */
  customFields?: Record<string, CustomFieldValue>;
}

export type CustomFieldValue = string | number | null;

export interface UserProfileChanges {
  firstName?: string;
  lastName?: string;
  email?: string;
  timezone?: string | null;
  notes?: string | null;
  customerId?: string | null;
  customerType?: CustomerTypeName | null;
  networkId?: string | null;
  /** Staff job title (decision 0056: the statutory "position" on register amendments); null clears it. */
  position?: string | null;
  /** Custom field values to set, by field id; null removes a value; others stay. */
  customFields?: Record<string, CustomFieldValue>;
}

export interface UserProfileUpdatedData {
  userId: string;
  changes: UserProfileChanges;
}

export interface UserRef {
  userId: string;
}

export interface UserDeactivatedData extends UserRef {
  /** True when a scheduled deactivation came due (applied by the scheduler). */
  scheduled: boolean;
}

export interface UserDeactivationScheduledData extends UserRef {
  /** ISO 8601 instant from which the user has no access. */
  at: string;
}

export interface QualityIssueSetData extends UserRef {
  reason: string;
}

export interface UserPermissionsChangedData extends UserRef {
  permissions: string[];
  added: string[];
  removed: string[];
}

export interface ActiveNetworkChangedData extends UserRef {
  networkId: string;
}

export interface ContactFields {
  name: string;
  email: string | null;
  phone: string | null;
  relationship: string | null;
  notes: string | null;
}

export interface UserContactData extends UserRef, ContactFields {
  contactId: string;
}

export interface UserContactRemovedData extends UserRef {
  contactId: string;
}

/** The user's own settings (PUT /users/me/...); absent keys are unchanged. */
export interface UserSettingsChanges {
  /** yyyy-MM-dd */
  birthDate?: string | null;
  receiveWeeklySummaryReports?: boolean;
  requestedLessonsPerWeek?: number | null;
}

export interface UserSettingsChangedData extends UserRef {
  changes: UserSettingsChanges;
}

export interface NotificationEmailData extends UserRef {
  email: string;
}

/**
 * An internal user started a session as this user (spec §4 "Impersonation by access token"). The
 * impersonator is also the event's `actorId`; events written in that session carry `impersonatorId`.
 */
export interface UserImpersonatedData extends UserRef {
  impersonatorId: string;
  /** Which call started it: `login/{id}/access-token` or `users/{id}/student-impersonification-token`. */
  via: 'access-token' | 'student-token';
}

/** A file uploaded to the storage service and registered on a student (spec §7 "Student files"). */
export type StudentFileType = 'EHCP' | 'OTHER';
export const STUDENT_FILE_TYPES: readonly StudentFileType[] = ['EHCP', 'OTHER'];

export interface StudentFileAddedData extends UserRef {
  fileId: string;
  /** Storage key, e.g. students/{userId}/{fileId}: ids only, no personal data. */
  filePath: string;
  /** The name the uploader gave: personal data (encrypted at rest, see personal-fields.ts). */
  fileName: string;
  fileType: StudentFileType;
  contentType: string;
  size: number;
}

export interface StudentFilesDeletedData extends UserRef {
  fileIds: string[];
}

/**
 * The students a partner user is linked to ("selected students", spec §6; docs/decisions/0034), on the
 * partner's stream: the whole new set, and what it added and removed against the set before.
 */
export interface UserStudentLinksChangedData extends UserRef {
  studentIds: string[];
  linked: string[];
  unlinked: string[];
}

/** Soft delete (decision 0015): the record is kept, the user disappears from lists and cannot sign in. */
export interface UserDeletedData extends UserRef {
  /** Set when a partner deleted a user of their own customer. */
  customerId?: string | null;
}

/**
 * A partner school's super admin or admin asked people for the student's EHCP (decision 0035). Ids
 * only: who asked is the event's actorId; the recipients were mailed a link to the student's files.
 */
export interface EhcpRequestedData extends UserRef {
  requestId: string;
  /** The student's customer (the requester's own). */
  customerId: string;
  recipientIds: string[];
}

/** The placeholder every read path shows for personal data whose key was destroyed (decision 0014). */
export const ERASED = '[erased]';

/** The user stream's events: a discriminated union on `type`. */
export type UserEvent =
  | { type: 'UserCreated'; data: UserCreatedData }
  | { type: 'UserProfileUpdated'; data: UserProfileUpdatedData }
  | { type: 'UserActivated'; data: UserRef }
  | { type: 'UserDeactivated'; data: UserDeactivatedData }
  | { type: 'UserDeactivationScheduled'; data: UserDeactivationScheduledData }
  | { type: 'UserDeactivationCancelled'; data: UserRef }
  | { type: 'UserBlocked'; data: UserRef }
  | { type: 'UserUnblocked'; data: UserRef }
  | { type: 'QualityIssueSet'; data: QualityIssueSetData }
  | { type: 'QualityIssueUnset'; data: UserRef }
  | { type: 'UserPermissionsChanged'; data: UserPermissionsChangedData }
  | { type: 'UserStudentLinksChanged'; data: UserStudentLinksChangedData }
  | { type: 'ActiveNetworkChanged'; data: ActiveNetworkChangedData }
  | { type: 'UserContactAdded'; data: UserContactData }
  | { type: 'UserContactUpdated'; data: UserContactData }
  | { type: 'UserContactRemoved'; data: UserContactRemovedData }
  | { type: 'PasswordChanged'; data: UserRef }
  | { type: 'UserImpersonated'; data: UserImpersonatedData }
  | { type: 'UserPersonalDataErased'; data: UserRef }
  | { type: 'UserDeleted'; data: UserDeletedData }
  | { type: 'StudentFileAdded'; data: StudentFileAddedData }
  | { type: 'StudentFilesDeleted'; data: StudentFilesDeletedData }
  | { type: 'EhcpRequested'; data: EhcpRequestedData }
  | { type: 'AccountActivated'; data: UserRef }
  | { type: 'UserSettingsChanged'; data: UserSettingsChangedData }
  | { type: 'NotificationEmailChangeRequested'; data: NotificationEmailData }
  | { type: 'NotificationEmailVerified'; data: NotificationEmailData };

export type UserEventType = UserEvent['type'];

export const USER_EVENT_TYPES: readonly UserEventType[] = [
  'UserCreated',
  'UserProfileUpdated',
  'UserActivated',
  'UserDeactivated',
  'UserDeactivationScheduled',
  'UserDeactivationCancelled',
  'UserBlocked',
  'UserUnblocked',
  'QualityIssueSet',
  'QualityIssueUnset',
  'UserPermissionsChanged',
  'UserStudentLinksChanged',
  'ActiveNetworkChanged',
  'UserContactAdded',
  'UserContactUpdated',
  'UserContactRemoved',
  'PasswordChanged',
  'AccountActivated',
  'UserSettingsChanged',
  'NotificationEmailChangeRequested',
  'NotificationEmailVerified',
  'UserImpersonated',
  'UserPersonalDataErased',
  'UserDeleted',
  'StudentFileAdded',
  'StudentFilesDeleted',
  'EhcpRequested',
];

/** Type labels (spec §3); the server's policy module uses the same table. */
export const USER_TYPE_LABELS: Record<UserTypeName, string> = {
  super_admin: 'Administrator',
  teacher: 'Teacher',
  partner: 'Customer',
  student: 'Student',
};
