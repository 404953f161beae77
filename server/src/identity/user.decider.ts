import type {
  ContactFields,
  StudentFileAddedData,
  StudentFileType,
  CustomerTypeName,
  UserCreatedData,
  UserSettingsChanges,
  UserEvent,
  UserProfileChanges,
  UserTypeName,
} from './user.events.js';
import { ALL_MARKER_PERMISSIONS, mayActOnAccountOf } from './policy/policy.js';
import { DomainError, type ErrorKind } from '../platform/domain/domain-error.js';
import type { Aggregate } from '../platform/event-store/aggregate.js';
import { userStream } from './user.events.js';

/** Why a user command was refused. Every code has exactly one error kind (see `userErrorKind`). */
export enum UserErrorCode {
  NotFound = 'USER_NOT_FOUND',
  AlreadyExists = 'USER_ALREADY_EXISTS',
  AlreadyActive = 'USER_ALREADY_ACTIVE',
  AlreadyDeactivated = 'USER_ALREADY_DEACTIVATED',
  AlreadyBlocked = 'USER_ALREADY_BLOCKED',
  NotBlocked = 'USER_NOT_BLOCKED',
  QualityIssueAlreadySet = 'QUALITY_ISSUE_ALREADY_SET',
  NoQualityIssue = 'NO_QUALITY_ISSUE',
  NotATeacher = 'NOT_A_TEACHER',
  DeactivationDateNotInFuture = 'DEACTIVATION_DATE_NOT_IN_FUTURE',
  NoDeactivationDue = 'NO_DEACTIVATION_DUE',
  ContactNotFound = 'CONTACT_NOT_FOUND',
  ContactAlreadyExists = 'CONTACT_ALREADY_EXISTS',
  MarkerPermissionChange = 'MARKER_PERMISSION_CHANGE',
  CustomerRequired = 'CUSTOMER_REQUIRED',
  PersonalDataErased = 'PERSONAL_DATA_ERASED',
  NotAStudent = 'NOT_A_STUDENT',
  FileNotFound = 'FILE_NOT_FOUND',
  FileAlreadyExists = 'FILE_ALREADY_EXISTS',
  AlreadyActivated = 'ACCOUNT_ALREADY_ACTIVATED',
  NoNotificationEmailPending = 'NO_NOTIFICATION_EMAIL_PENDING',
  NoRecipients = 'NO_RECIPIENTS',
  NotAPartner = 'NOT_A_PARTNER',
  NotLinkableStudent = 'NOT_LINKABLE_STUDENT',
  /** A non-administrator acting on an administrator's account (decision 0037). */
  AdministratorsOnly = 'ADMINISTRATORS_ONLY',
}

/** Exhaustive: a new code that is not mapped here does not compile. */
export function userErrorKind(code: UserErrorCode): ErrorKind {
  switch (code) {
    case UserErrorCode.AdministratorsOnly:
      return 'forbidden';
    case UserErrorCode.NotFound:
    case UserErrorCode.ContactNotFound:
    case UserErrorCode.FileNotFound:
      return 'not_found';
    case UserErrorCode.AlreadyExists:
    case UserErrorCode.AlreadyActive:
    case UserErrorCode.AlreadyDeactivated:
    case UserErrorCode.AlreadyBlocked:
    case UserErrorCode.NotBlocked:
    case UserErrorCode.QualityIssueAlreadySet:
    case UserErrorCode.NoQualityIssue:
    case UserErrorCode.NotATeacher:
    case UserErrorCode.NoDeactivationDue:
    case UserErrorCode.ContactAlreadyExists:
    case UserErrorCode.PersonalDataErased:
    case UserErrorCode.FileAlreadyExists:
    case UserErrorCode.AlreadyActivated:
    case UserErrorCode.NoNotificationEmailPending:
      return 'conflict';
    case UserErrorCode.DeactivationDateNotInFuture:
    case UserErrorCode.MarkerPermissionChange:
    case UserErrorCode.CustomerRequired:
    case UserErrorCode.NotAStudent:
    case UserErrorCode.NoRecipients:
    case UserErrorCode.NotAPartner:
    case UserErrorCode.NotLinkableStudent:
      return 'invalid';
    default: {
      const unmapped: never = code;
      throw new Error(`unmapped user error code ${String(unmapped)}`);
    }
  }
}

