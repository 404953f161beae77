import { absentIds, insertRows, NEW_ROWS, type ProjectionEvent, type ProjectionTx } from '../projection.js';
import {
  ERASED,
  USER_TYPE_LABELS,
  type UserContactData,
  type UserCreatedData,
  type UserEvent,
} from './user-events.js';

/**
 * The users a batch creates, folded in memory (decision 0086, like attendance's registers): a user
 * whose row did not exist when the batch began is created and changed in memory by the events of the
 * batch that are common at onboarding (contacts, profile, permissions, access, settings), each with
 * the rule and version guard of the projection's SQL, and written once when the batch ends. Nothing
 * else in the batch reads or writes that row: every users rule touches its own user's row only.
 *
 * Any other event for a folded user (an erasure, files, a deletion) first writes the row as it stands
 * and hands the user back to SQL for the rest of the batch ("spills"), so the fold never needs to copy
 * the rarer rules. Checked by `user-fold.int.spec.ts` (any batch boundaries give the rows that
 * event-by-event apply gives) and the projection contract.
 */

/** rm_users' stored columns (the generated ones are left out), with their SQL types. */
const COLUMNS = {
  id: 'uuid',
  login: 'text',
  email: 'text',
  first_name: 'text',
  last_name: 'text',
  user_type: 'text',
  type_label: 'text',
  customer_id: 'uuid',
  customer_type: 'text',
  network_id: 'uuid',
  active_network_id: 'uuid',
  timezone: 'text',
  notes: 'text',
  permissions: 'jsonb',
  has_access: 'boolean',
  is_blocked: 'boolean',
  scheduled_for_deactivation: 'timestamptz',
  has_quality_issue: 'boolean',
  quality_issue_reason: 'text',
  contacts: 'jsonb',
  last_action: 'timestamptz',
  personal_data_erased: 'boolean',
  deleted_at: 'timestamptz',
  files: 'jsonb',
  awaiting_activation: 'boolean',
  birth_date: 'text',
  receive_weekly_summary_reports: 'boolean',
  requested_number_of_lessons_per_week: 'int',
  notification_email: 'text',
  pending_notification_email: 'text',
  custom_fields: 'jsonb',
  position: 'text',
  created_at: 'timestamptz',
  updated_at: 'timestamptz',
  version: 'bigint',
} as const;

type Column = keyof typeof COLUMNS;
const JSONB: readonly Column[] = ['permissions', 'contacts', 'files', 'custom_fields'];

interface FoldedUser {
  row: Record<Column, unknown>;
  version: bigint;
}

type Event = ProjectionEvent & UserEvent;

/** `jsonb_strip_nulls`: object fields whose value is null removed, at every depth. */
export function stripNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stripNulls);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) if (v !== null) out[k] = stripNulls(v);
  return out;
}

/** A value as jsonb keeps it: what JSON.stringify writes (undefined fields dropped). */
const asJsonb = (value: unknown): unknown => JSON.parse(JSON.stringify(value)) as unknown;

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

export class UserFold {
  private readonly folded = new Map<string, FoldedUser>();
  /** Users this batch handed back to SQL (see `spill`). */
  private readonly spilled = new Set<string>();

  private constructor(
    private readonly absent: ReadonlySet<string>,
    private readonly profileColumns: Readonly<Record<string, string>>,
    private readonly erasedLogin: (userId: string) => string,
  ) {}

  /** Reads which of the users the batch creates have no row yet (one round trip). */
  static async start(
    events: readonly ProjectionEvent[],
    tx: ProjectionTx,
    profileColumns: Readonly<Record<string, string>>,
    erasedLogin: (userId: string) => string,
  ): Promise<UserFold> {
    const created = events.flatMap((e) =>
      e.type === 'UserCreated' ? [(e.data as UserCreatedData).userId] : [],
    );
    const absent = await absentIds(tx, 'rm_users', created);
    return new UserFold(absent, profileColumns, erasedLogin);
  }

