import { describe, expect, it } from '@jest/globals';
import {
  mayManageProgrammes,
  mayReadProgrammes,
  mayWithdrawSome,
  programmeScopeSql,
} from './programmes.policy.js';

const perms = (...p: string[]) => new Set(p);
const ADMIN = 'USER_IS_ADMIN';
const TEACHER = 'USER_IS_TEACHER';
const PARTNER = 'USER_IS_PARTNER';
const STUDENT = 'USER_IS_STUDENT';

describe('programme permissions (spec §6)', () => {
  const table: [string, Set<string>, { manage: boolean; read: boolean; withdraw: boolean }][] = [
    ['administrator', perms(ADMIN), { manage: true, read: true, withdraw: true }],
    ['teacher', perms(TEACHER), { manage: false, read: true, withdraw: false }],
    [
      'teacher with CAN_MANAGE_PROGRAMMES',
      perms(TEACHER, 'CAN_MANAGE_PROGRAMMES'),
      { manage: true, read: true, withdraw: true },
    ],
    // A partner never manages programmes, even holding the internal permission's name.
    [
      'partner with CAN_MANAGE_PROGRAMMES',
      perms(PARTNER, 'CAN_MANAGE_PROGRAMMES'),
      { manage: false, read: true, withdraw: false },
    ],
    [
      'partner with WITHDRAW_STUDENT_FROM_ENROLLMENT',
      perms(PARTNER, 'PARTNER_CAN_WITHDRAW_STUDENT_FROM_ENROLLMENT'),
      { manage: false, read: true, withdraw: true },
    ],
    ['student', perms(STUDENT), { manage: false, read: true, withdraw: false }],
    ['nobody', perms(), { manage: false, read: false, withdraw: false }],
  ];
  it.each(table)('%s', (_who, p, expected) => {
    expect({
      manage: mayManageProgrammes(p),
      read: mayReadProgrammes(p),
      withdraw: mayWithdrawSome(p),
    }).toEqual(expected);
  });
});

describe('programme scope', () => {
  const scope = (permissions: Set<string>, customerId: string | null = null, own = false) => {
    const params: unknown[] = [];
    const sql = programmeScopeSql(
      { userId: 'u1', permissions, customerId },
      (v) => {
        params.push(v);
        return `$${params.length}`;
      },
      { own },
    );
    return { sql, params };
  };

  it('managers see every programme, but "my" programmes are the ones they teach', () => {
    expect(scope(perms(ADMIN)).sql).toBeNull();
    expect(scope(perms(ADMIN), null, true).params).toEqual(['u1']);
  });

  it("partners: their school's with SEE_ALL_PROGRAMME_DETAILS, else only their selected students'", () => {
    const all = scope(perms(PARTNER, 'PARTNER_CAN_SEE_ALL_PROGRAMME_DETAILS'), 'c1');
    expect(all).toEqual({ sql: 'p.customer_id = $1::uuid', params: ['c1'] });
    const selected = scope(perms(PARTNER), 'c1');
    expect(selected.sql).toContain('rm_student_links');
    expect(selected.params).toEqual(['c1', 'u1']);
    expect(scope(perms(PARTNER), null).sql).toBe('false');
  });

  it('teachers see the programmes they teach; anyone else nothing', () => {
    expect(scope(perms(TEACHER)).sql).toContain('rm_group_teachers');
    expect(scope(perms()).sql).toBe('false');
  });
});