/** A refused user command: a DomainError whose `code` (sent to clients) is a `UserErrorCode`. */
export class UserError extends DomainError {
  override readonly name = 'UserError';
  declare readonly code: UserErrorCode;
  constructor(code: UserErrorCode, detail: string) {
    super(userErrorKind(code), detail, code);
  }
}

export interface ContactState extends ContactFields {
  id: string;
}

export interface ExistingUser {
  exists: true;
  userId: string;
  userType: UserTypeName;
  customerId: string | null;
  customerType: CustomerTypeName | null;
  hasAccess: boolean;
  isBlocked: boolean;
  scheduledDeactivationAt: string | null;
  qualityIssue: string | null;
  permissions: string[];
  activeNetworkId: string | null;
  contacts: ContactState[];
  /** The personal-data key was destroyed (decision 0014): no new personal data is accepted. */
  personalDataErased: boolean;
  /** Soft-deleted (decision 0015): only erasure is still possible. */
  deleted: boolean;
  files: { id: string; fileType: StudentFileType }[];
  /** Created without a password and not yet activated through the mailed link. */
  awaitingActivation: boolean;
  birthDate: string | null;
  receiveWeeklySummaryReports: boolean;
  requestedLessonsPerWeek: number | null;
  notificationEmail: string | null;
  /** Asked for, not yet verified through the mailed link. */
  pendingNotificationEmail: string | null;
  /** Partner users: the students they are linked to ("selected students", decision 0034). */
  linkedStudentIds: string[];
}

/** What the decider needs to know of a student someone asks to link (read by the caller). */
export interface LinkCandidate {
  id: string;
  /** null: no such user (or deleted). */
  userType: UserTypeName | null;
  customerId: string | null;
}

export type UserState = { exists: false } | ExistingUser;

export const initialState: UserState = { exists: false };

export type UserCommand =
  | { type: 'CreateUser'; data: UserCreatedData }
  | { type: 'UpdateUserProfile'; userId: string; changes: UserProfileChanges }
  | { type: 'ActivateUser'; userId: string }
  | { type: 'DeactivateUser'; userId: string }
  | { type: 'ApplyDueDeactivation'; userId: string; now: string }
  | { type: 'ScheduleDeactivation'; userId: string; at: string; now: string }
  | { type: 'BlockUser'; userId: string }
  | { type: 'UnblockUser'; userId: string }
  | { type: 'SetQualityIssue'; userId: string; reason: string }
  | { type: 'UnsetQualityIssue'; userId: string }
  | { type: 'ChangePermissions'; userId: string; permissions: string[] }
  /** Grants and revokes against the stream's current list (no lost update from a stale read model). */
  | { type: 'AdjustPermissions'; userId: string; grant: string[]; revoke: string[] }
  | { type: 'ChangeActiveNetwork'; userId: string; networkId: string }
  /** Replace a partner's linked students; `students` describes every id asked for. */
  | { type: 'ChangeStudentLinks'; userId: string; students: LinkCandidate[] }
  | { type: 'AddContact'; userId: string; contactId: string; contact: ContactFields }
  | { type: 'UpdateContact'; userId: string; contactId: string; contact: ContactFields }
  | { type: 'RemoveContact'; userId: string; contactId: string }
  | { type: 'ChangePassword'; userId: string }
  | { type: 'ErasePersonalData'; userId: string }
  | { type: 'DeleteUser'; userId: string }
  | { type: 'AddStudentFile'; userId: string; file: Omit<StudentFileAddedData, 'userId'> }
  | { type: 'DeleteStudentFiles'; userId: string; fileIds: string[] }
  | { type: 'CompleteActivation'; userId: string }
  | { type: 'ChangeSettings'; userId: string; changes: UserSettingsChanges }
  | { type: 'RequestNotificationEmailChange'; userId: string; email: string }
  | { type: 'VerifyNotificationEmail'; userId: string }
  /** Recipients and permissions are checked by the caller (policy, ehcp/ehcp-request.rules.ts). */
  | { type: 'RequestEhcp'; userId: string; requestId: string; recipientIds: string[] };

/**
 * Who sends a command: a signed-in user (their id and permissions at the time), or the portal itself
 * ('system': the deactivation scheduler and the mailed-link flows, where no other user acts).
 */
export type CommandIssuer = { userId: string; permissions: Iterable<string> } | 'system';

