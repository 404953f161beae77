import { HttpException, HttpStatus } from '@nestjs/common';

/** An HTTP answer in the portal's error shape: `{ "detail": ... }` (FastAPI style, as the spec's errors are). */
export class Problem extends HttpException {
  constructor(status: HttpStatus, detail: string, extra?: Record<string, unknown>) {
    super({ detail, ...extra }, status);
  }
}

export const notFound = (detail: string) => new Problem(HttpStatus.NOT_FOUND, detail);
export const conflict = (detail: string) => new Problem(HttpStatus.CONFLICT, detail);
