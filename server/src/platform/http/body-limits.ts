import { HttpStatus, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { IncomingMessage } from 'node:http';
import type { Request } from 'express';
import { Problem } from './problem.js';

/** Deepest nesting of objects and arrays a JSON body may have (the portal's DTOs use fewer than 5). */
export const MAX_JSON_DEPTH = 32;

/** What the body parser reports for a body nested deeper than MAX_JSON_DEPTH (answered 400). */
export class JsonTooDeepError extends Error {
  readonly status = HttpStatus.BAD_REQUEST;
  readonly statusCode = HttpStatus.BAD_REQUEST;
  readonly type = 'entity.too.deep';
  readonly expose = true;
  constructor(max: number) {
    super(`body: JSON nested deeper than ${max} levels`);
  }
}

const OPEN_OBJECT = 0x7b; // {
const OPEN_ARRAY = 0x5b; // [
const CLOSE_OBJECT = 0x7d; // }
const CLOSE_ARRAY = 0x5d; // ]
const QUOTE = 0x22; // "
const BACKSLASH = 0x5c; // \

/**
 * Whether JSON text nests objects and arrays deeper than `max`, found by one pass over the text
 * (brackets inside strings do not count), before anything parses or walks it recursively.
 */
export function jsonDeeperThan(text: Buffer | string, max: number): boolean {
  const at = typeof text === 'string' ? (i: number) => text.charCodeAt(i) : (i: number) => text[i]!;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = at(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) inString = true;
    else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      if (++depth > max) return true;
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) depth--;
  }
  return false;
}

/**
 * The JSON body parser's `verify` hook: refuses a body nested deeper than `max` before JSON.parse
 * builds it, on every route (anonymous ones too, where validation has not run yet). UTF-8 bodies are
 * scanned as bytes (a multi-byte character never holds a bracket or quote byte); others are decoded.
 */
export function verifyJsonDepth(max = MAX_JSON_DEPTH) {
  return (_req: IncomingMessage, _res: unknown, body: Buffer, encoding: string | null): void => {
    const utf8 = !encoding || /^utf-?8$/i.test(encoding);
    const text = utf8 ? body : new TextDecoder(encoding).decode(body);
    if (jsonDeeperThan(text, max)) throw new JsonTooDeepError(max);
  };
}

/** The swagger metadata key `@ApiConsumes(...)` writes: the media types a route declares it takes. */
const API_CONSUMES = 'swagger/apiConsumes';
const METHODS_WITH_BODY = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Whether a request carries a body (a length above zero, or chunked). */
function hasBody(req: Request): boolean {
  if (req.headers['transfer-encoding'] !== undefined) return true;
  const length = Number(req.headers['content-length'] ?? 0);
  return Number.isFinite(length) && length > 0;
}

/**
 * 415 for a body in a media type the route does not take (docs/decisions/0038). A route takes
 * application/json unless it declares otherwise with `@ApiConsumes(...)` (the OpenAPI document says
 * the same): the sign-in form is urlencoded, the CSV imports and the storage upload multipart. Without
 * this a text/plain body would reach the handler as an empty object and could answer 200.
 */
@Injectable()
export class ContentTypeGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    if (context.getType() !== 'http') return true;
    const req = context.switchToHttp().getRequest<Request>();
    if (!METHODS_WITH_BODY.has(req.method) || !hasBody(req)) return true;
    const consumes = this.reflector.getAllAndOverride<string[] | undefined>(API_CONSUMES, [
      context.getHandler(),
      context.getClass(),
    ]) ?? ['application/json'];
    if (req.is(consumes)) return true;
    const sent = req.headers['content-type']?.split(';')[0]?.trim() || 'none';
    throw new Problem(
      HttpStatus.UNSUPPORTED_MEDIA_TYPE,
      `Content-Type ${sent} is not accepted here; send ${consumes.join(' or ')}`,
    );
  }
}
