import {
  HttpStatus,
  Injectable,
  ValidationPipe,
  type ArgumentMetadata,
  type PipeTransform,
  type ValidationError,
} from '@nestjs/common';
import { isUUID } from 'class-validator';
import { Problem } from './problem.js';

/** One refused input: the field (dotted path) and what is wrong with it, in class-validator's wording. */
/** `@Transform(asArray)`: a query key given once or repeated (spec §7: repeated keys for arrays) as an array. */
export const asArray = ({ value }: { value: unknown }) =>
  value === undefined ? undefined : Array.isArray(value) ? (value as unknown[]) : [value];

export interface FieldError {
  field: string;
  message: string;
}

/** Keys that would reach an object's prototype machinery: refused like any unknown field. */
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);
/** Every control character (Unicode Cc: C0, DEL and C1). */
const CONTROL = /\p{Cc}/u;
/** Control characters other than tab, line feed and carriage return (allowed in body text). */
const CONTROL_BUT_WHITESPACE = /(?![\t\n\r])\p{Cc}/u;
/** How deep input is walked; JSON bodies are already limited to MAX_JSON_DEPTH by the body parser. */
const MAX_WALK_DEPTH = 64;

/**
 * Whether text holds a control character. `allowWhitespace`: tab, line feed and carriage return are
 * fine (free text in bodies and CSV cells); path and query values allow none.
 */
export const hasControlCharacters = (text: string, allowWhitespace: boolean): boolean =>
  (allowWhitespace ? CONTROL_BUT_WHITESPACE : CONTROL).test(text);

/** The 422 answer for refused input: `{ detail: "field: message; ...", errors: [{ field, message }] }`. */
export function invalidInput(errors: FieldError[]): Problem {
  return new Problem(
    HttpStatus.UNPROCESSABLE_ENTITY,
    errors.map((e) => (e.message.startsWith(e.field) ? e.message : `${e.field}: ${e.message}`)).join('; '),
    { errors },
  );
}

const printable = (key: string) => (CONTROL.test(key) ? JSON.stringify(key).slice(1, -1) : key);
const join = (parent: string, key: string) => (parent ? `${parent}.${printable(key)}` : printable(key));
const lastSegment = (field: string) => field.slice(field.lastIndexOf('.') + 1);

/**
 * What every piece of input must be, whatever its route and DTO (docs/decisions/0038): no key that
 * reaches the prototype (`__proto__`, `constructor`, `prototype`: JSON.parse makes them own keys, and
 * class-transformer would drop them silently), and no control character in a key or a string value
 * (PostgreSQL refuses NUL; the others corrupt logs, CSV exports and e-mails). Body text may hold tabs
 * and line breaks; path and query values may not.
 */
export function inputErrors(value: unknown, allowWhitespace: boolean, root = ''): FieldError[] {
  const errors: FieldError[] = [];
  const walk = (v: unknown, field: string, depth: number): void => {
    if (errors.length >= 20) return;
    if (typeof v === 'string') {
      if (hasControlCharacters(v, allowWhitespace))
        errors.push({
          field: field || 'body',
          message: `${lastSegment(field) || 'body'} must not contain control characters`,
        });
      return;
    }
    if (typeof v !== 'object' || v === null) return;
    if (depth > MAX_WALK_DEPTH) {
      errors.push({
        field: field || 'body',
        message: `${lastSegment(field) || 'body'} is nested too deeply`,
      });
      return;
    }
    if (Array.isArray(v)) {
      v.forEach((item, i) => walk(item, join(field, String(i)), depth + 1));
      return;
    }
    if (Buffer.isBuffer(v)) return;
    for (const key of Object.keys(v)) {
      const at = join(field, key);
      if (FORBIDDEN_KEYS.has(key)) errors.push({ field: at, message: `property ${key} should not exist` });
      else if (hasControlCharacters(key, false))
        errors.push({ field: at, message: `property ${printable(key)} should not exist` });
      else walk((v as Record<string, unknown>)[key], at, depth + 1);
    }
  };
  walk(value, root, 0);
  return errors;
}

/**
 * Constraints that say which type a value must have: when one of them failed, it is the one reported
 * (a number sent for a text field says "must be a string", not "must be shorter than 200 characters").
 */
const TYPE_CONSTRAINTS = [
  'isDefined',
  'isArray',
  'isObject',
  'nestedValidation',
  'isString',
  'isBoolean',
  'isInt',
  'isNumber',
  'isNumberString',
  'isEnum',
  'isIn',
  'isUuid',
  'isEmail',
  'isIso8601',
  'isCalendarDate',
  'isInstant',
  'isDateString',
  'isTimeZone',
];

