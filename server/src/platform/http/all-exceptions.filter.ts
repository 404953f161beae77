import { Catch, HttpException, HttpStatus, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { Request, Response } from 'express';
import { DomainError, type ErrorKind } from '../domain/domain-error.js';
import { ConcurrencyError, EventStoreUnavailableError } from '../event-store/errors.js';
import type { Log } from '../logging/logger.js';

interface BodyParserError {
  type?: string;
  status?: number;
  message?: string;
}

/** The one place a domain refusal becomes an HTTP status (docs/decisions/0040-one-domain-error.md). */
export function statusOfKind(kind: ErrorKind): HttpStatus {
  switch (kind) {
    case 'invalid':
      return HttpStatus.UNPROCESSABLE_ENTITY;
    case 'not_found':
      return HttpStatus.NOT_FOUND;
    case 'conflict':
      return HttpStatus.CONFLICT;
    case 'forbidden':
      return HttpStatus.FORBIDDEN;
    case 'gone':
      return HttpStatus.GONE;
    case 'too_large':
      return HttpStatus.PAYLOAD_TOO_LARGE;
    default: {
      const unmapped: never = kind;
      throw new Error(`unmapped domain error kind ${String(unmapped)}`);
    }
  }
}

/**
 * Every error leaves the server as `{ "detail": ... }` with a fitting status. Driver errors never leak:
 * anything unexpected is logged with the request and answered with a plain 500.
 */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  constructor(private readonly log: Log) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const res = http.getResponse<Response>();
    const req = http.getRequest<Request>();
    if (res.headersSent) return;
    const [status, body] = this.describe(exception, req);
    res.status(status).json(body);
  }

  private describe(exception: unknown, req: Request): [number, Record<string, unknown>] {
    if (exception instanceof DomainError) {
      const { kind, detail, code } = exception;
      return [statusOfKind(kind), code === undefined ? { detail } : { detail, code }];
    }
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      const response = exception.getResponse();
      if (typeof response === 'object' && response !== null && 'detail' in response) {
        return [status, response];
      }
      const message: unknown =
        typeof response === 'string' ? response : (response as { message?: unknown }).message;
      const detail = Array.isArray(message)
        ? message.map(String).join('; ')
        : typeof message === 'string'
          ? message
          : exception.message;
      return [status, { detail }];
    }
    if (exception instanceof ConcurrencyError) {
      return [
        HttpStatus.CONFLICT,
        { detail: 'The record was changed by someone else in the meantime; reload and try again.' },
      ];
    }
    if (exception instanceof EventStoreUnavailableError) {
      this.log.error({ err: exception }, 'event store unavailable');
      return [
        HttpStatus.SERVICE_UNAVAILABLE,
        { detail: 'The event store is unavailable; try again shortly.' },
      ];
    }
    const parserError = exception as BodyParserError;
    if (parserError?.type === 'entity.parse.failed') {
      return [HttpStatus.BAD_REQUEST, { detail: 'Malformed request body: the JSON could not be parsed.' }];
    }
    if (parserError?.type === 'entity.too.large') {
      return [HttpStatus.PAYLOAD_TOO_LARGE, { detail: 'The request body is too large.' }];
    }
    if (typeof parserError?.status === 'number' && parserError.status >= 400 && parserError.status < 500) {
      return [parserError.status, { detail: parserError.message ?? 'Bad request' }];
    }
    this.log.error({ err: exception, method: req.method, url: req.url }, 'unhandled error');
    return [HttpStatus.INTERNAL_SERVER_ERROR, { detail: 'Internal server error' }];
  }
}
