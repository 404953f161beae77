import { describe, expect, it } from '@jest/globals';
import { NOTIFICATION_TIMEOUT_MS } from './errors';
import { firstShowing } from './notify';

describe('error toasts', () => {
  it('show one failure once, even when several queries report it', () => {
    const recent = new Map<string, number>();
    expect(firstShowing('Server error\nThe store is unavailable', 1000, recent)).toBe(true);
    expect(firstShowing('Server error\nThe store is unavailable', 1200, recent)).toBe(false);
    expect(firstShowing('Not found\nUser not found', 1200, recent)).toBe(true);
  });

  it('show the same error again once the first toast has gone', () => {
    const recent = new Map<string, number>();
    expect(firstShowing('Server error\nDown', 0, recent)).toBe(true);
    expect(firstShowing('Server error\nDown', NOTIFICATION_TIMEOUT_MS, recent)).toBe(true);
  });
});
