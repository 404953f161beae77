import { ERASED, type UserRow } from '@portal/projections';
import {
  CUSTOMER_ROLE_LABELS,
  mayAccessEhcp,
  mayReadStaffNotes,
  seesBasicDetailsOnly,
  type CustomerRole,
} from './policy/policy.js';
import type { UserView } from './users.dto.js';
import type { Actor } from '../platform/auth/request-context.js';

/** Used when a user has no timezone of their own (spec §3: "if null, a default timezone is set"). */
export const DEFAULT_TIMEZONE = 'Europe/London';

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

/** Who reads a user record: the signed-in actor (permissions and customer role, loaded by the guard). */
export type RecordViewer = Pick<Actor, 'permissions' | 'customerType'>;

const readerOf = (viewer: RecordViewer) => ({
  permissions: viewer.permissions,
  customerType: viewer.customerType,
});

/**
 * A user row as `viewer` may read it (docs/decisions/0037-first-user-trust-access.md): without the
 * right to staff notes, the user's notes and their contacts' notes are null; without EHCP access, the
 * student's EHCP files are not there (so neither is the latest EHCP file). Every user view, simple user,
 * contacts page and contacts export starts from this, so the rules live in one place (the policy).
 */
export function rowFor(viewer: RecordViewer, row: UserRow): UserRow {
  let out = row;
  if (!mayReadStaffNotes(readerOf(viewer)))
    out = { ...out, notes: null, contacts: out.contacts.map((c) => ({ ...c, notes: null })) };
  if (!mayAccessEhcp(viewer.permissions) && (out.files ?? []).some((f) => f.file_type === 'EHCP'))
    out = { ...out, files: (out.files ?? []).filter((f) => f.file_type !== 'EHCP') };
  return out;
}

/** `rowFor` over a stream of rows (exports). */
export async function* rowsFor(viewer: RecordViewer, rows: AsyncIterable<UserRow>): AsyncGenerator<UserRow> {
  for await (const row of rows) yield rowFor(viewer, row);
}

/**
 * The API shape of a user row as `viewer` may see it (see `rowFor`); a link contact gets "basic parent
 * details" of a parent (spec §6): the same shape, with only who they are, their customer and whether
 * they can sign in filled in.
 */
export function userViewFor(viewer: RecordViewer, row: UserRow): UserView {
  const view = toUserView(rowFor(viewer, row));
  if (!seesBasicDetailsOnly(readerOf(viewer), { userType: row.user_type, customerType: row.customer_type }))
    return view;
  return {
    ...view,
    notes: null,
    contacts: [],
    permission_list: [],
    custom_fields: {},
    one_page_profile: null,
    birth_date: null,
    last_action: 'N/A',
    notification_email: null,
    receive_weekly_summary_reports: false,
    requested_number_of_lessons_per_week: null,
    scheduled_for_deactivation: null,
  };
}

/** The whole record, nothing withheld: only through `userViewFor`, which applies the viewer's rules. */
function toUserView(row: UserRow): UserView {
  const customerType = row.customer_type as CustomerRole | null;
  return {
    id: row.id,
    login: row.personal_data_erased ? ERASED : row.login,
    email: row.email,
    first_name: row.first_name,
    last_name: row.last_name,
    full_name: row.full_name,
    user_type: row.user_type,
    type_label: row.type_label,
    is_teacher: row.user_type === 'teacher',
    customer_id: row.customer_id,
    customer_name: row.customer_name ?? null,
    year_group: row.user_type === 'student' ? (row.year_group ?? null) : null,
    one_page_profile: row.one_page_profile ?? null,
    customers: row.customer_id ? [{ id: row.customer_id, name: row.customer_name ?? null }] : [],
    customer_profile:
      row.user_type === 'partner'
        ? { type: customerType, type_label: customerType ? CUSTOMER_ROLE_LABELS[customerType] : null }
        : null,
    teacher_profile:
      row.user_type === 'teacher'
        ? { has_quality_issue: row.has_quality_issue, quality_issue_reason: row.quality_issue_reason }
        : null,
    student_profile: row.user_type === 'student' ? studentProfile(row) : null,
    position: row.user_type === 'teacher' || row.user_type === 'super_admin' ? (row.position ?? null) : null,
    personal_data_erased: row.personal_data_erased ?? false,
    network_id: row.network_id,
    active_network: row.active_network_id,
    timezone: row.timezone ?? DEFAULT_TIMEZONE,
    notes: row.notes,
    has_access: row.has_access,
    is_blocked: row.is_blocked,
    scheduled_for_deactivation: iso(row.scheduled_for_deactivation),
    status: row.status,
    permission_list: row.permissions,
    contacts: row.contacts,
    last_action: row.last_action ? new Date(row.last_action).toISOString() : 'N/A',
    is_activated: !row.awaiting_activation,
    birth_date: row.birth_date,
    receive_weekly_summary_reports: row.receive_weekly_summary_reports,
    requested_number_of_lessons_per_week: row.requested_number_of_lessons_per_week,
    notification_email: row.notification_email,
    custom_fields: row.custom_fields ?? {},
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
  };
}

/**
 * spec §3: student_profile.files and the derived "latest EHCP file", of a row already passed through
 * `rowFor` (or read by someone with EHCP access: the EHCP reminder list).
 */
export function studentProfile(row: UserRow) {
  const files = row.files ?? [];
  const ehcp = files.filter((f) => f.file_type === 'EHCP');
  const latest = ehcp.reduce<(typeof files)[number] | null>(
    (a, f) => (a === null || f.uploaded_at >= a.uploaded_at ? f : a),
    null,
  );
  return { files, latest_ehcp_file: latest };
}
