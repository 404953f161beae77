import { describe, expect, it } from '@jest/globals';
import { MARKER_PERMISSIONS, NAMED_PERMISSIONS, PARTNER } from '../../identity/policy/policy.js';
import { ehcpStudentScope, studentInScope, studentScope, studentScopeSql } from './student-scope.js';

const admin = { userId: 'a', permissions: [MARKER_PERMISSIONS.admin], customerId: null };
const partner = (more: string[] = [], customerId: string | null = 'c1') => ({
  userId: 'p',
  permissions: [MARKER_PERMISSIONS.partner, ...more],
  customerId,
});
const binder = () => {
  const params: unknown[] = [];
  return { params, bind: (v: unknown) => (params.push(v), `$${params.length}`) };
};
const linked = new Set(['s-linked']);
const isLinked = (_p: string, s: string) => linked.has(s);

describe('studentScope: own customer; only linked students unless SEE_ALL', () => {
  it('administrators see every student (no condition)', () => {
    const scope = studentScope(admin);
    expect(scope).toEqual({ all: true });
    expect(studentScopeSql(scope, binder().bind)).toBeNull();
    expect(studentInScope(scope, { id: 'x', customerId: 'other' }, isLinked)).toBe(true);
  });

  it('partners with SEE_ALL_STUDENTS_DETAILS see their customer’s students', () => {
    const scope = studentScope(partner([PARTNER.SEE_ALL_STUDENTS_DETAILS]));
    expect(scope).toEqual({ all: false, customerId: 'c1', linkedTo: null });
    const { params, bind } = binder();
    expect(studentScopeSql(scope, bind, { id: 'u.id', customerId: 'u.customer_id' })).toBe(
      'u.customer_id = $1',
    );
    expect(params).toEqual(['c1']);
    expect(studentInScope(scope, { id: 's', customerId: 'c1' }, isLinked)).toBe(true);
    expect(studentInScope(scope, { id: 's', customerId: 'c2' }, isLinked)).toBe(false);
  });

  it('other partners see only the students linked to them', () => {
    const scope = studentScope(partner());
    expect(scope).toEqual({ all: false, customerId: 'c1', linkedTo: 'p' });
    const { params, bind } = binder();
    const sql = studentScopeSql(scope, bind)!;
    expect(sql).toMatch(/^customer_id = \$1 AND id IN \(SELECT l\.student_id FROM rm_student_links l/);
    expect(sql).toContain('WHERE l.partner_id = $2');
    expect(params).toEqual(['c1', 'p']);
    expect(studentInScope(scope, { id: 's-linked', customerId: 'c1' }, isLinked)).toBe(true);
    expect(studentInScope(scope, { id: 's-other', customerId: 'c1' }, isLinked)).toBe(false);
    expect(studentInScope(scope, { id: 's-linked', customerId: 'c2' }, isLinked)).toBe(false);
  });

  it('a partner without a customer sees none; the customer condition can be left to the caller', () => {
    const none = studentScope(partner([PARTNER.SEE_ALL_STUDENTS_DETAILS], null));
    expect(studentScopeSql(none, binder().bind)).toBe('false');
    expect(studentInScope(none, { id: 's', customerId: null }, isLinked)).toBe(false);
    const { bind } = binder();
    expect(studentScopeSql(studentScope(partner()), bind, undefined, { customer: false })).toMatch(/^id IN/);
    expect(
      studentScopeSql(studentScope(partner([PARTNER.SEE_ALL_STUDENTS_DETAILS])), bind, undefined, {
        customer: false,
      }),
    ).toBeNull();
  });

  it('callers may name who is unrestricted and what "all" means (safeguarding reporting)', () => {
    expect(studentScope(partner(), { unrestricted: true })).toEqual({ all: true });
    expect(studentScope(admin, { unrestricted: false, seeAll: true })).toEqual({
      all: false,
      customerId: null,
      linkedTo: null,
    });
    expect(studentScope(partner(), { seeAll: true })).toMatchObject({ linkedTo: null });
  });

  it('asks for a link only when the answer depends on one, and may ask the read model', async () => {
    let asked = 0;
    const ask = (_p: string, _s: string) => (asked++, Promise.resolve(true));
    await expect(
      Promise.resolve(studentInScope(studentScope(partner()), { id: 's', customerId: 'c2' }, ask)),
    ).resolves.toBe(false);
    expect(asked).toBe(0);
    await expect(
      Promise.resolve(studentInScope(studentScope(partner()), { id: 's', customerId: 'c1' }, ask)),
    ).resolves.toBe(true);
    expect(asked).toBe(1);
  });
});

describe('ehcpStudentScope: EHCP reach is the student scope, or nothing', () => {
  const EHCP = NAMED_PERMISSIONS.EHCP;
  it.each([
    ['an administrator', admin, { all: true }],
    [
      'a teacher with EHCP access',
      { ...admin, permissions: [MARKER_PERMISSIONS.teacher, EHCP] },
      { all: true },
    ],
    ['a teacher without it', { ...admin, permissions: [MARKER_PERMISSIONS.teacher] }, null],
    ['a partner without it', partner([PARTNER.SEE_ALL_STUDENTS_DETAILS]), null],
    [
      'a partner with it: own customer, linked students only',
      partner([EHCP]),
      { all: false, customerId: 'c1', linkedTo: 'p' },
    ],
    [
      'a partner with it and SEE_ALL: all of their customer',
      partner([EHCP, PARTNER.SEE_ALL_STUDENTS_DETAILS]),
      { all: false, customerId: 'c1', linkedTo: null },
    ],
  ])('%s', (_name, viewer, expected) => {
    expect(ehcpStudentScope(viewer)).toEqual(expected);
  });
});
