import { describe, expect, it } from '@jest/globals';
import { DomainError } from '../platform/domain/domain-error.js';
import {
  UserError,
  UserErrorCode,
  decide,
  fold,
  userErrorKind,
  type CommandIssuer,
  type UserCommand,
} from './user.decider.js';
import type { UserCreatedData, UserEvent } from './user.events.js';

const userId = '00000000-0000-4000-8000-000000000001';
const customerId = '00000000-0000-4000-8000-0000000000c1';
const networkId = '00000000-0000-4000-8000-0000000000n1'.replace('n', 'a');
const NOW = '2030-01-01T12:00:00.000Z';
const LATER = '2030-02-01T00:00:00.000Z';
const EARLIER = '2029-12-01T00:00:00.000Z';

const teacher: UserCreatedData = {
  userId,
  login: 't@example.com',
  email: 't@example.com',
  firstName: 'Tess',
  lastName: 'Teacher',
  userType: 'teacher',
  permissions: ['USER_IS_TEACHER'],
};
const partner: UserCreatedData = {
  ...teacher,
  userType: 'partner',
  permissions: ['USER_IS_PARTNER'],
  customerId,
  customerType: 'parent',
};
const contact = { name: 'Pat', email: 'pat@example.com', phone: null, relationship: 'Parent', notes: null };

const created: UserEvent = { type: 'UserCreated', data: teacher };
const pendingCreated: UserEvent = { type: 'UserCreated', data: { ...teacher, awaitingActivation: true } };
const settingsChanged: UserEvent = {
  type: 'UserSettingsChanged',
  data: {
    userId,
    changes: { birthDate: '2010-05-04', receiveWeeklySummaryReports: true, requestedLessonsPerWeek: 3 },
  },
};
const ev = {
  activated: { type: 'UserActivated', data: { userId } },
  deactivated: { type: 'UserDeactivated', data: { userId, scheduled: false } },
  dueDeactivated: { type: 'UserDeactivated', data: { userId, scheduled: true } },
  scheduled: { type: 'UserDeactivationScheduled', data: { userId, at: LATER } },
  scheduledEarlier: { type: 'UserDeactivationScheduled', data: { userId, at: EARLIER } },
  cancelled: { type: 'UserDeactivationCancelled', data: { userId } },
  blocked: { type: 'UserBlocked', data: { userId } },
  unblocked: { type: 'UserUnblocked', data: { userId } },
  qualitySet: { type: 'QualityIssueSet', data: { userId, reason: 'Late twice' } },
  qualityUnset: { type: 'QualityIssueUnset', data: { userId } },
  contactAdded: { type: 'UserContactAdded', data: { userId, contactId: 'c1', ...contact } },
  erased: { type: 'UserPersonalDataErased', data: { userId } },
  deleted: { type: 'UserDeleted', data: { userId, customerId: null } },
} satisfies Record<string, UserEvent>;
const file = {
  fileId: 'f1',
  filePath: `students/${userId}/f1`,
  fileName: 'plan.pdf',
  fileType: 'EHCP' as const,
  contentType: 'application/pdf',
  size: 10,
};
const studentCreated: UserEvent = {
  type: 'UserCreated',
  data: { ...teacher, userType: 'student', permissions: ['USER_IS_STUDENT'], customerId },
};
const fileAdded: UserEvent = { type: 'StudentFileAdded', data: { userId, ...file } };

const S1 = '00000000-0000-4000-8000-0000000000s1'.replace('s', 'b');
const S2 = '00000000-0000-4000-8000-0000000000s2'.replace('s', 'b');
const otherCustomer = '00000000-0000-4000-8000-0000000000c2';
const s1 = { id: S1, userType: 'student' as const, customerId };
const s2 = { id: S2, userType: 'student' as const, customerId };
const partnerCreated: UserEvent = { type: 'UserCreated', data: partner };
const linkedS1: UserEvent = {
  type: 'UserStudentLinksChanged',
  data: { userId, studentIds: [S1], linked: [S1], unlinked: [] },
};

type Row = [string, UserEvent[], UserCommand, UserEvent[] | UserErrorCode, string?];

/** The rows below are sent by an administrator (the rules about who acts on whom have their own table). */
const byAdmin: CommandIssuer = {
  userId: '00000000-0000-4000-8000-0000000000ad',
  permissions: ['USER_IS_ADMIN'],
};

