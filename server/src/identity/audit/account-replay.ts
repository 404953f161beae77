import type { UserProfileChanges } from '@portal/projections';
import { fold, type ExistingUser } from '../user.decider.js';
import type { UserEvent } from '../user.events.js';

export interface ReplayedAccount extends Omit<ExistingUser, 'exists'> {
  login: string;
  email: string;
  firstName: string;
  lastName: string;
  timezone: string | null;
  notes: string | null;
}

/**
 * The account as it was after `events` (a prefix of the user's stream): the decider's own fold gives
 * status and permissions, and the profile fields are folded alongside.
 */
export function replayAccount(events: readonly UserEvent[]): ReplayedAccount {
  const state = fold(events);
  if (!state.exists) throw new Error('replayAccount needs the stream to start with UserCreated');
  const { exists: _exists, ...rest } = state;
  const created = events.find((e) => e.type === 'UserCreated')!.data;
  const profile: Required<Pick<UserProfileChanges, 'firstName' | 'lastName' | 'email'>> & {
    timezone: string | null;
    notes: string | null;
  } = {
    firstName: created.firstName,
    lastName: created.lastName,
    email: created.email,
    timezone: created.timezone ?? null,
    notes: created.notes ?? null,
  };
  for (const e of events) {
    if (e.type !== 'UserProfileUpdated') continue;
    const c = e.data.changes;
    if (c.firstName !== undefined) profile.firstName = c.firstName;
    if (c.lastName !== undefined) profile.lastName = c.lastName;
    if (c.email !== undefined) profile.email = c.email;
    if (c.timezone !== undefined) profile.timezone = c.timezone;
    if (c.notes !== undefined) profile.notes = c.notes;
  }
  return { ...rest, login: created.login, ...profile };
}
