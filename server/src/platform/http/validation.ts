import { HttpStatus, ValidationPipe, type ValidationError } from '@nestjs/common';
import { Problem } from './problem.js';

/** Flattens class-validator errors into `field: message` pairs (nested fields joined with dots). */
export function flattenValidationErrors(
  errors: ValidationError[],
  parent = '',
): { field: string; message: string }[] {
  return errors.flatMap((e) => {
    const field = parent ? `${parent}.${e.property}` : e.property;
    const own = Object.values(e.constraints ?? {}).map((message) => ({ field, message }));
    return [...own, ...flattenValidationErrors(e.children ?? [], field)];
  });
}

/**
 * Validation at the edge: unknown fields are rejected, payloads are transformed to their DTO classes,
 * and a failure answers 422 `{ detail: "field: message; ...", errors: [{ field, message }] }`.
 */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    stopAtFirstError: true,
    exceptionFactory: (errors) => {
      const flat = flattenValidationErrors(errors);
      return new Problem(
        HttpStatus.UNPROCESSABLE_ENTITY,
        flat.map((e) => (e.message.startsWith(e.field) ? e.message : `${e.field}: ${e.message}`)).join('; '),
        { errors: flat },
      );
    },
  });
}
