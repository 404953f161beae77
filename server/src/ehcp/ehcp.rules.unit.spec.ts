import { describe, expect, it } from '@jest/globals';
import { thrownKind } from '../platform/domain/domain-error.js';
import type { EhcpReminderEvent } from '@portal/projections';
import { decideReminders, foldReminders, recipientRefusal, type RecipientFacts } from './ehcp.rules.js';

const changed = (added: string[], removed: string[] = []): EhcpReminderEvent => ({
  type: 'EhcpRemindersChanged',
  data: { added, removed },
});

describe('EHCP reminder list: given events, when the list is replaced, then the change', () => {
  type Row = [
    string,
    EhcpReminderEvent[],
    { studentIds: string[]; within: Set<string> | 'all' },
    EhcpReminderEvent[] | RegExp,
  ];
  const table: Row[] = [
    [
      'an empty list takes the students',
      [],
      { studentIds: ['a', 'b'], within: 'all' },
      [changed(['a', 'b'])],
    ],
    [
      'replacing adds the new and removes the missing',
      [changed(['a', 'b'])],
      { studentIds: ['b', 'c'], within: 'all' },
      [changed(['c'], ['a'])],
    ],
    [
      'the same list again writes nothing',
      [changed(['a', 'b'])],
      { studentIds: ['b', 'a'], within: 'all' },
      [],
    ],
    ['a repeated id counts once', [], { studentIds: ['a', 'a'], within: 'all' }, [changed(['a'])]],
    [
      'an empty body clears the list',
      [changed(['a', 'b'])],
      { studentIds: [], within: 'all' },
      [changed([], ['a', 'b'])],
    ],
    [
      "a partner's replace leaves other schools' students on the list",
      [changed(['a', 'x'])],
      { studentIds: ['b'], within: new Set(['a', 'b']) },
      [changed(['b'], ['a'])],
    ],
    [
      "a partner's empty list clears only their own students",
      [changed(['a', 'x'])],
      { studentIds: [], within: new Set(['a', 'b']) },
      [changed([], ['a'])],
    ],
    [
      'a partner cannot put another school’s student on the list',
      [],
      { studentIds: ['x'], within: new Set(['a']) },
      /^body: not students you can set reminders for \(x\)$/,
    ],
    [
      'removed students can come back',
      [changed(['a']), changed([], ['a'])],
      { studentIds: ['a'], within: 'all' },
      [changed(['a'])],
    ],
  ];
  it.each(table)('%s', (_name, given, command, then) => {
    const list = foldReminders(given);
    if (Array.isArray(then)) {
      expect(decideReminders(command, list)).toEqual(then);
      return;
    }
    expect(thrownKind(() => decideReminders(command, list))).toBe('invalid');
    expect(() => decideReminders(command, list)).toThrow(then);
  });

  it('folds additions and removals in order', () => {
    expect([...foldReminders([changed(['a', 'b']), changed(['c'], ['a'])])].sort()).toEqual(['b', 'c']);
  });
});

describe('who may be asked for an EHCP', () => {
  const request = { requesterId: 'me', studentCustomerId: 'oak' };
  const staff: RecipientFacts = {
    id: 't',
    userType: 'teacher',
    customerId: null,
    canSignIn: true,
    seesStudent: true,
  };
  const colleague: RecipientFacts = {
    id: 'p',
    userType: 'partner',
    customerId: 'oak',
    canSignIn: true,
    seesStudent: true,
  };
  it.each<[string, RecipientFacts | null, string | null]>([
    ['a teacher of the provider', staff, null],
    ['an administrator', { ...staff, userType: 'super_admin' }, null],
    ['a user of the same school who sees students', colleague, null],
    ['an unknown user', null, "not on the provider's staff or at the student's school"],
    [
      'a user of another school (same answer)',
      { ...colleague, customerId: 'elm' },
      "not on the provider's staff or at the student's school",
    ],
    ['the requester', { ...colleague, id: 'me' }, 'you cannot ask yourself'],
    ['a student', { ...colleague, userType: 'student' }, 'students cannot be asked'],
    [
      'a deactivated or blocked teacher',
      { ...staff, canSignIn: false },
      'cannot sign in (deactivated or blocked)',
    ],
    [
      'a parent who cannot see the student',
      { ...colleague, seesStudent: false },
      "cannot see the student's details",
    ],
  ])('%s → %s', (_name, recipient, refusal) => {
    expect(recipientRefusal(recipient, request)).toBe(refusal);
  });
});
