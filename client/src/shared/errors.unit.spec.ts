import { describe, expect, it } from '@jest/globals';
import { ApiError } from './api/client';
import { describeError, isHandledBySessionRules, NOTIFICATION_TIMEOUT_MS } from './errors';

const apiError = (status: number, detail?: string) => new ApiError(status, detail, { detail }, 'x');

describe('error notifications (spec §8, §9)', () => {
  it('last 6000 ms', () => {
    expect(NOTIFICATION_TIMEOUT_MS).toBe(6000);
  });

  it('skip the errors the session rules handle', () => {
    expect(isHandledBySessionRules(apiError(401))).toBe(true);
    expect(isHandledBySessionRules(apiError(403, 'Could not validate credentials'))).toBe(true);
    expect(isHandledBySessionRules(apiError(404, 'User not found'))).toBe(true);
    expect(isHandledBySessionRules(apiError(403, 'Not allowed'))).toBe(false);
    expect(isHandledBySessionRules(apiError(404, 'Lesson not found'))).toBe(false);
    expect(isHandledBySessionRules(apiError(500))).toBe(false);
    expect(isHandledBySessionRules(new Error('boom'))).toBe(false);
  });

  it("show the server's detail when there is one", () => {
    expect(describeError(apiError(422, 'Name is required')).message).toBe('Name is required');
    expect(describeError(apiError(500)).message).toContain('error 500');
    expect(describeError(apiError(0)).title).toBe('Portal unreachable');
    expect(describeError('odd').title).toBe('Something went wrong');
  });
});
