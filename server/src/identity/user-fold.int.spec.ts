import { expect } from '@jest/globals';
import { ERASED, usersProjection, type ProjectionEvent } from '@portal/projections';
import { describeFoldInBatches, record } from '../platform/testing/projection-contract.js';

/**
 * Decision 0086: a batch of users events folds the users it creates in memory and writes each row
 * once; events the fold does not copy (erasure, files) first write the row and leave the user to SQL.
 * Whatever the batch boundaries, the rows must be those of event-by-event apply. The history walks
 * every rule the fold copies, both kinds of spill, a second creation, ids in capitals, and a user
 * created before the batch.
 */
const id = (n: number) => `abcdef00-0000-4000-8000-${String(n).padStart(12, '0')}`;
const [ANN, BEN, CAT, DAN] = [id(1), id(2), id(3), id(4)];
const user = (userId: string) => `user-${userId}`;
const created = (userId: string, login: string, extra: Record<string, unknown> = {}) => ({
  userId,
  login,
  email: `${login.toLowerCase()}@example.org`,
  firstName: login,
  lastName: "O'Hara",
  userType: 'customer',
  permissions: ['USER_IS_CUSTOMER'],
  customerId: id(90),
  customerType: 'parent',
  ...extra,
});
const contact = (userId: string, contactId: string, name: string, notes?: string) => ({
  userId,
  contactId,
  name,
  email: null,
  phone: '0123',
  relationship: 'Parent',
  ...(notes === undefined ? {} : { notes }),
});

const history: ProjectionEvent[] = record([
  [user(DAN), 'UserCreated', created(DAN, 'Dan')],
  [user(ANN), 'UserCreated', created(ANN, 'Ann', { customFields: { a: 'x', b: null } })],
  [user(ANN), 'UserContactAdded', contact(ANN, id(11), 'First')],
  [user(ANN), 'UserContactAdded', contact(ANN, id(12), 'Second', 'note')],
  [user(ANN), 'UserContactUpdated', contact(ANN, id(11), 'First again')],
  [user(ANN), 'UserContactUpdated', contact(ANN, id(13), 'Third, by update')],
  [user(ANN), 'UserContactRemoved', { userId: ANN, contactId: id(12) }],
  [user(BEN), 'UserCreated', created(BEN.toUpperCase(), 'BEN', { awaitingActivation: true })],
  [
    user(ANN),
    'UserProfileUpdated',
    {
      userId: ANN,
      changes: { firstName: 'Anne', timezone: null, position: 'Parent', customFields: { a: null, c: 3 } },
    },
  ],
  [
    user(ANN),
    'UserSettingsChanged',
    { userId: ANN, changes: { birthDate: '2010-01-02', requestedLessonsPerWeek: 3 } },
  ],
  [user(ANN), 'NotificationEmailChangeRequested', { userId: ANN, email: 'new@example.org' }],
  [user(ANN), 'UserImpersonated', { userId: ANN, impersonatorId: id(99), via: 'access-token' }],
  [user(BEN), 'AccountActivated', { userId: BEN }],
  [
    user(BEN),
    'UserPermissionsChanged',
    { userId: BEN.toUpperCase(), permissions: ['A', 'B'], added: ['A', 'B'], removed: [] },
  ],
  [user(BEN), 'UserDeactivationScheduled', { userId: BEN, at: '2026-12-01T00:00:00.000Z' }],
  [user(BEN), 'UserBlocked', { userId: BEN }],
  [user(BEN), 'QualityIssueSet', { userId: BEN, reason: 'Late twice' }],
  [user(BEN), 'UserCreated', created(BEN, 'Ben again')], // a second creation keeps the row
  [user(CAT), 'UserCreated', created(CAT, 'Cat')],
  [user(CAT), 'UserContactAdded', contact(CAT, id(21), 'Cat contact')],
  [
    user(CAT),
    'StudentFileAdded',
    {
      userId: CAT,
      fileId: id(31),
      filePath: 'p',
      fileName: 'f.pdf',
      fileType: 'OTHER',
      contentType: 'application/pdf',
      size: 10,
    },
  ],
  [user(CAT), 'UserContactAdded', contact(CAT, id(22), 'After the spill')],
  [user(ANN), 'NotificationEmailVerified', { userId: ANN, email: 'new@example.org' }],
  [user(ANN), 'UserPersonalDataErased', { userId: ANN }],
  [user(ANN), 'UserDeactivated', { userId: ANN, scheduled: false }],
  [user(DAN), 'UserContactAdded', contact(DAN, id(41), 'Dan contact')],
  [user(DAN), 'UserDeleted', { userId: DAN }],
  [user(BEN), 'UserUnblocked', { userId: BEN }],
  [user(BEN), 'QualityIssueUnset', { userId: BEN }],
  [user(BEN), 'UserDeactivationCancelled', { userId: BEN }],
  [user(BEN), 'ActiveNetworkChanged', { userId: BEN, networkId: id(80) }],
  [user(BEN), 'PasswordChanged', { userId: BEN }],
  [user(BEN), 'UserImpersonated', { userId: BEN, impersonatorId: id(99), via: 'access-token' }], // changes nothing
]);

describeFoldInBatches('users projection', 'portal_user_fold', usersProjection, history, {
  title: 'event by event, the history sets every rule the fold copies',
  async check(sql) {
    const { rows } = await sql.query<Record<string, unknown>>(
      `SELECT id::text, login, first_name, contacts, custom_fields, files, has_access, is_blocked, status,
            awaiting_activation, permissions, position, notification_email, deleted_at IS NOT NULL AS deleted,
            personal_data_erased, requested_number_of_lessons_per_week AS lessons
       FROM rm_users ORDER BY id`,
    );
    const [ann, ben, cat, dan] = rows;
    expect(ann).toMatchObject({ first_name: ERASED, personal_data_erased: true, has_access: false });
    expect((ann!.contacts as { id: string; name: string }[]).map((c) => [c.id, c.name])).toEqual([
      [id(11), ERASED],
      [id(13), ERASED],
    ]);
    expect(ann).toMatchObject({ custom_fields: { c: 3 }, position: 'Parent', lessons: 3 });
    expect(ann!.notification_email).not.toBeNull();
    expect(ben).toMatchObject({
      login: 'ben',
      awaiting_activation: false,
      permissions: ['A', 'B'],
      is_blocked: false,
      status: 'active',
    });
    expect((cat!.contacts as { id: string }[]).map((c) => c.id)).toEqual([id(21), id(22)]);
    expect(cat!.files).toHaveLength(1);
    expect(dan).toMatchObject({ deleted: true, has_access: false });
    expect((dan!.contacts as unknown[]).length).toBe(1);
  },
});
