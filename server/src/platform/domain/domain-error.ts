/**
 * The one refusal type of the write side (docs/decisions/0040-one-domain-error.md). Deciders, rules and
 * other pure modules throw it; they know nothing of HTTP. `AllExceptionsFilter` maps `kind` to a status
 * in one exhaustive switch and answers `{ detail }`, plus `code` when the error has one.
 */
export type ErrorKind =
  /** The command is malformed for the rules (422). */
  | 'invalid'
  /** What the command addresses does not exist, or may not be seen (404). */
  | 'not_found'
  /** The command does not fit the current state (409). */
  | 'conflict'
  /** The caller may not do this (403). */
  | 'forbidden'
  /** It existed but can no longer be used: a used or revoked link, a closed window (410). */
  | 'gone'
  /** The input is larger than the rules allow, e.g. too many rows in an import file (413). */
  | 'too_large';

export const ERROR_KINDS: readonly ErrorKind[] = [
  'invalid',
  'not_found',
  'conflict',
  'forbidden',
  'gone',
  'too_large',
];

export class DomainError extends Error {
  override readonly name: string = 'DomainError';
  constructor(
    readonly kind: ErrorKind,
    /** Shown to the user as is: say what is wrong, and for input which field (`field: reason`). */
    readonly detail: string,
    /** A stable, machine-readable reason clients may branch on (sent as `code`). */
    readonly code?: string,
  ) {
    super(detail);
  }
}

export const isDomainError = (e: unknown, kind?: ErrorKind): e is DomainError =>
  e instanceof DomainError && (kind === undefined || e.kind === kind);

/** For decider tests: the kind of the DomainError `run` throws, or undefined when it throws none. */
export function thrownKind(run: () => unknown): ErrorKind | undefined {
  try {
    run();
  } catch (e) {
    if (e instanceof DomainError) return e.kind;
    throw e;
  }
  return undefined;
}
