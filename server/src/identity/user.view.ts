import { ERASED, type UserRow } from '@portal/projections';
import { CUSTOMER_ROLE_LABELS, type CustomerRole } from './policy/policy.js';
import type { UserView } from './users.dto.js';

/** Used when a user has no timezone of their own (spec §3: "if null, a default timezone is set"). */
export const DEFAULT_TIMEZONE = 'Europe/London';

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

/** The API shape of a user row. `hideNotes` for parents (spec §6: parents cannot see additional notes). */
export function toUserView(row: UserRow, options: { hideNotes?: boolean } = {}): UserView {
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
    personal_data_erased: row.personal_data_erased ?? false,
    network_id: row.network_id,
    active_network: row.active_network_id,
    timezone: row.timezone ?? DEFAULT_TIMEZONE,
    notes: options.hideNotes ? null : row.notes,
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

/** spec §3: student_profile.files and the derived "latest EHCP file". */
export function studentProfile(row: UserRow) {
  const files = row.files ?? [];
  const ehcp = files.filter((f) => f.file_type === 'EHCP');
  const latest = ehcp.reduce<(typeof files)[number] | null>(
    (a, f) => (a === null || f.uploaded_at >= a.uploaded_at ? f : a),
    null,
  );
  return { files, latest_ehcp_file: latest };
}
