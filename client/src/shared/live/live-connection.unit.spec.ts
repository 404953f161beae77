import { describe, expect, it } from '@jest/globals';
import { isNewPosition } from './live-connection';

describe('live message de-duplication', () => {
  it('accepts the first message and strictly higher positions only', () => {
    expect(isNewPosition('5', null)).toBe(true);
    expect(isNewPosition('6', '5')).toBe(true);
    expect(isNewPosition('5', '5')).toBe(false);
    expect(isNewPosition('4', '5')).toBe(false);
  });

  it('compares positions as integers, not text', () => {
    expect(isNewPosition('10', '9')).toBe(true);
    expect(isNewPosition('9', '10')).toBe(false);
    expect(isNewPosition('9007199254740993', '9007199254740992')).toBe(true);
  });
});
