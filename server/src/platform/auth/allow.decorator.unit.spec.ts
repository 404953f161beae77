import { describe, expect, it } from '@jest/globals';
import { DEFAULT_REFUSAL, permissionRule, refusalOf, rule } from './allow.decorator.js';
import type { Actor } from './request-context.js';

const actor = (over: Partial<Actor> = {}): Actor => ({
  userId: 'u1',
  sessionId: 's1',
  impersonatorId: null,
  permissions: new Set(['A']),
  customerId: null,
  customerType: null,
  userType: 'admin',
  firstName: 'Ada',
  displayName: 'Ada Admin',
  customerName: null,
  ...over,
});

describe('@Allow rules', () => {
  const hasA = permissionRule((p) => p.has('A'));
  const partner = rule((a) => a.customerId !== null, 'Partners only');

  it('passes when every rule says yes (or there are none)', () => {
    expect(refusalOf(undefined, actor())).toBeNull();
    expect(refusalOf([], actor())).toBeNull();
    expect(refusalOf([hasA, partner], actor({ customerId: 'c1' }))).toBeNull();
  });

  it('answers the first refusing rule, with its detail or the default one', () => {
    expect(refusalOf([hasA, partner], actor())?.detail).toBe('Partners only');
    expect(refusalOf([hasA, partner], actor({ permissions: new Set() }))?.detail).toBe(DEFAULT_REFUSAL);
    expect(DEFAULT_REFUSAL).toBe('You do not have permission to do this');
  });
});
