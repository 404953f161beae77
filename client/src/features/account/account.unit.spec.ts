import { ApiError } from '../../shared/api/client';
import { describe, expect, it } from '@jest/globals';
import { isInvalidLink, parseDayMonthYear, passwordErrors } from './api';

describe('account screens: pure rules', () => {
  it('reads a typed birth date as dd.MM.yyyy and refuses non-dates', () => {
    expect(parseDayMonthYear('14.03.1990')).toBe('1990-03-14');
    expect(parseDayMonthYear('4/3/1990')).toBe('1990-03-04');
    expect(parseDayMonthYear('31.02.2000')).toBeNull();
    expect(parseDayMonthYear('1990-03-14')).toBeNull();
    expect(parseDayMonthYear('')).toBeNull();
  });

  it('asks for at least 8 characters, typed twice the same', () => {
    expect(passwordErrors('short', 'short')).toEqual({ password: 'Use at least 8 characters' });
    expect(passwordErrors('long enough', 'long enougH')).toEqual({
      confirm: 'The two passwords do not match',
    });
    expect(passwordErrors('long enough', 'long enough')).toEqual({});
  });

  it('treats the server INVALID_TOKEN answer as a dead link, other refusals not', () => {
    const dead = new ApiError(400, 'expired', { detail: 'expired', code: 'INVALID_TOKEN' }, 'expired');
    const other = new ApiError(400, 'bad', { detail: 'bad' }, 'bad');
    const offline = new ApiError(0, undefined, undefined, 'offline');
    expect(isInvalidLink(dead)).toBe(true);
    expect(isInvalidLink(other)).toBe(false);
    expect(isInvalidLink(offline)).toBe(false);
  });
});