  /**
   * Applies `event` in memory when its user is folded (or is created here); otherwise writes the
   * user's row first if the event needs SQL, and answers false: the caller applies it by SQL.
   */
  async takes(event: ProjectionEvent, tx: ProjectionTx): Promise<boolean> {
    const e = event as Event;
    const userId = (e.data as { userId?: unknown }).userId;
    if (typeof userId !== 'string') return false;
    const id = userId.toLowerCase();
    if (e.type === 'UserCreated') {
      if (this.folded.has(id) || this.spilled.has(id) || !this.absent.has(id)) {
        // A second creation: its insert keeps the row (ON CONFLICT (id) DO NOTHING), in memory too.
        return this.folded.has(id);
      }
      this.folded.set(id, { row: this.created(e.data, event), version: event.revision });
      return true;
    }
    const user = this.folded.get(id);
    if (!user) return false;
    const set = this.change(e, user.row);
    if (set === null) {
      await this.spill(id, tx);
      return false;
    }
    if (set === 'unchanged') return true;
    if (user.version < event.revision) {
      Object.assign(user.row, set, { updated_at: event.metadata.occurredAt });
      user.version = event.revision;
    }
    return true;
  }

  /** Writes every folded user's row, once, with its final values. */
  async write(tx: ProjectionTx): Promise<void> {
    await this.insert(tx, [...this.folded.values()]);
    this.folded.clear();
  }

  private async spill(id: string, tx: ProjectionTx): Promise<void> {
    const user = this.folded.get(id)!;
    this.folded.delete(id);
    this.spilled.add(id);
    await this.insert(tx, [user]);
  }

  private async insert(tx: ProjectionTx, users: readonly FoldedUser[]): Promise<void> {
    const rows = users.map(({ row, version }) => {
      const out: Record<Column, unknown> = { ...row, version: version.toString() };
      for (const c of JSONB) out[c] = JSON.stringify(row[c]);
      return out;
    });
    // New rows: each folded user is written once, by `write` or by `spill`, which hands the user to
    // SQL. A login taken twice fails the batch; applied event by event, it fails on that same login.
    await insertRows(tx, 'rm_users', COLUMNS, rows, NEW_ROWS);
  }

  /** The row `UserCreated` inserts (the table's defaults for the rest). */
  private created(d: UserCreatedData, event: ProjectionEvent): Record<Column, unknown> {
    return {
      id: d.userId.toLowerCase(),
      login: d.login === ERASED ? this.erasedLogin(d.userId) : d.login.toLowerCase(),
      email: d.email,
      first_name: d.firstName,
      last_name: d.lastName,
      user_type: d.userType,
      type_label: USER_TYPE_LABELS[d.userType] ?? '',
      customer_id: d.customerId ?? null,
      customer_type: d.customerType ?? null,
      network_id: d.networkId ?? null,
      active_network_id: d.networkId ?? null,
      timezone: d.timezone ?? null,
      notes: d.notes ?? null,
      permissions: asJsonb(d.permissions),
      has_access: true,
      is_blocked: false,
      scheduled_for_deactivation: null,
      has_quality_issue: false,
      quality_issue_reason: null,
      contacts: [],
      last_action: null,
      personal_data_erased: false,
      deleted_at: null,
      files: [],
      awaiting_activation: d.awaitingActivation ?? false,
      birth_date: null,
      receive_weekly_summary_reports: false,
      requested_number_of_lessons_per_week: null,
      notification_email: null,
      pending_notification_email: null,
      custom_fields: stripNulls(asJsonb(d.customFields ?? {})),
      position: null,
      created_at: event.metadata.occurredAt,
      updated_at: event.metadata.occurredAt,
      version: null,
    };
  }

