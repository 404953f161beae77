import { ApiError } from './client';

/** 422 `errors[]` (field, message) → a map by field; other answers → undefined. */
export function fieldErrorsOf(error: unknown): Record<string, string> | undefined {
  if (!(error instanceof ApiError)) return undefined;
  const body = error.body;
  if (
    error.status === 422 &&
    typeof body === 'object' &&
    body !== null &&
    'errors' in body &&
    Array.isArray(body.errors)
  ) {
    const map: Record<string, string> = {};
    for (const item of body.errors as unknown[]) {
      if (typeof item !== 'object' || item === null) continue;
      const { field, message } = item as { field?: unknown; message?: unknown };
      if (typeof field === 'string' && typeof message === 'string' && !(field in map)) map[field] = message;
    }
    return map;
  }
  if (error.status === 422 && typeof error.detail === 'string') {
    // Problems raised by handlers name the field first: "permissions: ...".
    const match = /^([a-z_]+): (.+)$/.exec(error.detail);
    if (match) return { [match[1]!]: match[2]! };
  }
  return undefined;
}
