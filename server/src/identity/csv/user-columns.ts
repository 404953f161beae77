import type { UserContactRow, UserRow } from '@portal/projections';
import type { Column } from './tabular.js';

/** Columns of the user exports (docs/decisions/0018). */
const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

const contactText = (c: UserContactRow) =>
  [c.name, c.relationship && `(${c.relationship})`, c.email, c.phone].filter(Boolean).join(' ');

const common = {
  id: { header: 'id', value: (u: UserRow) => u.id, width: 38 },
  firstName: { header: 'first_name', value: (u: UserRow) => u.first_name },
  lastName: { header: 'last_name', value: (u: UserRow) => u.last_name },
  login: { header: 'login', value: (u: UserRow) => u.login, width: 30 },
  email: { header: 'email', value: (u: UserRow) => u.email, width: 30 },
  status: { header: 'status', value: (u: UserRow) => u.status },
  customerName: { header: 'customer', value: (u: UserRow) => u.customer_name ?? null, width: 30 },
  timezone: { header: 'timezone', value: (u: UserRow) => u.timezone },
  createdAt: { header: 'created_at', value: (u: UserRow) => iso(u.created_at), width: 25 },
  lastAction: { header: 'last_action', value: (u: UserRow) => iso(u.last_action), width: 25 },
} satisfies Record<string, Column<UserRow>>;

export const STUDENT_COLUMNS: Column<UserRow>[] = [
  common.id,
  common.firstName,
  common.lastName,
  common.login,
  common.email,
  common.customerName,
  common.status,
  { header: 'has_access', value: (u) => u.has_access },
  { header: 'is_blocked', value: (u) => u.is_blocked },
  common.timezone,
  common.createdAt,
  common.lastAction,
];

export const TEACHER_COLUMNS: Column<UserRow>[] = [
  common.id,
  common.firstName,
  common.lastName,
  common.login,
  common.email,
  common.status,
  { header: 'has_quality_issue', value: (u) => u.has_quality_issue },
  { header: 'quality_issue_reason', value: (u) => u.quality_issue_reason, width: 40 },
  common.timezone,
  common.createdAt,
  common.lastAction,
];

export const DETAILED_STUDENT_COLUMNS: Column<UserRow>[] = [
  ...STUDENT_COLUMNS,
  { header: 'customer_id', value: (u) => u.customer_id, width: 38 },
  { header: 'network_id', value: (u) => u.network_id, width: 38 },
  { header: 'scheduled_for_deactivation', value: (u) => iso(u.scheduled_for_deactivation), width: 25 },
  { header: 'notes', value: (u) => u.notes, width: 40 },
  { header: 'contact_count', value: (u) => u.contacts.length },
  { header: 'contacts', value: (u) => u.contacts.map(contactText).join('; '), width: 60 },
  { header: 'updated_at', value: (u) => iso(u.updated_at), width: 25 },
];

/** One row per student and contact (a student without contacts: one row with empty contact cells). */
export interface StudentContactLine {
  student: UserRow;
  contact: UserContactRow | null;
}

export const STUDENT_CONTACT_COLUMNS: Column<StudentContactLine>[] = [
  { header: 'student_id', value: (l) => l.student.id, width: 38 },
  { header: 'student_name', value: (l) => l.student.full_name, width: 30 },
  { header: 'student_login', value: (l) => l.student.login, width: 30 },
  { header: 'student_email', value: (l) => l.student.email, width: 30 },
  { header: 'customer', value: (l) => l.student.customer_name ?? null, width: 30 },
  { header: 'status', value: (l) => l.student.status },
  { header: 'contact_name', value: (l) => l.contact?.name ?? null, width: 30 },
  { header: 'contact_relationship', value: (l) => l.contact?.relationship ?? null },
  { header: 'contact_email', value: (l) => l.contact?.email ?? null, width: 30 },
  { header: 'contact_phone', value: (l) => l.contact?.phone ?? null },
  { header: 'contact_notes', value: (l) => l.contact?.notes ?? null, width: 40 },
];

export async function* contactLines(students: AsyncIterable<UserRow>): AsyncGenerator<StudentContactLine> {
  for await (const student of students) {
    if (student.contacts.length === 0) yield { student, contact: null };
    for (const contact of student.contacts) yield { student, contact };
  }
}
