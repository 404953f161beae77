import { describe, expect, it } from '@jest/globals';
import { ApiError } from '../shared/api/client';
import { retryRead, retryReadDelay } from './query-client';

const failed = (status: number) => new ApiError(status, 'x', { detail: 'x' }, `HTTP ${status}`);

describe('reads that fail', () => {
  it('show a server error or a refusal at once: asking again gets the same answer', () => {
    for (const status of [400, 403, 404, 422, 500]) expect(retryRead(0, failed(status))).toBe(false);
    expect(retryRead(0, new TypeError('bad json'))).toBe(false);
  });

  it('try twice more when no answer came or the portal is (re)starting, then give up', () => {
    for (const status of [0, 502, 503, 504]) {
      expect(retryRead(0, failed(status))).toBe(true);
      expect(retryRead(1, failed(status))).toBe(true);
      expect(retryRead(2, failed(status))).toBe(false);
    }
  });

  it('wait under a second in all before the error shows with its Retry', () => {
    expect(retryReadDelay(0) + retryReadDelay(1)).toBeLessThanOrEqual(1000);
  });
});