const table: Row[] = [
  ['create a teacher', [], { type: 'CreateUser', data: teacher }, [created]],
  [
    'create a partner with a customer',
    [],
    { type: 'CreateUser', data: partner },
    [{ type: 'UserCreated', data: partner }],
  ],
  ['create twice', [created], { type: 'CreateUser', data: teacher }, UserErrorCode.AlreadyExists],
  [
    'create a partner without customer',
    [],
    { type: 'CreateUser', data: { ...partner, customerId: null } },
    UserErrorCode.CustomerRequired,
    'customer_id: is required for partner users',
  ],
  [
    'create a partner without customer type',
    [],
    { type: 'CreateUser', data: { ...partner, customerType: null } },
    UserErrorCode.CustomerRequired,
  ],
  ['block a missing user', [], { type: 'BlockUser', userId }, UserErrorCode.NotFound, 'User not found'],
  [
    'update the profile',
    [created],
    { type: 'UpdateUserProfile', userId, changes: { firstName: 'T' } },
    [{ type: 'UserProfileUpdated', data: { userId, changes: { firstName: 'T' } } }],
  ],
  ['update with no change', [created], { type: 'UpdateUserProfile', userId, changes: {} }, []],
  [
    'remove a partner customer',
    [{ type: 'UserCreated', data: partner }],
    { type: 'UpdateUserProfile', userId, changes: { customerId: null } },
    UserErrorCode.CustomerRequired,
  ],
  [
    'activate an active user',
    [created],
    { type: 'ActivateUser', userId },
    UserErrorCode.AlreadyActive,
    'User is already active',
  ],
  [
    'activate a deactivated user',
    [created, ev.deactivated],
    { type: 'ActivateUser', userId },
    [ev.activated],
  ],
  [
    'activate cancels a scheduled deactivation',
    [created, ev.scheduled],
    { type: 'ActivateUser', userId },
    [ev.cancelled],
  ],
  ['deactivate now', [created], { type: 'DeactivateUser', userId }, [ev.deactivated]],
  [
    'deactivate twice',
    [created, ev.deactivated],
    { type: 'DeactivateUser', userId },
    UserErrorCode.AlreadyDeactivated,
    'User is already deactivated',
  ],
  [
    'deactivate after re-activation',
    [created, ev.deactivated, ev.activated],
    { type: 'DeactivateUser', userId },
    [ev.deactivated],
  ],
  [
    'schedule a deactivation',
    [created],
    { type: 'ScheduleDeactivation', userId, at: LATER, now: NOW },
    [ev.scheduled],
  ],
  [
    'reschedule a deactivation',
    [created, ev.scheduled],
    { type: 'ScheduleDeactivation', userId, at: '2030-03-01T00:00:00+00:00', now: NOW },
    [{ type: 'UserDeactivationScheduled', data: { userId, at: '2030-03-01T00:00:00.000Z' } }],
  ],
  [
    'schedule in the past',
    [created],
    { type: 'ScheduleDeactivation', userId, at: EARLIER, now: NOW },
    UserErrorCode.DeactivationDateNotInFuture,
    'date: must be in the future',
  ],
  [
    'schedule for a deactivated user',
    [created, ev.deactivated],
    { type: 'ScheduleDeactivation', userId, at: LATER, now: NOW },
    UserErrorCode.AlreadyDeactivated,
  ],
  [
    'apply a due deactivation',
    [created, ev.scheduledEarlier],
    { type: 'ApplyDueDeactivation', userId, now: NOW },
    [ev.dueDeactivated],
  ],
  [
    'apply a deactivation not yet due',
    [created, ev.scheduled],
    { type: 'ApplyDueDeactivation', userId, now: NOW },
    UserErrorCode.NoDeactivationDue,
  ],
  [
    'apply a cancelled deactivation',
    [created, ev.scheduledEarlier, ev.cancelled],
    { type: 'ApplyDueDeactivation', userId, now: NOW },
    UserErrorCode.NoDeactivationDue,
  ],
  [
    'apply a deactivation twice (second scheduler run)',
    [created, ev.scheduledEarlier, ev.dueDeactivated],
    { type: 'ApplyDueDeactivation', userId, now: NOW },
    UserErrorCode.AlreadyDeactivated,
  ],
  ['block', [created], { type: 'BlockUser', userId }, [ev.blocked]],
  [
    'block twice',
    [created, ev.blocked],
    { type: 'BlockUser', userId },
    UserErrorCode.AlreadyBlocked,
    'User is already blocked',
  ],
  ['unblock', [created, ev.blocked], { type: 'UnblockUser', userId }, [ev.unblocked]],
  [
    'unblock a user never blocked',
    [created],
    { type: 'UnblockUser', userId },
    UserErrorCode.NotBlocked,
    'User is not blocked',
  ],
  [
    'unblock twice',
    [created, ev.blocked, ev.unblocked],
    { type: 'UnblockUser', userId },
    UserErrorCode.NotBlocked,
  ],
  [
    'set a quality issue',
    [created],
    { type: 'SetQualityIssue', userId, reason: 'Late twice' },
    [ev.qualitySet],
  ],
  [
    'set a quality issue twice',
    [created, ev.qualitySet],
    { type: 'SetQualityIssue', userId, reason: 'Again' },
    UserErrorCode.QualityIssueAlreadySet,
    'User already has a quality issue',
  ],
  [
    'set a quality issue on a partner',
    [{ type: 'UserCreated', data: partner }],
    { type: 'SetQualityIssue', userId, reason: 'x' },
    UserErrorCode.NotATeacher,
  ],
  [
    'unset a quality issue',
    [created, ev.qualitySet],
    { type: 'UnsetQualityIssue', userId },
    [ev.qualityUnset],
  ],
  ['unset without an issue', [created], { type: 'UnsetQualityIssue', userId }, UserErrorCode.NoQualityIssue],
  [
    'change permissions',
    [created],
    {
      type: 'ChangePermissions',
      userId,
      permissions: ['USER_IS_TEACHER', 'CAN_BLOCK_USERS', 'CAN_BLOCK_USERS'],
    },
    [
      {
        type: 'UserPermissionsChanged',
        data: {
          userId,
          permissions: ['USER_IS_TEACHER', 'CAN_BLOCK_USERS'],
          added: ['CAN_BLOCK_USERS'],
          removed: [],
        },
      },
    ],
  ],
  [
    'change permissions to the same set',
    [created],
    { type: 'ChangePermissions', userId, permissions: ['USER_IS_TEACHER'] },
    [],
  ],
  [
    'change the type marker',
    [created],
    { type: 'ChangePermissions', userId, permissions: ['USER_IS_ADMIN'] },
    UserErrorCode.MarkerPermissionChange,
  ],
  [
    'change the active network',
    [created],
    { type: 'ChangeActiveNetwork', userId, networkId },
    [{ type: 'ActiveNetworkChanged', data: { userId, networkId } }],
  ],
  [
    'change to the same active network',
    [created, { type: 'ActiveNetworkChanged', data: { userId, networkId } }],
    { type: 'ChangeActiveNetwork', userId, networkId },
    [],
  ],
  ['add a contact', [created], { type: 'AddContact', userId, contactId: 'c1', contact }, [ev.contactAdded]],
  [
    'add the same contact id twice',
    [created, ev.contactAdded],
    { type: 'AddContact', userId, contactId: 'c1', contact },
    UserErrorCode.ContactAlreadyExists,
  ],
  [
    'update a contact',
    [created, ev.contactAdded],
    { type: 'UpdateContact', userId, contactId: 'c1', contact: { ...contact, phone: '0123' } },
    [{ type: 'UserContactUpdated', data: { userId, contactId: 'c1', ...contact, phone: '0123' } }],
  ],
  [
    'update a missing contact',
    [created],
    { type: 'UpdateContact', userId, contactId: 'c1', contact },
    UserErrorCode.ContactNotFound,
    'Contact not found',
  ],
  [
    'remove a contact',
    [created, ev.contactAdded],
    { type: 'RemoveContact', userId, contactId: 'c1' },
    [{ type: 'UserContactRemoved', data: { userId, contactId: 'c1' } }],
  ],
  [
    'remove a removed contact',
    [created, ev.contactAdded, { type: 'UserContactRemoved', data: { userId, contactId: 'c1' } }],
    { type: 'RemoveContact', userId, contactId: 'c1' },
    UserErrorCode.ContactNotFound,
  ],
  [
    'change the password',
    [created],
    { type: 'ChangePassword', userId },
    [{ type: 'PasswordChanged', data: { userId } }],
  ],
  // Personal data erasure (decision 0014) and soft delete (decision 0015).
  ['erase personal data', [created], { type: 'ErasePersonalData', userId }, [ev.erased]],
  [
    'erase twice',
    [created, ev.erased],
    { type: 'ErasePersonalData', userId },
    UserErrorCode.PersonalDataErased,
  ],
  [
    'no new names after the erasure',
    [created, ev.erased],
    { type: 'UpdateUserProfile', userId, changes: { firstName: 'Back' } },
    UserErrorCode.PersonalDataErased,
  ],
  [
    'other profile fields may still change after the erasure',
    [created, ev.erased],
    { type: 'UpdateUserProfile', userId, changes: { timezone: 'Europe/Paris' } },
    [{ type: 'UserProfileUpdated', data: { userId, changes: { timezone: 'Europe/Paris' } } }],
  ],
  [
    'no new contacts after the erasure',
    [created, ev.erased],
    { type: 'AddContact', userId, contactId: 'c9', contact },
    UserErrorCode.PersonalDataErased,
  ],
  [
    'delete a user',
    [created],
    { type: 'DeleteUser', userId },
    [{ type: 'UserDeleted', data: { userId, customerId: null } }],
  ],
  ['a deleted user is gone', [created, ev.deleted], { type: 'BlockUser', userId }, UserErrorCode.NotFound],
  ['delete twice', [created, ev.deleted], { type: 'DeleteUser', userId }, UserErrorCode.NotFound],
  ['erase a deleted user', [created, ev.deleted], { type: 'ErasePersonalData', userId }, [ev.erased]],
  [
    'add a file to a student',
    [studentCreated],
    { type: 'AddStudentFile', userId, file },
    [{ type: 'StudentFileAdded', data: { userId, ...file } }],
  ],
  [
    'add the same file twice',
    [studentCreated, fileAdded],
    { type: 'AddStudentFile', userId, file },
    UserErrorCode.FileAlreadyExists,
  ],
  [
    'files belong to students only',
    [created],
    { type: 'AddStudentFile', userId, file },
    UserErrorCode.NotAStudent,
  ],
  [
    'delete files',
    [studentCreated, fileAdded],
    { type: 'DeleteStudentFiles', userId, fileIds: [file.fileId, file.fileId] },
    [{ type: 'StudentFilesDeleted', data: { userId, fileIds: [file.fileId] } }],
  ],
  [
    'delete an unknown file',
    [studentCreated, fileAdded],
    { type: 'DeleteStudentFiles', userId, fileIds: ['f-unknown'] },
    UserErrorCode.FileNotFound,
  ],
  [
    'delete a file already deleted',
    [studentCreated, fileAdded, { type: 'StudentFilesDeleted', data: { userId, fileIds: [file.fileId] } }],
    { type: 'DeleteStudentFiles', userId, fileIds: [file.fileId] },
    UserErrorCode.FileNotFound,
  ],
  [
    'no new files after the erasure',
    [studentCreated, ev.erased],
    { type: 'AddStudentFile', userId, file },
    UserErrorCode.PersonalDataErased,
  ],
  // ---- activation (docs/decisions/0016) ----
  [
    'complete the activation of a user created without a password',
    [pendingCreated],
    { type: 'CompleteActivation', userId },
    [{ type: 'AccountActivated', data: { userId } }],
  ],
  [
    'complete an activation twice',
    [pendingCreated, { type: 'AccountActivated', data: { userId } }],
    { type: 'CompleteActivation', userId },
    UserErrorCode.AlreadyActivated,
  ],
  [
    'activate a user created with a password (events before activation existed)',
    [created],
    { type: 'CompleteActivation', userId },
    UserErrorCode.AlreadyActivated,
  ],
  [
    'a password set for a user awaiting activation also activates',
    [pendingCreated],
    { type: 'ChangePassword', userId },
    [
      { type: 'PasswordChanged', data: { userId } },
      { type: 'AccountActivated', data: { userId } },
    ],
  ],
  ['activate a missing user', [], { type: 'CompleteActivation', userId }, UserErrorCode.NotFound],
  // ---- own settings (PUT /users/me/...) ----
  [
    'change birth date, weekly summaries and lessons per week',
    [created],
    {
      type: 'ChangeSettings',
      userId,
      changes: { birthDate: '2010-05-04', receiveWeeklySummaryReports: true, requestedLessonsPerWeek: 3 },
    },
    [
      {
        type: 'UserSettingsChanged',
        data: {
          userId,
          changes: { birthDate: '2010-05-04', receiveWeeklySummaryReports: true, requestedLessonsPerWeek: 3 },
        },
      },
    ],
  ],
  [
    'a settings change records only what differs',
    [created, settingsChanged],
    {
      type: 'ChangeSettings',
      userId,
      changes: { birthDate: '2010-05-04', receiveWeeklySummaryReports: false, requestedLessonsPerWeek: 3 },
    },
    [{ type: 'UserSettingsChanged', data: { userId, changes: { receiveWeeklySummaryReports: false } } }],
  ],
  [
    'a settings change that changes nothing writes nothing',
    [created, settingsChanged],
    { type: 'ChangeSettings', userId, changes: { birthDate: '2010-05-04', requestedLessonsPerWeek: 3 } },
    [],
  ],
  [
    'clear the birth date',
    [created, settingsChanged],
    { type: 'ChangeSettings', userId, changes: { birthDate: null } },
    [{ type: 'UserSettingsChanged', data: { userId, changes: { birthDate: null } } }],
  ],
  [
    'ask for a new notification e-mail',
    [created],
    { type: 'RequestNotificationEmailChange', userId, email: 'me@home.example.com' },
    [{ type: 'NotificationEmailChangeRequested', data: { userId, email: 'me@home.example.com' } }],
  ],
  [
    'verify the notification e-mail asked for last',
    [
      created,
      { type: 'NotificationEmailChangeRequested', data: { userId, email: 'old@home.example.com' } },
      { type: 'NotificationEmailChangeRequested', data: { userId, email: 'me@home.example.com' } },
    ],
    { type: 'VerifyNotificationEmail', userId },
    [{ type: 'NotificationEmailVerified', data: { userId, email: 'me@home.example.com' } }],
  ],
  [
    'verify with nothing waiting',
    [
      created,
      { type: 'NotificationEmailChangeRequested', data: { userId, email: 'me@home.example.com' } },
      { type: 'NotificationEmailVerified', data: { userId, email: 'me@home.example.com' } },
    ],
    { type: 'VerifyNotificationEmail', userId },
    UserErrorCode.NoNotificationEmailPending,
  ],
  [
    'request a student’s EHCP from two people (a repeated id counts once)',
    [studentCreated],
    { type: 'RequestEhcp', userId, requestId: 'r1', recipientIds: ['a', 'b', 'a'] },
    [{ type: 'EhcpRequested', data: { userId, requestId: 'r1', customerId, recipientIds: ['a', 'b'] } }],
  ],
  [
    'an EHCP request names at least one person',
    [studentCreated],
    { type: 'RequestEhcp', userId, requestId: 'r1', recipientIds: [] },
    UserErrorCode.NoRecipients,
    'body: name at least one person to ask',
  ],
  [
    'an EHCP is requested for students only',
    [created],
    { type: 'RequestEhcp', userId, requestId: 'r1', recipientIds: ['a'] },
    UserErrorCode.NotAStudent,
  ],
  [
    'no EHCP request for a student whose personal data was erased',
    [studentCreated, ev.erased],
    { type: 'RequestEhcp', userId, requestId: 'r1', recipientIds: ['a'] },
    UserErrorCode.PersonalDataErased,
  ],
  [
    'no EHCP request for a deleted student',
    [studentCreated, ev.deleted],
    { type: 'RequestEhcp', userId, requestId: 'r1', recipientIds: ['a'] },
    UserErrorCode.NotFound,
  ],
  [
    'an earlier EHCP request does not stop another',
    [
      studentCreated,
      { type: 'EhcpRequested', data: { userId, requestId: 'r0', customerId, recipientIds: ['a'] } },
    ],
    { type: 'RequestEhcp', userId, requestId: 'r1', recipientIds: ['a'] },
    [{ type: 'EhcpRequested', data: { userId, requestId: 'r1', customerId, recipientIds: ['a'] } }],
  ],
  // ---- linked students ("selected students", decision 0034) ----
  [
    "link two students of the partner's customer",
    [partnerCreated],
    { type: 'ChangeStudentLinks', userId, students: [s1, s2] },
    [
      {
        type: 'UserStudentLinksChanged',
        data: { userId, studentIds: [S1, S2], linked: [S1, S2], unlinked: [] },
      },
    ],
  ],
  [
    'replace the links: what was added and removed is recorded',
    [partnerCreated, linkedS1],
    { type: 'ChangeStudentLinks', userId, students: [s2] },
    [{ type: 'UserStudentLinksChanged', data: { userId, studentIds: [S2], linked: [S2], unlinked: [S1] } }],
  ],
  [
    'the same links again write nothing (repeated ids count once)',
    [partnerCreated, linkedS1],
    { type: 'ChangeStudentLinks', userId, students: [s1, s1] },
    [],
  ],
  [
    'unlink everyone',
    [partnerCreated, linkedS1],
    { type: 'ChangeStudentLinks', userId, students: [] },
    [{ type: 'UserStudentLinksChanged', data: { userId, studentIds: [], linked: [], unlinked: [S1] } }],
  ],
  [
    'a kept link is not re-checked (the student has since moved customer)',
    [partnerCreated, linkedS1],
    { type: 'ChangeStudentLinks', userId, students: [{ ...s1, customerId: otherCustomer }, s2] },
    [{ type: 'UserStudentLinksChanged', data: { userId, studentIds: [S1, S2], linked: [S2], unlinked: [] } }],
  ],
  [
    'only partner users have linked students',
    [created],
    { type: 'ChangeStudentLinks', userId, students: [s1] },
    UserErrorCode.NotAPartner,
    'id: only partner users have linked students',
  ],
  [
    'only students can be linked',
    [partnerCreated],
    { type: 'ChangeStudentLinks', userId, students: [{ id: S2, userType: 'teacher', customerId: null }] },
    UserErrorCode.NotLinkableStudent,
    `student_ids: ${S2} is not a student`,
  ],
  [
    'an unknown id is not a student',
    [partnerCreated],
    { type: 'ChangeStudentLinks', userId, students: [{ id: S2, userType: null, customerId: null }] },
    UserErrorCode.NotLinkableStudent,
    `student_ids: ${S2} is not a student`,
  ],
  [
    'only students of the same customer',
    [partnerCreated],
    { type: 'ChangeStudentLinks', userId, students: [s1, { ...s2, customerId: otherCustomer }] },
    UserErrorCode.NotLinkableStudent,
    `student_ids: ${S2} is not a student of this partner's customer`,
  ],
  [
    'a deleted partner has no links to change',
    [partnerCreated, ev.deleted],
    { type: 'ChangeStudentLinks', userId, students: [s1] },
    UserErrorCode.NotFound,
  ],
];

