import {
  defineProjection,
  FOLD_FROM,
  guardedSet,
  jsonbRemoveByIds,
  jsonbUpsertById,
  jsonbSet,
  queryIndex,
  sqlSet,
  type ProjectionEvent,
  type ProjectionTx,
} from '../projection.js';
import {
  ERASED,
  USER_EVENT_TYPES,
  USER_TYPE_LABELS,
  type ContactFields,
  type UserCreatedData,
  type UserEvent,
  type UserProfileChanges,
} from './user-events.js';
import { UserFold } from './user-fold.js';

export * from './user-events.js';

export interface UserContactRow extends ContactFields {
  id: string;
}

export interface StudentFileRow {
  id: string;
  file_path: string;
  file_name: string;
  file_type: string;
  content_type: string;
  size: number;
  uploaded_at: string;
  uploaded_by: string | null;
}

export interface UserRow {
  id: string;
  login: string;
  email: string;
  first_name: string;
  last_name: string;
  /** Derived: first and last name. */
  full_name: string;
  user_type: string;
  /** Derived from the marker permission: Administrator, Teacher, Customer, Student. */
  type_label: string;
  customer_id: string | null;
  /** Not stored here: joined from the customers read model by the server's queries. */
  customer_name?: string | null;
  /** Joined by USER_COLUMNS: a student's year group from their one-page profile. */
  year_group?: string | null;
  /** Not stored here: joined from the one-page profiles read model (present only with progress > 0). */
  one_page_profile?: { id: string; progress: number } | null;
  customer_type: string | null;
  network_id: string | null;
  active_network_id: string | null;
  timezone: string | null;
  notes: string | null;
  permissions: string[];
  has_access: boolean;
  is_blocked: boolean;
  scheduled_for_deactivation: Date | null;
  has_quality_issue: boolean;
  quality_issue_reason: string | null;
  /** Staff job title (decision 0056). */
  position?: string | null;
  contacts: UserContactRow[];
  /** Derived: lower-case first name, last name, login and e-mail (the list's text search). */
  search_text?: string;
  /** Derived: deactivated (no access), inactive (blocked), active. */
  status: 'active' | 'inactive' | 'deactivated';
  last_action: Date | null;
  /** Decision 0014: the personal columns hold "[erased]" (the login "[erased]-{id}", to stay unique). */
  personal_data_erased: boolean;
  /** Decision 0015: soft-deleted users are left out of every query but the audit. */
  deleted_at: Date | null;
  /** Students' registered files (spec §3 student_profile.files), oldest first. */
  files: StudentFileRow[];
  /** Created without a password and not yet activated through the mailed link. */
  awaiting_activation: boolean;
  /** yyyy-MM-dd */
  birth_date: string | null;
  receive_weekly_summary_reports: boolean;
  requested_number_of_lessons_per_week: number | null;
  /** Verified address for notifications (null: the account e-mail is used). */
  notification_email: string | null;
  /** Asked for, waiting for verification through the mailed link. */
  pending_notification_email: string | null;
  /** Custom field values by field id. */
  custom_fields: Record<string, string | number>;
  created_at: Date;
  updated_at: Date;
  version: string;
}

const PROFILE_COLUMNS: Record<Exclude<keyof UserProfileChanges, 'customFields'>, string> = {
  firstName: 'first_name',
  lastName: 'last_name',
  email: 'email',
  timezone: 'timezone',
  notes: 'notes',
  customerId: 'customer_id',
  customerType: 'customer_type',
  networkId: 'network_id',
  position: 'position',
};

/**
 * Applies `set` to the user row, once (`guardedUpdate`): the row's `version` (the stream revision last
 * applied) makes replaying an event a no-op. Every change also stamps `updated_at`.
 */
async function update(tx: ProjectionTx, event: ProjectionEvent, set: Record<string, unknown> = {}) {
  const { userId } = event.data as { userId: string };
  await guardedSet(tx, 'rm_users', userId, event.revision, {
    ...set,
    updated_at: event.metadata.occurredAt,
  });
}

