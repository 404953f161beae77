import type { UserEventType } from './user-events.js';

/**
 * Which fields of which events are personal data (decision 0014). The event store decorator
 * encrypts exactly these with the subject's key on append and decrypts them on every read; once the
 * key is destroyed they read as "[erased]". Paths are dotted (`changes.firstName`); only string
 * values are encrypted (null and absent stay as they are).
 */
export interface PersonalDataRule {
  /** Streams of this category carry personal data of one subject: the rest of the stream name. */
  streamPrefix: string;
  /** The event that records the destruction of the subject's key. */
  erasedEventType: string;
  fields: Readonly<Record<string, readonly string[]>>;
}

const CONTACT = ['name', 'email', 'phone', 'relationship', 'notes'] as const;

export const USER_PERSONAL_FIELDS: Partial<Record<UserEventType, readonly string[]>> = {
  UserCreated: ['login', 'email', 'firstName', 'lastName', 'notes'],
  UserProfileUpdated: ['changes.firstName', 'changes.lastName', 'changes.email', 'changes.notes'],
  UserContactAdded: CONTACT,
  UserContactUpdated: CONTACT,
  QualityIssueSet: ['reason'],
  StudentFileAdded: ['fileName'],
};

export const USER_PERSONAL_DATA_RULE: PersonalDataRule = {
  streamPrefix: 'user-',
  erasedEventType: 'UserPersonalDataErased',
  fields: USER_PERSONAL_FIELDS,
};