describe('user decider: given events, when command, then events or error', () => {
  it.each(table)('%s', (...row: Row) => {
    // Rest parameters: jest would take a fifth declared parameter for a done callback.
    const [, given, command, then, detail] = row;
    const state = fold(given);
    if (Array.isArray(then)) {
      expect(decide(command, state, byAdmin)).toEqual(then);
      return;
    }
    let error: unknown;
    try {
      decide(command, state, byAdmin);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(UserError);
    expect((error as UserError).code).toBe(then);
    if (detail) expect((error as UserError).detail).toBe(detail);
  });

  it('gives every error code one kind: forbidden administrators only, not_found missing, conflict for the state, invalid for bad values', () => {
    const kinds = Object.values(UserErrorCode).map((code) => [code, userErrorKind(code)] as const);
    expect(kinds).toHaveLength(Object.keys(UserErrorCode).length);
    expect(userErrorKind(UserErrorCode.NotFound)).toBe('not_found');
    expect(userErrorKind(UserErrorCode.AlreadyBlocked)).toBe('conflict');
    expect(userErrorKind(UserErrorCode.DeactivationDateNotInFuture)).toBe('invalid');
    expect(userErrorKind(UserErrorCode.AdministratorsOnly)).toBe('forbidden');
    for (const [, kind] of kinds) expect(['forbidden', 'not_found', 'conflict', 'invalid']).toContain(kind);
    const error = new UserError(UserErrorCode.AlreadyBlocked, 'User is already blocked');
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({ kind: 'conflict', code: 'USER_ALREADY_BLOCKED' });
  });

  it('folds a history into the state the rules read', () => {
    const state = fold([created, ev.blocked, ev.qualitySet, ev.contactAdded, ev.scheduled]);
    expect(state).toMatchObject({
      exists: true,
      isBlocked: true,
      hasAccess: true,
      qualityIssue: 'Late twice',
      scheduledDeactivationAt: LATER,
      contacts: [{ id: 'c1', name: 'Pat' }],
    });
  });
});

// Decision 0037: only administrators act on an administrator's account, whatever path sends the command.
const adminId = '00000000-0000-4000-8000-0000000000a1';
const adminData: UserCreatedData = {
  ...teacher,
  userId: adminId,
  userType: 'super_admin',
  permissions: ['USER_IS_ADMIN'],
};
const adminCreated: UserEvent = { type: 'UserCreated', data: adminData };
const teacherWithEverything: CommandIssuer = {
  userId: '00000000-0000-4000-8000-0000000000b7',
  permissions: ['USER_IS_TEACHER', 'CAN_BLOCK_USERS', 'CAN_SET_QUALITY_ISSUE', 'CAN_MODIFY_USER'],
};
const otherAdmin: CommandIssuer = {
  userId: '00000000-0000-4000-8000-0000000000a2',
  permissions: ['USER_IS_ADMIN'],
};
const onAdmin: UserCommand[] = [
  { type: 'BlockUser', userId: adminId },
  { type: 'UnblockUser', userId: adminId },
  { type: 'DeactivateUser', userId: adminId },
  { type: 'ScheduleDeactivation', userId: adminId, at: LATER, now: NOW },
  { type: 'ActivateUser', userId: adminId },
  { type: 'SetQualityIssue', userId: adminId, reason: 'x' },
  { type: 'UnsetQualityIssue', userId: adminId },
  { type: 'ChangePermissions', userId: adminId, permissions: ['USER_IS_ADMIN', 'CAN_AUDIT'] },
  { type: 'AdjustPermissions', userId: adminId, grant: [], revoke: ['USER_IS_ADMIN'] },
  { type: 'UpdateUserProfile', userId: adminId, changes: { notes: 'x' } },
  { type: 'ChangePassword', userId: adminId },
  { type: 'DeleteUser', userId: adminId },
  { type: 'ErasePersonalData', userId: adminId },
];

describe('user decider: only administrators act on an administrator (decision 0037)', () => {
  it.each(onAdmin.map((c) => [c.type, c] as const))(
    '%s on an administrator by a teacher holding every named permission: forbidden',
    (_type, command) => {
      let error: unknown;
      try {
        decide(command, fold([adminCreated]), teacherWithEverything);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(UserError);
      expect((error as UserError).code).toBe(UserErrorCode.AdministratorsOnly);
      expect((error as UserError).kind).toBe('forbidden');
    },
  );

  it('another administrator, and the portal itself (scheduler, mailed links), still act on administrators', () => {
    expect(decide({ type: 'BlockUser', userId: adminId }, fold([adminCreated]), otherAdmin)).toEqual([
      { type: 'UserBlocked', data: { userId: adminId } },
    ]);
    const scheduled: UserEvent = {
      type: 'UserDeactivationScheduled',
      data: { userId: adminId, at: EARLIER },
    };
    expect(
      decide(
        { type: 'ApplyDueDeactivation', userId: adminId, now: NOW },
        fold([adminCreated, scheduled]),
        'system',
      ),
    ).toEqual([{ type: 'UserDeactivated', data: { userId: adminId, scheduled: true } }]);
    expect(
      decide({ type: 'ChangePassword', userId: adminId }, fold([adminCreated]), {
        userId: adminId,
        permissions: ['USER_IS_ADMIN'],
      }),
    ).toEqual([{ type: 'PasswordChanged', data: { userId: adminId } }]);
  });

  it('a teacher still blocks and sets quality issues on teachers', () => {
    expect(decide({ type: 'BlockUser', userId }, fold([created]), teacherWithEverything)).toEqual([
      { type: 'UserBlocked', data: { userId } },
    ]);
    expect(
      decide({ type: 'SetQualityIssue', userId, reason: 'Late' }, fold([created]), teacherWithEverything),
    ).toEqual([{ type: 'QualityIssueSet', data: { userId, reason: 'Late' } }]);
  });

  it('only administrators create administrators', () => {
    const create: UserCommand = { type: 'CreateUser', data: adminData };
    expect(() => decide(create, fold([]), teacherWithEverything)).toThrow(UserError);
    expect(decide(create, fold([]), otherAdmin)).toEqual([adminCreated]);
  });
});
