import { SetMetadata } from '@nestjs/common';

export const IS_PUBLIC = 'portal:isPublic';
export const REQUIRED_PERMISSIONS = 'portal:requiredPermissions';

/** Opts a route out of authentication. Every other route needs a valid session. */
export const Public = () => SetMetadata(IS_PUBLIC, true);

/**
 * Marks a route that any signed-in user may call (no named permission). Routes must say either this,
 * `@Public()`, or `@RequirePermissions(...)`: a test fails for a route that says none.
 */
export const AnyAuthenticatedUser = () => SetMetadata(REQUIRED_PERMISSIONS, []);

/** The user needs at least one of these permissions. */
export const RequirePermissions = (...anyOf: string[]) => SetMetadata(REQUIRED_PERMISSIONS, anyOf);
