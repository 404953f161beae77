import {
  absentIds,
  defineProjection,
  applyFolding,
  guardedSet,
  insertRows,
  NEW_ROWS,
  jsonbSet,
  type ProjectionEvent,
  type ProjectionTx,
} from '../projection.js';
import { ERASED, type UserEvent } from '../users/user-events.js';

type ErasedEvent = Extract<UserEvent, { type: 'UserPersonalDataErased' }>;
type Event = ProjectionEvent & (OnePageProfileEvent | ErasedEvent);

/**
 * A student's one-page profile (spec §3), one per student, in the stream `one-page-profile-{userId}`.
 * Fields are the spec's; `progress` (0 to 100) is how complete the profile is. A profile counts as
 * present for a user only with an id and progress above 0.
 */
export interface OnePageProfileFields {
  yearGroupId: string | null;
  yearGroup: string | null;
  preferredName: string | null;
  age: number | null;
  likedAboutMe: string | null;
  importantToMe: string | null;
  supportMethods: string | null;
  favouriteSubjects: string[];
  leastFavouriteSubjects: string[];
  hobbies: string | null;
  careerAspirations: string | null;
  notes: string | null;
  progress: number;
}

export interface OnePageProfileCreatedData extends OnePageProfileFields {
  profileId: string;
  userId: string;
}

export interface OnePageProfileUpdatedData {
  profileId: string;
  userId: string;
  changes: Partial<OnePageProfileFields>;
}

export type OnePageProfileEvent =
  | { type: 'OnePageProfileCreated'; data: OnePageProfileCreatedData }
  | { type: 'OnePageProfileUpdated'; data: OnePageProfileUpdatedData };

export const ONE_PAGE_PROFILE_EVENT_TYPES = ['OnePageProfileCreated', 'OnePageProfileUpdated'] as const;

export const onePageProfileStream = (userId: string) => `one-page-profile-${userId}`;

export interface OnePageProfileRow {
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
  created_at: Date;
  updated_at: Date;
  version: string;
}

const COLUMNS: Record<keyof OnePageProfileFields, string> = {
  yearGroupId: 'year_group_id',
  yearGroup: 'year_group',
  preferredName: 'preferred_name',
  age: 'age',
  likedAboutMe: 'liked_about_me',
  importantToMe: 'important_to_me',
  supportMethods: 'support_methods',
  favouriteSubjects: 'favourite_subjects',
  leastFavouriteSubjects: 'least_favourite_subjects',
  hobbies: 'hobbies',
  careerAspirations: 'career_aspirations',
  notes: 'notes',
  progress: 'progress',
};
const JSON_COLUMNS = new Set(['favourite_subjects', 'least_favourite_subjects']);
/** The free-text columns an erasure overwrites (decision 0014). */
const ERASED_COLUMNS = [
  'preferred_name',
  'liked_about_me',
  'important_to_me',
  'support_methods',
  'hobbies',
  'career_aspirations',
  'notes',
] as const;
const sqlValue = (column: string, value: unknown) =>
  JSON_COLUMNS.has(column) ? JSON.stringify(value) : value;

export const onePageProfilesProjection = defineProjection<OnePageProfileEvent | ErasedEvent>()({
  name: 'one_page_profiles',
  version: 2,
  tables: ['rm_one_page_profiles'],
  schema: [
    `CREATE TABLE IF NOT EXISTS rm_one_page_profiles (
       id                        uuid PRIMARY KEY,
       user_id                   uuid NOT NULL UNIQUE,
       year_group_id             uuid,
       year_group                text,
       preferred_name            text,
       age                       integer,
       liked_about_me            text,
       important_to_me           text,
       support_methods           text,
       favourite_subjects        jsonb NOT NULL,
       least_favourite_subjects  jsonb NOT NULL,
       hobbies                   text,
       career_aspirations        text,
       notes                     text,
       progress                  integer NOT NULL,
       created_at                timestamptz NOT NULL,
       updated_at                timestamptz NOT NULL,
       version                   bigint NOT NULL
     )`,
  ],
  handles: [...ONE_PAGE_PROFILE_EVENT_TYPES, 'UserPersonalDataErased'],
  /** A batch folds the profiles it creates in memory and writes each row once (decision 0089). */
  applyBatch: (events, tx) =>
    applyFolding(events, tx, applyProfileEvent, (batch, t) => ProfileFold.start(batch, t)),
  apply: (e, tx) => applyProfileEvent(e, tx),
});

