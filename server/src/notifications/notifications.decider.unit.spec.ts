import { describe, expect, it } from '@jest/globals';
import { DomainError } from '../platform/domain/domain-error.js';
import { decideReadCursor, evolveReadCursor, initialReadCursor } from './notifications.decider.js';

const mark = (upToPosition: string) => ({
  type: 'MarkNotificationsRead' as const,
  userId: 'u',
  upToPosition,
});

describe('the notification read cursor', () => {
  it('moves forward only', () => {
    const first = decideReadCursor(mark('42'), initialReadCursor);
    expect(first).toEqual([{ type: 'NotificationsRead', data: { userId: 'u', upToPosition: '42' } }]);
    const at42 = first.reduce(evolveReadCursor, initialReadCursor);
    expect(decideReadCursor(mark('42'), at42)).toEqual([]);
    expect(decideReadCursor(mark('7'), at42)).toEqual([]);
    expect(decideReadCursor(mark('43'), at42)).toHaveLength(1);
  });

  it('refuses a position that is not one', () => {
    for (const bad of ['-1', 'abc', '1e3', '', '12345678901234567890'])
      expect(() => decideReadCursor(mark(bad), initialReadCursor)).toThrow(DomainError);
  });
});
