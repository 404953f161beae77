import { describe, expect, it } from '@jest/globals';
import type { ArgumentsHost } from '@nestjs/common';
import { HttpStatus, NotFoundException } from '@nestjs/common';
import { DomainError, ERROR_KINDS } from '../domain/domain-error.js';
import { ConcurrencyError, EventStoreUnavailableError } from '../event-store/errors.js';
import { recordingLog } from '../testing/recording-log.js';
import { AllExceptionsFilter, statusOfKind } from './all-exceptions.filter.js';
import { Problem } from './problem.js';

function answer(exception: unknown) {
  const log = recordingLog();
  const sent: { status?: number; body?: unknown } = {};
  const res = {
    headersSent: false,
    status(code: number) {
      sent.status = code;
      return this;
    },
    json(body: unknown) {
      sent.body = body;
    },
  };
  const host = {
    switchToHttp: () => ({ getResponse: () => res, getRequest: () => ({ method: 'GET', url: '/x' }) }),
  } as unknown as ArgumentsHost;
  new AllExceptionsFilter(log).catch(exception, host);
  return { ...sent, log };
}

describe('AllExceptionsFilter: every error leaves as { detail }', () => {
  it('maps a wrong expected revision (ConcurrencyError) to 409 with a detail', () => {
    const { status, body } = answer(new ConcurrencyError('user-1', '3', '4'));
    expect(status).toBe(409);
    expect(body).toEqual({ detail: expect.stringMatching(/changed by someone else/) });
  });

  it('maps each domain error kind to its one status; the code is sent only when there is one', () => {
    expect(ERROR_KINDS.map((k) => [k, statusOfKind(k)])).toEqual([
      ['invalid', 422],
      ['not_found', 404],
      ['conflict', 409],
      ['forbidden', 403],
      ['gone', 410],
      ['too_large', 413],
    ]);
    expect(answer(new DomainError('conflict', 'Customer already exists'))).toMatchObject({
      status: 409,
      body: { detail: 'Customer already exists' },
    });
    expect(answer(new DomainError('conflict', 'Customer already exists')).body).not.toHaveProperty('code');
    expect(answer(new DomainError('not_found', 'User not found', 'USER_NOT_FOUND'))).toMatchObject({
      status: 404,
      body: { detail: 'User not found', code: 'USER_NOT_FOUND' },
    });
    const { log } = answer(new DomainError('gone', 'This feedback link has expired'));
    expect(log.entries).toHaveLength(0);
  });

  it('keeps a Problem as it is and turns Nest exceptions into a detail string', () => {
    expect(answer(new Problem(HttpStatus.NOT_FOUND, 'User not found'))).toMatchObject({
      status: 404,
      body: { detail: 'User not found' },
    });
    expect(answer(new NotFoundException('Cannot GET /nothing'))).toMatchObject({
      status: 404,
      body: { detail: 'Cannot GET /nothing' },
    });
  });

  it('answers 503 when the event store is unavailable and 500 without internals for anything else', () => {
    expect(answer(new EventStoreUnavailableError('down'))).toMatchObject({ status: 503 });
    const crash = answer(new TypeError('secret internal detail at line 3'));
    expect(crash.status).toBe(500);
    expect(crash.body).toEqual({ detail: 'Internal server error' });
    expect(crash.log.entries.some((e) => e.level === 'error')).toBe(true);
  });

  it('maps body-parser failures to 400 and 413', () => {
    expect(answer({ type: 'entity.parse.failed', status: 400 })).toMatchObject({ status: 400 });
    expect(answer({ type: 'entity.too.large', status: 413 })).toMatchObject({ status: 413 });
  });
});
