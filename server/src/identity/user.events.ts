export type {
  ActiveNetworkChangedData,
  ContactFields,
  NotificationEmailData,
  UserSettingsChangedData,
  UserSettingsChanges,
  CustomerTypeName,
  QualityIssueSetData,
  UserContactData,
  UserContactRemovedData,
  UserCreatedData,
  UserDeactivatedData,
  UserDeactivationScheduledData,
  UserEvent,
  UserEventType,
  UserPermissionsChangedData,
  UserStudentLinksChangedData,
  UserProfileChanges,
  UserProfileUpdatedData,
  UserImpersonatedData,
  UserRef,
  UserTypeName,
  StudentFileAddedData,
  StudentFilesDeletedData,
  StudentFileType,
  UserDeletedData,
  EhcpRequestedData,
} from '@portal/projections';
export { USER_EVENT_TYPES, ERASED, STUDENT_FILE_TYPES } from '@portal/projections';
export { MARKER_PERMISSIONS } from './policy/policy.js';

/** Events of a user's stream (`user-{id}`): past-tense facts, payloads in @portal/projections. */
export const userStream = (userId: string) => `user-${userId}`;
