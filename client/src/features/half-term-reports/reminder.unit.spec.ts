import { describe, expect, it } from '@jest/globals';
import { remember, reminderDue, reminderLogOf } from './reminder';

describe('half-term reminder: once a day, per user', () => {
  const now = new Date('2026-11-25T09:00:00.000Z');

  it('shows when never shown, not again within 24 hours, again after', () => {
    expect(reminderDue({}, 'u1', now)).toBe(true);
    const log = remember({}, 'u1', now);
    expect(reminderDue(log, 'u1', new Date('2026-11-26T08:59:59.000Z'))).toBe(false);
    expect(reminderDue(log, 'u1', new Date('2026-11-26T09:00:00.000Z'))).toBe(true);
  });

  it('keeps each user of a shared computer apart', () => {
    const log = remember(remember({}, 'u1', now), 'u2', new Date('2026-11-25T10:00:00.000Z'));
    expect(log.u1).toBe(now.toISOString());
    expect(reminderDue(log, 'u3', now)).toBe(true);
    expect(reminderDue(log, 'u2', now)).toBe(false);
  });

  it('treats an old or corrupt stored value as never shown', () => {
    expect(reminderLogOf('2026-11-01')).toEqual({});
    expect(reminderLogOf(null)).toEqual({});
    expect(reminderLogOf({ u1: '2026-11-01T00:00:00Z', u2: 7 })).toEqual({ u1: '2026-11-01T00:00:00Z' });
  });
});