async function applyProfileEvent(e: Event, tx: ProjectionTx): Promise<void> {
  const revision = e.revision.toString();
  const at = e.metadata.occurredAt;
  if (e.type === 'UserPersonalDataErased') {
    // Decision 0014: the student's key is gone; no plaintext stays in this read model either.
    const { userId } = e.data;
    const text = ERASED_COLUMNS.map((c) => `${c} = CASE WHEN ${c} IS NULL THEN NULL ELSE $2 END`);
    await tx.query(`UPDATE rm_one_page_profiles SET ${text.join(', ')}, updated_at = $3 WHERE user_id = $1`, [
      userId,
      ERASED,
      at,
    ]);
    return;
  }
  if (e.type === 'OnePageProfileCreated') {
    const d = e.data;
    const columns = Object.values(COLUMNS);
    const values = (Object.keys(COLUMNS) as (keyof OnePageProfileFields)[]).map((k) =>
      sqlValue(COLUMNS[k], d[k]),
    );
    const placeholders = columns.map((c, i) => (JSON_COLUMNS.has(c) ? `$${i + 5}::jsonb` : `$${i + 5}`));
    await tx.query(
      `INSERT INTO rm_one_page_profiles (id, user_id, created_at, version, updated_at, ${columns.join(', ')})
       VALUES ($1, $2, $3, $4::bigint, $3, ${placeholders.join(', ')}) ON CONFLICT (id) DO NOTHING`,
      [d.profileId, d.userId, at, revision, ...values],
    );
    return;
  }
  const set: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(e.data.changes)) {
    const column = COLUMNS[key as keyof OnePageProfileFields];
    if (!column || value === undefined) continue;
    set[column] = JSON_COLUMNS.has(column) ? jsonbSet(value) : value;
  }
  await guardedSet(tx, 'rm_one_page_profiles', e.data.profileId, revision, { ...set, updated_at: at });
}

type FoldedProfile = Omit<OnePageProfileRow, 'created_at' | 'updated_at' | 'version'> & {
  created_at: string;
  updated_at: string;
  version: bigint;
};

const ROW_TYPES = {
  id: 'uuid',
  user_id: 'uuid',
  year_group_id: 'uuid',
  year_group: 'text',
  preferred_name: 'text',
  age: 'integer',
  liked_about_me: 'text',
  important_to_me: 'text',
  support_methods: 'text',
  favourite_subjects: 'jsonb',
  least_favourite_subjects: 'jsonb',
  hobbies: 'text',
  career_aspirations: 'text',
  notes: 'text',
  progress: 'integer',
  created_at: 'timestamptz',
  updated_at: 'timestamptz',
  version: 'bigint',
} as const satisfies Record<keyof OnePageProfileRow, string>;

/**
 * The profiles a batch creates, folded in memory (decision 0089, like the groups of decision 0088): a
 * profile whose row did not exist when the batch began is created and changed in memory by the batch's
 * events about it, with the rules and version guard of `applyProfileEvent`, and written once when the
 * batch ends. An erasure is applied to those profiles in memory and to the others by SQL.
 */
class ProfileFold {
  private readonly profiles = new Map<string, FoldedProfile>();

  private constructor(private readonly absent: ReadonlySet<string>) {}

  static async start(events: readonly Event[], tx: ProjectionTx): Promise<ProfileFold> {
    const created = events.flatMap((e) => (e.type === 'OnePageProfileCreated' ? [e.data.profileId] : []));
    return new ProfileFold(await absentIds(tx, 'rm_one_page_profiles', created));
  }

  /** Applies `e` in memory when it is about a profile this fold holds; false leaves it to SQL. */
  takes(e: Event): boolean {
    const at = e.metadata.occurredAt;
    if (e.type === 'UserPersonalDataErased') {
      const user = e.data.userId.toLowerCase();
      for (const p of this.profiles.values())
        if (p.user_id === user) {
          for (const c of ERASED_COLUMNS) if (p[c] !== null) p[c] = ERASED;
          p.updated_at = at;
        }
      return false; // and by SQL, for the profiles that have rows
    }
    const id = e.data.profileId.toLowerCase();
    if (!this.absent.has(id)) return false;
    const profile = this.profiles.get(id);
    if (e.type === 'OnePageProfileCreated') {
      // A second creation keeps the row (INSERT ... ON CONFLICT DO NOTHING).
      if (!profile) {
        const row: Record<string, unknown> = { id, user_id: e.data.userId.toLowerCase() };
        for (const [key, column] of Object.entries(COLUMNS))
          row[column] = e.data[key as keyof OnePageProfileFields];
        this.profiles.set(id, {
          ...row,
          created_at: at,
          updated_at: at,
          version: e.revision,
        } as FoldedProfile);
      }
      return true;
    }
    // Before its creation, or older than the row: the SQL guard would change nothing either.
    if (!profile || profile.version >= e.revision) return true;
    const row = profile as unknown as Record<string, unknown>;
    for (const [key, value] of Object.entries(e.data.changes)) {
      const column = COLUMNS[key as keyof OnePageProfileFields];
      if (column && value !== undefined) row[column] = value;
    }
    profile.updated_at = at;
    profile.version = e.revision;
    return true;
  }

  /** Writes the folded profiles: one statement. */
  async write(tx: ProjectionTx): Promise<void> {
    await insertRows(
      tx,
      'rm_one_page_profiles',
      ROW_TYPES,
      [...this.profiles.values()].map((p) => ({
        ...p,
        favourite_subjects: JSON.stringify(p.favourite_subjects),
        least_favourite_subjects: JSON.stringify(p.least_favourite_subjects),
        version: p.version.toString(),
      })),
      NEW_ROWS,
    );
  }
}