export function evolve(state: UserState, event: UserEvent): UserState {
  if (event.type === 'UserCreated') {
    const d = event.data;
    return {
      exists: true,
      userId: d.userId,
      userType: d.userType,
      customerId: d.customerId ?? null,
      customerType: d.customerType ?? null,
      hasAccess: true,
      isBlocked: false,
      scheduledDeactivationAt: null,
      qualityIssue: null,
      permissions: [...d.permissions],
      activeNetworkId: d.networkId ?? null,
      contacts: [],
      personalDataErased: false,
      deleted: false,
      files: [],
      awaitingActivation: d.awaitingActivation ?? false,
      birthDate: null,
      receiveWeeklySummaryReports: false,
      requestedLessonsPerWeek: null,
      notificationEmail: null,
      pendingNotificationEmail: null,
      linkedStudentIds: [],
    };
  }
  if (!state.exists) return state;
  switch (event.type) {
    case 'UserProfileUpdated': {
      const c = event.data.changes;
      return {
        ...state,
        customerId: c.customerId !== undefined ? c.customerId : state.customerId,
        customerType: c.customerType !== undefined ? c.customerType : state.customerType,
      };
    }
    case 'UserActivated':
      return { ...state, hasAccess: true, scheduledDeactivationAt: null };
    case 'UserDeactivated':
      return { ...state, hasAccess: false, scheduledDeactivationAt: null };
    case 'UserDeactivationScheduled':
      return { ...state, scheduledDeactivationAt: event.data.at };
    case 'UserDeactivationCancelled':
      return { ...state, scheduledDeactivationAt: null };
    case 'UserBlocked':
      return { ...state, isBlocked: true };
    case 'UserUnblocked':
      return { ...state, isBlocked: false };
    case 'QualityIssueSet':
      return { ...state, qualityIssue: event.data.reason };
    case 'QualityIssueUnset':
      return { ...state, qualityIssue: null };
    case 'UserPermissionsChanged':
      return { ...state, permissions: [...event.data.permissions] };
    case 'ActiveNetworkChanged':
      return { ...state, activeNetworkId: event.data.networkId };
    case 'UserStudentLinksChanged':
      return { ...state, linkedStudentIds: [...event.data.studentIds] };
    case 'UserContactAdded': {
      const { userId: _u, contactId, ...fields } = event.data;
      return { ...state, contacts: [...state.contacts, { id: contactId, ...fields }] };
    }
    case 'UserContactUpdated': {
      const { userId: _u, contactId, ...fields } = event.data;
      return {
        ...state,
        contacts: state.contacts.map((c) => (c.id === contactId ? { id: contactId, ...fields } : c)),
      };
    }
    case 'UserContactRemoved':
      return { ...state, contacts: state.contacts.filter((c) => c.id !== event.data.contactId) };
    case 'PasswordChanged':
    case 'UserImpersonated':
    case 'EhcpRequested':
      return state;
    case 'UserPersonalDataErased':
      return { ...state, personalDataErased: true, hasAccess: false, scheduledDeactivationAt: null };
    case 'UserDeleted':
      return { ...state, deleted: true, hasAccess: false, scheduledDeactivationAt: null };
    case 'StudentFileAdded':
      return { ...state, files: [...state.files, { id: event.data.fileId, fileType: event.data.fileType }] };
    case 'StudentFilesDeleted': {
      const gone = new Set(event.data.fileIds);
      return { ...state, files: state.files.filter((f) => !gone.has(f.id)) };
    }
    case 'AccountActivated':
      return { ...state, awaitingActivation: false };
    case 'UserSettingsChanged': {
      const c = event.data.changes;
      return {
        ...state,
        birthDate: c.birthDate !== undefined ? c.birthDate : state.birthDate,
        receiveWeeklySummaryReports: c.receiveWeeklySummaryReports ?? state.receiveWeeklySummaryReports,
        requestedLessonsPerWeek:
          c.requestedLessonsPerWeek !== undefined ? c.requestedLessonsPerWeek : state.requestedLessonsPerWeek,
      };
    }
    case 'NotificationEmailChangeRequested':
      return { ...state, pendingNotificationEmail: event.data.email };
    case 'NotificationEmailVerified':
      return { ...state, notificationEmail: event.data.email, pendingNotificationEmail: null };
  }
}

export const fold = (events: Iterable<UserEvent>, from: UserState = initialState): UserState => {
  let state = from;
  for (const e of events) state = evolve(state, e);
  return state;
};

const fail = (code: UserErrorCode, detail: string): never => {
  throw new UserError(code, detail);
};

