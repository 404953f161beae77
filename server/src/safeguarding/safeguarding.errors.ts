import { HttpStatus } from '@nestjs/common';

export type SafeguardingErrorCode = 'not_found' | 'conflict' | 'invalid' | 'forbidden' | 'gone';

/** A refused safeguarding command; controllers turn it into `{ detail }` with the mapped status. */
export class SafeguardingError extends Error {
  constructor(
    readonly code: SafeguardingErrorCode,
    readonly detail: string,
  ) {
    super(detail);
  }
}

export function statusOf(code: SafeguardingErrorCode): HttpStatus {
  switch (code) {
    case 'not_found':
      return HttpStatus.NOT_FOUND;
    case 'conflict':
      return HttpStatus.CONFLICT;
    case 'invalid':
      return HttpStatus.UNPROCESSABLE_ENTITY;
    case 'forbidden':
      return HttpStatus.FORBIDDEN;
    case 'gone':
      return HttpStatus.GONE;
    default: {
      const never: never = code;
      throw new Error(`unmapped safeguarding error ${String(never)}`);
    }
  }
}
