import { ValidateBy, isISO8601, type ValidationOptions } from 'class-validator';

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** Whether `value` is a real day written yyyy-MM-dd (2026-02-29 and 2026-13-45 are not). */
export function isCalendarDate(value: unknown): value is string {
  if (typeof value !== 'string' || !DAY.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

/** yyyy-MM-dd, optionally with a time (minutes, seconds, up to microseconds) and an offset. */
const INSTANT = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}(:?\d{2})?)?)?$/;

/**
 * Whether `value` is an ISO 8601 date or date-time that exists, in a form both `Date` and PostgreSQL
 * read the same way (no week or ordinal dates, no bare years).
 */
export function isInstant(value: unknown): value is string {
  return (
    typeof value === 'string' &&
    INSTANT.test(value) &&
    isISO8601(value, { strict: true }) &&
    Number.isFinite(Date.parse(value))
  );
}

/**
 * A day as yyyy-MM-dd that exists on the calendar (docs/decisions/0038): `week_start=2026-13-45`
 * answers 422 naming the field, not a 500 or an empty list.
 */
export function IsCalendarDate(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isCalendarDate',
      validator: {
        validate: (value) => isCalendarDate(value),
        defaultMessage: () => '$property: is not a calendar date (yyyy-MM-dd)',
      },
    },
    options,
  );
}

/** An ISO 8601 date or date-time that exists (no 2026-02-30, no 25:00), else 422 naming the field. */
export function IsInstant(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isInstant',
      validator: {
        validate: (value) => isInstant(value),
        defaultMessage: () => '$property: is not an ISO 8601 date or date-time that exists',
      },
    },
    options,
  );
}
