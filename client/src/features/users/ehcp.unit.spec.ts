import { describe, expect, it } from '@jest/globals';
import { describeEvent } from './audit-text';
import { ehcpAccess, requestCandidates, withReminder } from './ehcp';
import { filenameFromDisposition } from '../../shared/api/download';

const EHCP = 'CAN_ACCESS_AND_UPLOAD_EHCP';
const RELATIONS = 'PARTNER_CAN_ACCESS_USER_RELATIONS';
const SEE = 'PARTNER_CAN_SEE_ALL_STUDENTS_DETAILS';

describe('who sees the EHCP controls (mirrors the server policy)', () => {
  it.each([
    [['USER_IS_ADMIN'], null, { reminders: true, request: false }],
    [['USER_IS_TEACHER'], null, { reminders: false, request: false }],
    [['USER_IS_TEACHER', EHCP], null, { reminders: true, request: false }],
    [['USER_IS_PARTNER', EHCP, RELATIONS], 'super-admin', { reminders: true, request: true }],
    [['USER_IS_PARTNER', EHCP, RELATIONS], 'admin', { reminders: true, request: true }],
    [['USER_IS_PARTNER', EHCP, RELATIONS], 'link-contact', { reminders: true, request: false }],
    [['USER_IS_PARTNER', RELATIONS], 'super-admin', { reminders: false, request: false }],
    [['USER_IS_PARTNER', EHCP], 'super-admin', { reminders: true, request: false }],
    [['USER_IS_STUDENT', EHCP], null, { reminders: false, request: false }],
  ] as const)('%j as %s → %j', (perms, customerType, expected) => {
    expect(ehcpAccess(perms, customerType)).toEqual(expected);
  });
});

describe('switching one student’s reminder', () => {
  it.each([
    [['a', 'b'], 'c', true, ['a', 'b', 'c']],
    [['a', 'b'], 'a', false, ['b']],
    [['a'], 'a', true, ['a']],
    [[], 'a', false, []],
  ])('%j, %s on=%s → %j', (current, id, on, expected) => {
    expect(withReminder(current, id, on)).toEqual(expected);
  });
});

describe('people offered for an EHCP request', () => {
  const user = (
    id: string,
    full_name: string,
    extra: Partial<Parameters<typeof requestCandidates>[0][0]> = {},
  ) => ({
    id,
    full_name,
    user_type: 'partner' as const,
    has_access: true,
    is_blocked: false,
    permission_list: ['USER_IS_PARTNER', SEE],
    ...extra,
  });
  it('offers school users who can see students, not the requester, sorted by name', () => {
    const users = [
      user('z', 'Zoe Head'),
      user('me', 'Me Myself'),
      user('p', 'Pat Parent', { permission_list: ['USER_IS_PARTNER'] }),
      user('x', 'Xena Gone', { has_access: false }),
      user('b', 'Bo Blocked', { is_blocked: true }),
      user('a', 'Ann Admin'),
    ];
    expect(requestCandidates(users, 'me').map((u) => u.id)).toEqual(['a', 'z']);
  });
});

describe('EHCP requests in the audit timeline and report file names', () => {
  it('says how many people were asked', () => {
    expect(describeEvent('EhcpRequested', { recipientIds: ['a', 'b'] }, 'UTC')).toBe(
      'EHCP requested from 2 people',
    );
    expect(describeEvent('EhcpRequested', { recipientIds: ['a'] }, 'UTC')).toBe(
      'EHCP requested from 1 person',
    );
  });
  it.each([
    [
      'attachment; filename="teachers-without-availability-2030-01-07.csv"',
      'teachers-without-availability-2030-01-07.csv',
    ],
    ['attachment; filename=report.xlsx', 'report.xlsx'],
    ['attachment; filename="../etc/x.csv"', '.._etc_x.csv'],
    [null, 'fallback.csv'],
    ['inline', 'fallback.csv'],
  ])('%s → %s', (header, name) => {
    expect(filenameFromDisposition(header, 'fallback.csv')).toBe(name);
  });
});