function existing(state: UserState): ExistingUser {
  if (!state.exists) return fail(UserErrorCode.NotFound, 'User not found');
  return state;
}

const ADMINISTRATORS_ONLY = "Only administrators can change an administrator's account";

/**
 * Pure business rules of a user account: the events a command causes, or a UserError. `issuer`: who
 * sends it; whoever it is, only administrators act on an administrator's account (decision 0037),
 * checked here so that every path (block, deactivate, schedule, quality issue, permissions, profile,
 * password, deletion) is covered.
 */
export function decide(command: UserCommand, state: UserState, issuer: CommandIssuer): UserEvent[] {
  if (command.type === 'CreateUser') {
    if (state.exists) fail(UserErrorCode.AlreadyExists, 'User already exists');
    const d = command.data;
    if (issuer !== 'system' && !mayActOnAccountOf(issuer.permissions, d.permissions))
      fail(UserErrorCode.AdministratorsOnly, 'Only administrators can create administrators');
    if ((d.userType === 'partner' || d.userType === 'student') && !d.customerId)
      fail(UserErrorCode.CustomerRequired, `customer_id: is required for ${d.userType} users`);
    if (d.userType === 'partner' && !d.customerType)
      fail(UserErrorCode.CustomerRequired, 'customer_type: is required for partner users');
    return [{ type: 'UserCreated', data: d }];
  }
  const user = existing(state);
  const userId = user.userId;
  // A deleted user is gone for every command except the erasure of their personal data (0015).
  if (user.deleted && command.type !== 'ErasePersonalData') fail(UserErrorCode.NotFound, 'User not found');
  // The stream's own permissions decide whether the target is an administrator, not a read model.
  if (
    issuer !== 'system' &&
    issuer.userId !== userId &&
    !mayActOnAccountOf(issuer.permissions, user.permissions)
  )
    fail(UserErrorCode.AdministratorsOnly, ADMINISTRATORS_ONLY);
  const refuseIfErased = () => {
    if (user.personalDataErased)
      fail(UserErrorCode.PersonalDataErased, "This user's personal data has been erased");
  };
  switch (command.type) {
    case 'UpdateUserProfile': {
      const changes = command.changes;
      const personal = [changes.firstName, changes.lastName, changes.email, changes.notes];
      if (personal.some((v) => v !== undefined)) refuseIfErased();
      if (user.userType === 'partner' && changes.customerType === null)
        fail(UserErrorCode.CustomerRequired, 'customer_type: is required for partner users');
      if ((user.userType === 'partner' || user.userType === 'student') && changes.customerId === null)
        fail(UserErrorCode.CustomerRequired, `customer_id: is required for ${user.userType} users`);
      if (Object.values(changes).every((v) => v === undefined)) return [];
      return [{ type: 'UserProfileUpdated', data: { userId, changes } }];
    }
    case 'ActivateUser':
      if (!user.hasAccess) return [{ type: 'UserActivated', data: { userId } }];
      if (user.scheduledDeactivationAt) return [{ type: 'UserDeactivationCancelled', data: { userId } }];
      return fail(UserErrorCode.AlreadyActive, 'User is already active');
    case 'DeactivateUser':
      if (!user.hasAccess) fail(UserErrorCode.AlreadyDeactivated, 'User is already deactivated');
      return [{ type: 'UserDeactivated', data: { userId, scheduled: false } }];
    case 'ApplyDueDeactivation':
      if (!user.hasAccess) fail(UserErrorCode.AlreadyDeactivated, 'User is already deactivated');
      if (!user.scheduledDeactivationAt || Date.parse(user.scheduledDeactivationAt) > Date.parse(command.now))
        fail(UserErrorCode.NoDeactivationDue, 'User has no deactivation due');
      return [{ type: 'UserDeactivated', data: { userId, scheduled: true } }];
    case 'ScheduleDeactivation':
      if (!user.hasAccess) fail(UserErrorCode.AlreadyDeactivated, 'User is already deactivated');
      if (Date.parse(command.at) <= Date.parse(command.now))
        fail(UserErrorCode.DeactivationDateNotInFuture, 'date: must be in the future');
      return [
        {
          type: 'UserDeactivationScheduled',
          data: { userId, at: new Date(Date.parse(command.at)).toISOString() },
        },
      ];
    case 'BlockUser':
      if (user.isBlocked) fail(UserErrorCode.AlreadyBlocked, 'User is already blocked');
      return [{ type: 'UserBlocked', data: { userId } }];
    case 'UnblockUser':
      if (!user.isBlocked) fail(UserErrorCode.NotBlocked, 'User is not blocked');
      return [{ type: 'UserUnblocked', data: { userId } }];
    case 'SetQualityIssue':
      refuseIfErased();
      if (user.userType !== 'teacher')
        fail(UserErrorCode.NotATeacher, 'Quality issues apply to teachers only');
      if (user.qualityIssue !== null)
        fail(UserErrorCode.QualityIssueAlreadySet, 'User already has a quality issue');
      return [{ type: 'QualityIssueSet', data: { userId, reason: command.reason } }];
    case 'UnsetQualityIssue':
      if (user.qualityIssue === null) fail(UserErrorCode.NoQualityIssue, 'User has no quality issue');
      return [{ type: 'QualityIssueUnset', data: { userId } }];
    case 'ChangePermissions': {
      const next = [...new Set(command.permissions)];
      const before = new Set(user.permissions);
      const after = new Set(next);
      const added = next.filter((p) => !before.has(p));
      const removed = user.permissions.filter((p) => !after.has(p));
      const markers = [...added, ...removed].filter((p) => ALL_MARKER_PERMISSIONS.includes(p));
      if (markers.length > 0)
        fail(
          UserErrorCode.MarkerPermissionChange,
          `permissions: the user type marker cannot change (${markers.join(', ')})`,
        );
      if (added.length === 0 && removed.length === 0) return [];
      return [{ type: 'UserPermissionsChanged', data: { userId, permissions: next, added, removed } }];
    }
    case 'AdjustPermissions': {
      const revoke = new Set(command.revoke);
      const permissions = [...user.permissions.filter((p) => !revoke.has(p)), ...command.grant];
      return decide({ type: 'ChangePermissions', userId, permissions }, state, issuer);
    }
    case 'ChangeActiveNetwork':
      if (user.activeNetworkId === command.networkId) return [];
      return [{ type: 'ActiveNetworkChanged', data: { userId, networkId: command.networkId } }];
    case 'ChangeStudentLinks': {
      if (user.userType !== 'partner')
        fail(UserErrorCode.NotAPartner, 'id: only partner users have linked students');
      const next = [...new Set(command.students.map((s) => s.id))];
      const before = new Set(user.linkedStudentIds);
      const after = new Set(next);
      const linked = next.filter((id) => !before.has(id));
      const unlinked = user.linkedStudentIds.filter((id) => !after.has(id));
      // Only newly linked students are checked: a kept link to a student who has since moved customer
      // or been deleted is not a reason to refuse the change (reads never show such a link).
      for (const id of linked) {
        const student = command.students.find((s) => s.id === id)!;
        if (student.userType !== 'student')
          fail(UserErrorCode.NotLinkableStudent, `student_ids: ${id} is not a student`);
        if (student.customerId === null || student.customerId !== user.customerId)
          fail(
            UserErrorCode.NotLinkableStudent,
            `student_ids: ${id} is not a student of this partner's customer`,
          );
      }
      if (linked.length === 0 && unlinked.length === 0) return [];
      return [{ type: 'UserStudentLinksChanged', data: { userId, studentIds: next, linked, unlinked } }];
    }
    case 'AddContact':
      refuseIfErased();
      if (user.contacts.some((c) => c.id === command.contactId))
        fail(UserErrorCode.ContactAlreadyExists, 'Contact already exists');
      return [
        { type: 'UserContactAdded', data: { userId, contactId: command.contactId, ...command.contact } },
      ];
    case 'UpdateContact':
      refuseIfErased();
      if (!user.contacts.some((c) => c.id === command.contactId))
        fail(UserErrorCode.ContactNotFound, 'Contact not found');
      return [
        { type: 'UserContactUpdated', data: { userId, contactId: command.contactId, ...command.contact } },
      ];
    case 'RemoveContact':
      if (!user.contacts.some((c) => c.id === command.contactId))
        fail(UserErrorCode.ContactNotFound, 'Contact not found');
      return [{ type: 'UserContactRemoved', data: { userId, contactId: command.contactId } }];
    case 'ChangePassword':
      // Setting a password (recovery, an administrator) also completes a pending activation.
      return user.awaitingActivation
        ? [
            { type: 'PasswordChanged', data: { userId } },
            { type: 'AccountActivated', data: { userId } },
          ]
        : [{ type: 'PasswordChanged', data: { userId } }];
    case 'ErasePersonalData':
      refuseIfErased();
      return [{ type: 'UserPersonalDataErased', data: { userId } }];
    case 'DeleteUser':
      return [{ type: 'UserDeleted', data: { userId, customerId: user.customerId } }];
    case 'AddStudentFile':
      refuseIfErased();
      if (user.userType !== 'student') fail(UserErrorCode.NotAStudent, 'Files can only be added to students');
      if (user.files.some((f) => f.id === command.file.fileId))
        fail(UserErrorCode.FileAlreadyExists, 'This file is already registered');
      return [{ type: 'StudentFileAdded', data: { userId, ...command.file } }];
    case 'DeleteStudentFiles':
      {
        const known = new Set(user.files.map((f) => f.id));
        const unknown = command.fileIds.filter((id) => !known.has(id));
        if (unknown.length > 0)
          fail(UserErrorCode.FileNotFound, `files_uuids: not files of this student (${unknown.join(', ')})`);
        const fileIds = [...new Set(command.fileIds)];
        if (fileIds.length === 0) return [];
        return [{ type: 'StudentFilesDeleted', data: { userId, fileIds } }];
      }
      // Setting a password (recovery, an administrator) also completes a pending activation.
      return user.awaitingActivation
        ? [
            { type: 'PasswordChanged', data: { userId } },
            { type: 'AccountActivated', data: { userId } },
          ]
        : [{ type: 'PasswordChanged', data: { userId } }];
    case 'CompleteActivation':
      if (!user.awaitingActivation) fail(UserErrorCode.AlreadyActivated, 'Account is already activated');
      return [{ type: 'AccountActivated', data: { userId } }];
    case 'ChangeSettings': {
      const c = command.changes;
      const changes: UserSettingsChanges = {};
      if (c.birthDate !== undefined && c.birthDate !== user.birthDate) changes.birthDate = c.birthDate;
      if (
        c.receiveWeeklySummaryReports !== undefined &&
        c.receiveWeeklySummaryReports !== user.receiveWeeklySummaryReports
      )
        changes.receiveWeeklySummaryReports = c.receiveWeeklySummaryReports;
      if (
        c.requestedLessonsPerWeek !== undefined &&
        c.requestedLessonsPerWeek !== user.requestedLessonsPerWeek
      )
        changes.requestedLessonsPerWeek = c.requestedLessonsPerWeek;
      if (Object.keys(changes).length === 0) return [];
      return [{ type: 'UserSettingsChanged', data: { userId, changes } }];
    }
    case 'RequestNotificationEmailChange':
      return [{ type: 'NotificationEmailChangeRequested', data: { userId, email: command.email } }];
    case 'VerifyNotificationEmail':
      if (user.pendingNotificationEmail === null)
        fail(UserErrorCode.NoNotificationEmailPending, 'No notification e-mail change is waiting');
      return [{ type: 'NotificationEmailVerified', data: { userId, email: user.pendingNotificationEmail! } }];
    case 'RequestEhcp': {
      refuseIfErased();
      if (user.userType !== 'student')
        fail(UserErrorCode.NotAStudent, 'An EHCP can only be requested for a student');
      if (!user.customerId) fail(UserErrorCode.CustomerRequired, 'The student has no customer');
      const recipientIds = [...new Set(command.recipientIds)];
      if (recipientIds.length === 0)
        fail(UserErrorCode.NoRecipients, 'body: name at least one person to ask');
      return [
        {
          type: 'EhcpRequested',
          data: { userId, requestId: command.requestId, customerId: user.customerId!, recipientIds },
        },
      ];
    }
  }
}

/** Which user a command addresses. */
export const userIdOf = (command: UserCommand): string =>
  command.type === 'CreateUser' ? command.data.userId : command.userId;

/** The `user-{id}` stream's shape, shared by every aggregate over it (users, impersonation). */
export const userStreamShape = {
  stream: userStream,
  idOf: userIdOf,
  initialState: () => initialState,
  evolve,
};

/**
 * The user aggregate for commands sent by `issuer` (the rules about who may act on whom need it);
 * `UserCommands` adds the vault and session hooks.
 */
export const userAggregateFor = (issuer: CommandIssuer): Aggregate<UserState, UserCommand, UserEvent> => ({
  ...userStreamShape,
  decide: (command, state) => decide(command, state, issuer),
});