/** The one message reported for a field: unknown, then missing, then the type expected, then the rest. */
function messageOf(e: ValidationError): string | undefined {
  const constraints = e.constraints ?? {};
  const names = Object.keys(constraints);
  if (names.length === 0) return undefined;
  if (constraints.whitelistValidation) return constraints.whitelistValidation;
  // An error with children had an object or list (the pipe strips its value): present, not missing.
  const hasChildren = (e.children?.length ?? 0) > 0;
  if (!hasChildren && (e.value === undefined || e.value === null)) return `${e.property} is required`;
  const type = TYPE_CONSTRAINTS.find((name) => constraints[name] !== undefined);
  return constraints[type ?? names[0]!];
}

/**
 * Flattens class-validator errors into `field: message` pairs (nested fields joined with dots), one
 * message per field chosen by `messageOf`.
 */
export function flattenValidationErrors(errors: ValidationError[], parent = ''): FieldError[] {
  return errors.flatMap((e) => {
    const field = parent ? `${parent}.${e.property}` : e.property;
    const message = messageOf(e);
    return [...(message ? [{ field, message }] : []), ...flattenValidationErrors(e.children ?? [], field)];
  });
}

/** The swagger metadata of a DTO property (where `nullable: true` says null is a value it takes). */
const API_MODEL_PROPERTIES = 'swagger/apiModelProperties';

/**
 * Null is accepted only where the DTO documents it (`@ApiProperty({ nullable: true })`): elsewhere
 * `@IsOptional()` would let a null through to handlers that expect an array or a string.
 */
function nullErrors(entity: unknown, parent = '', depth = 0): FieldError[] {
  if (typeof entity !== 'object' || entity === null || depth > MAX_WALK_DEPTH) return [];
  if (Array.isArray(entity))
    return entity.flatMap((item, i) => nullErrors(item, join(parent, String(i)), depth + 1));
  const proto = Object.getPrototypeOf(entity) as object | null;
  if (proto === null || proto === Object.prototype) return [];
  return Object.entries(entity).flatMap(([key, value]) => {
    const field = join(parent, key);
    if (value === null) {
      const doc = Reflect.getMetadata(API_MODEL_PROPERTIES, proto, key) as { nullable?: boolean } | undefined;
      return doc?.nullable ? [] : [{ field, message: `${key} must not be null` }];
    }
    return nullErrors(value, field, depth + 1);
  });
}

const isDtoClass = (metatype: unknown): boolean =>
  typeof metatype === 'function' &&
  ![String, Boolean, Number, Array, Object, Buffer, Date].includes(metatype as never);

/**
 * Validation at the edge (docs/decisions/0006, 0038). Before the DTO: every body, query and path
 * value passes `inputErrors`, and a DTO body must be a JSON object. Then class-validator: unknown
 * fields are rejected, payloads are transformed to their DTO classes, one message per field
 * (`messageOf`), and null only where documented. A failure answers 422
 * `{ detail: "field: message; ...", errors: [{ field, message }] }`.
 */
export class PortalValidationPipe extends ValidationPipe {
  constructor() {
    super({
      whitelist: true,
      forbidNonWhitelisted: true,
      transform: true,
      exceptionFactory: (errors) => invalidInput(flattenValidationErrors(errors)),
    });
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type === 'body' || metadata.type === 'query' || metadata.type === 'param') {
      const root = metadata.type === 'param' ? (metadata.data ?? '') : '';
      const errors = inputErrors(value, metadata.type === 'body', root);
      if (errors.length > 0) throw invalidInput(errors);
      if (metadata.type === 'body' && Array.isArray(value) && isDtoClass(metadata.metatype))
        throw invalidInput([{ field: 'body', message: 'body must be a JSON object' }]);
    }
    const result: unknown = await super.transform(value, metadata);
    if (metadata.type === 'body' && isDtoClass(metadata.metatype)) {
      const errors = nullErrors(result);
      if (errors.length > 0) throw invalidInput(errors);
    }
    return result;
  }
}

export function createValidationPipe(): ValidationPipe {
  return new PortalValidationPipe();
}

/**
 * A path parameter that is a UUID (`@Param('id', UuidPipe)`). Every route answers a malformed one
 * the same way: 422 `{ detail: "id must be a UUID" }` (docs/decisions/0038), as a DTO's `@IsUUID()`
 * field does, before any lookup.
 */
@Injectable()
export class UuidPipe implements PipeTransform<unknown, string> {
  transform(value: unknown, metadata: ArgumentMetadata): string {
    const name = metadata.data ?? 'id';
    if (typeof value !== 'string' || !isUUID(value))
      throw invalidInput([{ field: name, message: `${name} must be a UUID` }]);
    return value;
  }
}
