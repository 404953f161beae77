import { createResource } from '../../shared/api/resource';

export interface OnePageProfile {
  id: string;
  user_id: string;
  year_group_id: string | null;
  year_group: string | null;
  preferred_name: string | null;
  age: number | null;
  liked_about_me: string | null;
  important_to_me: string | null;
  support_methods: string | null;
  favourite_subjects: string[];
  least_favourite_subjects: string[];
  hobbies: string | null;
  career_aspirations: string | null;
  notes: string | null;
  progress: number;
  created_at: string;
  updated_at: string;
  user: { id: string; first_name: string; last_name: string; full_name: string; customer_id: string | null };
}

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
