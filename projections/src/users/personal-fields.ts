import type { PrefixStreamKind } from '../streams.js';
import type { UserEventType } from './user-events.js';

/**
 * Which fields of which events are personal data (decision 0014). The event store decorator
 * encrypts exactly these with the subject's key on append and decrypts them on every read; once the
 * key is destroyed they read as "[erased]". Paths are dotted (`changes.firstName`); only string
 * values are encrypted (null and absent stay as they are).
 */
export interface PersonalDataRule {
  /**
   * Streams of this kind (shared registry, decision 0044) carry personal data of one subject: the
   * stream's id. `user` is `user-{id}` only, not `user-availability-{id}` or `user-custom-fields`.
   */
  stream: PrefixStreamKind;
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
  stream: 'user',
  erasedEventType: 'UserPersonalDataErased',
  fields: USER_PERSONAL_FIELDS,
};

/** A student's one-page profile (`one-page-profile-{userId}`): free text about the child, same key. */
export const ONE_PAGE_PROFILE_TEXT_FIELDS = [
  'preferredName',
  'likedAboutMe',
  'importantToMe',
  'supportMethods',
  'hobbies',
  'careerAspirations',
  'notes',
] as const;

export const ONE_PAGE_PROFILE_PERSONAL_DATA_RULE: PersonalDataRule = {
  stream: 'onePageProfile',
  // Recorded in the user's own stream; here the destroyed key is what makes the text unreadable.
  erasedEventType: 'UserPersonalDataErased',
  fields: {
    OnePageProfileCreated: ONE_PAGE_PROFILE_TEXT_FIELDS,
    OnePageProfileUpdated: ONE_PAGE_PROFILE_TEXT_FIELDS.map((f) => `changes.${f}`),
  },
};

/** Every rule the event store decorator applies. */
export const PERSONAL_DATA_RULES: readonly PersonalDataRule[] = [
  USER_PERSONAL_DATA_RULE,
  ONE_PAGE_PROFILE_PERSONAL_DATA_RULE,
];

/**
 * Fields that name a person other than their stream's subject (decision 0061): the statutory "name"
 * of whoever marked or amended a register lives in the lesson's stream, whose subject is no one
 * person. Each rule encrypts `fields` with the key of the person whose id is at `subject` (the same
 * user key as their own stream), so erasing that person makes their name read "[erased]" everywhere
 * while the facts (marks, times, positions) stay. Ids that are not user ids (the system) are left.
 */
export interface PersonFieldRule {
  /** Dotted path of the person's user id. */
  subject: string;
  /** Dotted paths of the fields to encrypt with that person's key. */
  fields: readonly string[];
}

export const PERSON_FIELD_RULES: Readonly<Record<string, readonly PersonFieldRule[]>> = {
  AttendanceMarkRecorded: [{ subject: 'recordedBy.id', fields: ['recordedBy.name'] }],
  AttendanceMarkAmended: [{ subject: 'amendedBy.id', fields: ['amendedBy.name'] }],
  AbsenceReasonProvided: [{ subject: 'providedBy.id', fields: ['providedBy.name'] }],
  PlannedAbsenceRecorded: [{ subject: 'recordedBy.id', fields: ['recordedBy.name'] }],
};

/** The event types that carry personal fields under any rule above. */
export const PERSONAL_EVENT_TYPES: ReadonlySet<string> = new Set([
  ...PERSONAL_DATA_RULES.flatMap((rule) => Object.keys(rule.fields)),
  ...Object.keys(PERSON_FIELD_RULES),
]);

/**
 * Whether a projection may read personal fields (decision 0089): it handles an event type that carries
 * some and does not declare `readsPersonalData: false`. A rebuild of projections none of which does
 * reads the log without decrypting.
 */
export const readsPersonalData = (projection: {
  readonly handles: readonly string[];
  readonly readsPersonalData?: false;
}): boolean =>
  projection.readsPersonalData !== false && projection.handles.some((t) => PERSONAL_EVENT_TYPES.has(t));
