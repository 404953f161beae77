import type { UserCreatedData } from '@portal/projections';

/** Events of a user's stream (`user-{id}`). Past-tense facts; the identity issue adds the rest. */
export type UserEvent = { type: 'UserCreated'; data: UserCreatedData };

export const userStream = (userId: string) => `user-${userId}`;

/** Marker permissions (spec §3): they give the user's type. */
export const MARKER_PERMISSIONS = {
  admin: 'USER_IS_ADMIN',
  teacher: 'USER_IS_TEACHER',
  student: 'USER_IS_STUDENT',
  partner: 'USER_IS_PARTNER',
} as const;