  /**
   * The columns an event sets on its user's row, as the SQL `update(...)` sets them; 'unchanged' for
   * events that leave the row alone; null for what the fold leaves to SQL.
   */
  private change(
    e: Event,
    row: Record<Column, unknown>,
  ): Partial<Record<Column, unknown>> | 'unchanged' | null {
    switch (e.type) {
      case 'UserProfileUpdated': {
        const set: Partial<Record<Column, unknown>> = {};
        for (const [key, value] of Object.entries(e.data.changes)) {
          if (key === 'customFields' || value === undefined) continue;
          // The SQL looks keys up with `in`: one that is not the table's own is left to it.
          if (!Object.hasOwn(this.profileColumns, key)) {
            if (key in this.profileColumns) return null;
            continue;
          }
          set[this.profileColumns[key] as Column] = value;
        }
        const customFields = e.data.changes.customFields;
        if (customFields) {
          const current = row.custom_fields;
          if (!isObject(customFields) || !isObject(current)) return null;
          set.custom_fields = stripNulls({ ...current, ...(asJsonb(customFields) as object) });
        }
        return set;
      }
      case 'UserActivated':
        return { has_access: true, scheduled_for_deactivation: null };
      case 'UserDeactivated':
        return { has_access: false, scheduled_for_deactivation: null };
      case 'UserDeactivationScheduled':
        return { scheduled_for_deactivation: e.data.at };
      case 'UserDeactivationCancelled':
        return { scheduled_for_deactivation: null };
      case 'UserBlocked':
        return { is_blocked: true };
      case 'UserUnblocked':
        return { is_blocked: false };
      case 'QualityIssueSet':
        return { has_quality_issue: true, quality_issue_reason: e.data.reason };
      case 'QualityIssueUnset':
        return { has_quality_issue: false, quality_issue_reason: null };
      case 'UserPermissionsChanged':
        return { permissions: asJsonb(e.data.permissions) };
      case 'UserStudentLinksChanged':
      case 'PasswordChanged':
        return {};
      case 'ActiveNetworkChanged':
        return { active_network_id: e.data.networkId };
      case 'AccountActivated':
        return { awaiting_activation: false };
      case 'UserContactAdded':
      case 'UserContactUpdated': {
        const contact = contactOf(e.data);
        const contacts = row.contacts as { id?: unknown }[];
        // As jsonbUpsertById: every element with that id replaced, else the contact appended.
        const same = (c: { id?: unknown }) => c.id === contact.id;
        return {
          contacts: contacts.some(same)
            ? contacts.map((c) => (same(c) ? contact : c))
            : [...contacts, contact],
        };
      }
      case 'UserContactRemoved': {
        const contacts = row.contacts as { id?: unknown }[];
        // As jsonbRemoveByIds: an element without an id does not pass its NOT (id = ANY(...)) either.
        return { contacts: contacts.filter((c) => c.id != null && c.id !== e.data.contactId) };
      }
      case 'UserSettingsChanged': {
        const c = e.data.changes;
        const set: Partial<Record<Column, unknown>> = {};
        if (c.birthDate !== undefined) set.birth_date = c.birthDate;
        if (c.receiveWeeklySummaryReports !== undefined)
          set.receive_weekly_summary_reports = c.receiveWeeklySummaryReports;
        if (c.requestedLessonsPerWeek !== undefined)
          set.requested_number_of_lessons_per_week = c.requestedLessonsPerWeek;
        return set;
      }
      case 'NotificationEmailChangeRequested':
        return { pending_notification_email: e.data.email };
      case 'NotificationEmailVerified':
        return { notification_email: e.data.email, pending_notification_email: null };
      case 'UserDeleted':
        return { deleted_at: e.metadata.occurredAt, has_access: false, scheduled_for_deactivation: null };
      case 'UserImpersonated':
      case 'EhcpRequested':
        return 'unchanged';
      default:
        return null;
    }
  }
}

/** A contact as the projection stores it (as jsonb: undefined fields left out). */
function contactOf(d: UserContactData): Record<string, unknown> {
  const { contactId, name, email, phone, relationship, notes } = d;
  return asJsonb({ id: contactId, name, email, phone, relationship, notes }) as Record<string, unknown>;
}
