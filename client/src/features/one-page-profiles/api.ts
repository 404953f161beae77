import { apiRequest } from '../../shared/api/client';
import type { Page, Written } from '../../shared/api/types';

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

export const onePageProfilesApi = {
  list: (page: number, size: number, query: string) =>
    apiRequest<Page<OnePageProfile>>('/api/v1/one-page-profiles/', {
      query: { page, size, query: query || undefined, name: query || undefined },
    }),
  get: (id: string) => apiRequest<OnePageProfile>(`/api/v1/one-page-profiles/${encodeURIComponent(id)}`),
  update: (id: string, changes: OnePageProfileChanges) =>
    apiRequest<Written>(`/api/v1/one-page-profiles/${encodeURIComponent(id)}`, {
      method: 'PUT',
      json: changes,
    }),
};