/** A text column erased only where it held something (null stays null). */
const erasedIfSet = (column: string) =>
  sqlSet((bind) => `CASE WHEN ${column} IS NULL THEN NULL ELSE ${bind(ERASED)}::text END`);

/** The login column of an erased user: unique per user, recognisably erased. */
export const erasedLogin = (userId: string) => `${ERASED}-${userId}`;
const erasedOrNull = (value: string | null) => (value === null ? null : ERASED);

export const usersProjection = defineProjection({
  name: 'users',
  version: 5,
  tables: ['rm_users'],
  schema: [
    `CREATE TABLE IF NOT EXISTS rm_users (
       id                         uuid PRIMARY KEY,
       login                      text NOT NULL UNIQUE,
       email                      text NOT NULL,
       first_name                 text NOT NULL,
       last_name                  text NOT NULL,
       full_name                  text GENERATED ALWAYS AS (btrim(first_name || ' ' || last_name)) STORED,
       user_type                  text NOT NULL,
       type_label                 text NOT NULL,
       customer_id                uuid,
       customer_type              text,
       network_id                 uuid,
       active_network_id          uuid,
       timezone                   text,
       notes                      text,
       permissions                jsonb NOT NULL DEFAULT '[]',
       has_access                 boolean NOT NULL DEFAULT true,
       is_blocked                 boolean NOT NULL DEFAULT false,
       scheduled_for_deactivation timestamptz,
       has_quality_issue          boolean NOT NULL DEFAULT false,
       quality_issue_reason       text,
       contacts                   jsonb NOT NULL DEFAULT '[]',
       status                     text GENERATED ALWAYS AS (
                                    CASE WHEN NOT has_access THEN 'deactivated'
                                         WHEN is_blocked THEN 'inactive'
                                         ELSE 'active' END) STORED,
       last_action                timestamptz,
       personal_data_erased       boolean NOT NULL DEFAULT false,
       deleted_at                 timestamptz,
       files                      jsonb NOT NULL DEFAULT '[]',
       awaiting_activation        boolean NOT NULL DEFAULT false,
       birth_date                 text,
       receive_weekly_summary_reports boolean NOT NULL DEFAULT false,
       requested_number_of_lessons_per_week int,
       notification_email         text,
       pending_notification_email text,
       custom_fields              jsonb NOT NULL DEFAULT '{}',
       position                   text,
       created_at                 timestamptz NOT NULL,
       updated_at                 timestamptz NOT NULL,
       version                    bigint NOT NULL
     )`,
    queryIndex(`CREATE INDEX IF NOT EXISTS rm_users_customer ON rm_users (customer_id)`),
    queryIndex(`CREATE INDEX IF NOT EXISTS rm_users_due_deactivation ON rm_users (scheduled_for_deactivation)
       WHERE scheduled_for_deactivation IS NOT NULL`),
    // The user list (GET /users/, exports): status and type filters, the usual sorts with the id
    // tie-break (also the exports' keyset), and trigram indexes for the text search (ILIKE '%text%').
    queryIndex(`CREATE INDEX IF NOT EXISTS rm_users_status ON rm_users (status, user_type)`),
    queryIndex(`CREATE INDEX IF NOT EXISTS rm_users_full_name ON rm_users (full_name, id)`),
    queryIndex(`CREATE INDEX IF NOT EXISTS rm_users_last_name ON rm_users (last_name, id)`),
    queryIndex(`CREATE INDEX IF NOT EXISTS rm_users_created_at ON rm_users (created_at, id)`),
    // What the list's text search matches: name, login and e-mail in lower case, one column, so that
    // one trigram index serves `search_text LIKE '%text%'` (cheaper than three ILIKEs even unindexed).
    `ALTER TABLE rm_users ADD COLUMN IF NOT EXISTS search_text text GENERATED ALWAYS AS (
       lower(first_name || ' ' || last_name || ' ' || login || ' ' || email)) STORED`,
    // pg_trgm is a trusted extension (PostgreSQL 13+); where it cannot be created, search still works,
    // unindexed. PGlite loads it as a contrib extension (server/src/platform/sql/pglite-client.ts).
    `DO $$ BEGIN
       CREATE EXTENSION IF NOT EXISTS pg_trgm;
     EXCEPTION WHEN OTHERS THEN
       RAISE NOTICE 'pg_trgm is not available: the user search is not indexed (%)', SQLERRM;
     END $$`,
    `DO $$ BEGIN
       IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN
         CREATE INDEX IF NOT EXISTS rm_users_search_trgm ON rm_users USING gin (search_text gin_trgm_ops);
       END IF;
     END $$`,
  ],
  handles: USER_EVENT_TYPES,
  /** A batch folds the users it creates in memory and writes each row once (`UserFold`, decision 0086). */
  async applyBatch(events: readonly ProjectionEvent[], tx: ProjectionTx) {
    if (events.length < FOLD_FROM) {
      for (const e of events) await this.apply(e, tx);
      return;
    }
    const fold = await UserFold.start(events, tx, PROFILE_COLUMNS, erasedLogin);
    for (const e of events) if (!(await fold.takes(e, tx))) await this.apply(e, tx);
    await fold.write(tx);
  },
  async apply(event: ProjectionEvent, tx) {
    const e = { type: event.type, data: event.data } as UserEvent;
    switch (e.type) {
      case 'UserCreated': {
        const d: UserCreatedData = e.data;
        await tx.query(
          `INSERT INTO rm_users (id, login, email, first_name, last_name, user_type, type_label, permissions,
                                 customer_id, customer_type, network_id, active_network_id, timezone, notes,
                                 has_access, awaiting_activation, custom_fields, created_at, updated_at,
                                 version)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9, $10, $11, $11, $12, $13, true, $16,
                   jsonb_strip_nulls($17::jsonb), $14, $14, $15::bigint)
           ON CONFLICT (id) DO NOTHING`,
          [
            d.userId,
            d.login === ERASED ? erasedLogin(d.userId) : d.login.toLowerCase(),
            d.email,
            d.firstName,
            d.lastName,
            d.userType,
            USER_TYPE_LABELS[d.userType] ?? '',
            JSON.stringify(d.permissions),
            d.customerId ?? null,
            d.customerType ?? null,
            d.networkId ?? null,
            d.timezone ?? null,
            d.notes ?? null,
            event.metadata.occurredAt,
            event.revision.toString(),
            d.awaitingActivation ?? false,
            JSON.stringify(d.customFields ?? {}),
          ],
        );
        return;
      }
      case 'UserProfileUpdated': {
        const entries = Object.entries(e.data.changes).filter(
          ([key, value]) => key in PROFILE_COLUMNS && value !== undefined,
        ) as [keyof typeof PROFILE_COLUMNS, unknown][];
        const set: Record<string, unknown> = Object.fromEntries(
          entries.map(([key, value]) => [PROFILE_COLUMNS[key], value]),
        );
        const customFields = e.data.changes.customFields;
        if (customFields)
          set.custom_fields = sqlSet(
            (bind) => `jsonb_strip_nulls(custom_fields || ${bind(JSON.stringify(customFields))}::jsonb)`,
          );
        await update(tx, event, set);
        return;
      }
      case 'UserActivated':
        return update(tx, event, { has_access: true, scheduled_for_deactivation: null });
      case 'UserDeactivated':
        return update(tx, event, { has_access: false, scheduled_for_deactivation: null });
      case 'UserDeactivationScheduled':
        return update(tx, event, { scheduled_for_deactivation: e.data.at });
      case 'UserDeactivationCancelled':
        return update(tx, event, { scheduled_for_deactivation: null });
      case 'UserBlocked':
        return update(tx, event, { is_blocked: true });
      case 'UserUnblocked':
        return update(tx, event, { is_blocked: false });
      case 'QualityIssueSet':
        return update(tx, event, { has_quality_issue: true, quality_issue_reason: e.data.reason });
      case 'QualityIssueUnset':
        return update(tx, event, { has_quality_issue: false, quality_issue_reason: null });
      case 'UserPermissionsChanged':
        return update(tx, event, { permissions: jsonbSet(e.data.permissions) });
      case 'UserStudentLinksChanged':
        // The links have their own read model (student-links); here the account's version moves on.
        return update(tx, event);
      case 'ActiveNetworkChanged':
        return update(tx, event, { active_network_id: e.data.networkId });
      case 'UserContactAdded':
      case 'UserContactUpdated': {
        const { contactId, name, email, phone, relationship, notes } = e.data;
        const contact: UserContactRow = { id: contactId, name, email, phone, relationship, notes };
        return update(tx, event, { contacts: jsonbUpsertById('contacts', contact) });
      }
      case 'UserContactRemoved':
        return update(tx, event, { contacts: jsonbRemoveByIds('contacts', [e.data.contactId]) });
      case 'PasswordChanged':
        return update(tx, event);
      case 'AccountActivated':
        return update(tx, event, { awaiting_activation: false });
      case 'UserSettingsChanged': {
        const c = e.data.changes;
        const entries: [string, unknown][] = [
          ['birth_date', c.birthDate],
          ['receive_weekly_summary_reports', c.receiveWeeklySummaryReports],
          ['requested_number_of_lessons_per_week', c.requestedLessonsPerWeek],
        ];
        return update(tx, event, Object.fromEntries(entries.filter(([, value]) => value !== undefined)));
      }
      case 'NotificationEmailChangeRequested':
        return update(tx, event, { pending_notification_email: e.data.email });
      case 'NotificationEmailVerified':
        return update(tx, event, { notification_email: e.data.email, pending_notification_email: null });
      case 'UserImpersonated':
      case 'EhcpRequested':
        // Audit only: the row does not change (impersonations and EHCP requests are read from the stream).
        return;
      case 'UserPersonalDataErased': {
        // Decision 0014: no plaintext stays in the read model. Stored files are destroyed with the key.
        const { rows } = await tx.query<{ contacts: UserContactRow[] }>(
          'SELECT contacts FROM rm_users WHERE id = $1',
          [e.data.userId],
        );
        const contacts = (rows[0]?.contacts ?? []).map((c) => ({
          id: c.id,
          name: ERASED,
          email: erasedOrNull(c.email),
          phone: erasedOrNull(c.phone),
          relationship: erasedOrNull(c.relationship),
          notes: erasedOrNull(c.notes),
        }));
        return update(tx, event, {
          login: erasedLogin(e.data.userId),
          email: ERASED,
          first_name: ERASED,
          last_name: ERASED,
          notes: erasedIfSet('notes'),
          quality_issue_reason: erasedIfSet('quality_issue_reason'),
          contacts: jsonbSet(contacts),
          files: jsonbSet([]),
          personal_data_erased: true,
          has_access: false,
          scheduled_for_deactivation: null,
        });
      }
      case 'UserDeleted':
        return update(tx, event, {
          deleted_at: event.metadata.occurredAt,
          has_access: false,
          scheduled_for_deactivation: null,
        });
      case 'StudentFileAdded': {
        const d = e.data;
        const file: StudentFileRow = {
          id: d.fileId,
          file_path: d.filePath,
          file_name: d.fileName,
          file_type: d.fileType,
          content_type: d.contentType,
          size: d.size,
          uploaded_at: event.metadata.occurredAt,
          uploaded_by: event.metadata.actorId ?? null,
        };
        return update(tx, event, {
          files: sqlSet(
            (bind) =>
              `${jsonbRemoveByIds('files', [file.id]).render(bind)} || jsonb_build_array(${bind(JSON.stringify(file))}::jsonb)`,
          ),
        });
      }
      case 'StudentFilesDeleted': {
        return update(tx, event, { files: jsonbRemoveByIds('files', e.data.fileIds) });
      }
    }
  },
});
