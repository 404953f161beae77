import { createResource } from '../../shared/api/resource';
import type { ApiSchema } from '../../shared/api/types';

/** The server's OnePageProfileView (generated from the API document). */
export type OnePageProfile = ApiSchema<'OnePageProfileView'>;

export type OnePageProfileChanges = Partial<
  Omit<OnePageProfile, 'id' | 'user_id' | 'created_at' | 'updated_at' | 'user' | 'year_group_id'>
>;

/**
 * Profiles under the `one-page-profiles` query root (live: `one-page-profile-{userId}` streams).
 * Created with a student (server side), so the client only lists, reads and updates them.
 */
export const onePageProfiles = createResource<OnePageProfile, OnePageProfileChanges>({
  root: 'one-page-profiles',
  path: '/api/v1/one-page-profiles/',
});
