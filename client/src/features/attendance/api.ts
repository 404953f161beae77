import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../shared/api/client';
import { useAreaCommand } from '../../shared/api/resource';
import type { ApiSchema, Page } from '../../shared/api/types';

/** The server's views (generated from the API document). */
export type Register = ApiSchema<'RegisterView'>;
export type RegisterEntry = ApiSchema<'RegisterEntryView'>;
export type RegisterWritten = ApiSchema<'RegisterWritten'>;
export type Amendment = ApiSchema<'AmendmentView'>;
export type AttendanceEntry = ApiSchema<'AttendanceEntryView'>;
export type Today = ApiSchema<'TodayView'>;
export type LessonRegister = ApiSchema<'LessonRegisterView'>;
export type CodeSet = ApiSchema<'AttendanceCodeSetView'>;
export type MarkInput = ApiSchema<'MarkBody'>;
export type PlannedAbsence = ApiSchema<'PlannedAbsenceView'>;
export type Summary = ApiSchema<'AttendanceSummaryView'>;
export type TutorCompliance = ApiSchema<'TutorComplianceView'>;
export type DifferentClass = ApiSchema<'DifferentClassView'>;
export type SessionMark = ApiSchema<'SessionMarkView'>;

/**
 * Registers live in the lesson streams (decision 0056), so every register and attendance query sits
 * under the `lessons` root: a mark anywhere refreshes them through the live channel.
 */
const ROOT = 'lessons';
export const attendanceKeys = {
  register: (lessonId: string, asAt: string | null) => [ROOT, 'register', lessonId, asAt ?? 'now'] as const,
  history: (lessonId: string) => [ROOT, 'register-history', lessonId] as const,
  today: (date: string, timezone: string) => [ROOT, 'attendance-today', date, timezone] as const,
  partner: (page: number) => [ROOT, 'attendance-partner', page] as const,
  codes: ['attendance-codes'] as const,
};

const lessonPath = (lessonId: string, rest = '') =>
  `/api/v1/lessons/${encodeURIComponent(lessonId)}/register${rest}`;

export function useRegister(lessonId: string, asAt: string | null) {
  return useQuery({
    queryKey: attendanceKeys.register(lessonId, asAt),
    queryFn: ({ signal }) =>
      apiRequest<Register>(lessonPath(lessonId), { signal, query: asAt ? { as_at: asAt } : {} }),
    meta: { silentErrors: true },
  });
}

export function useRegisterHistory(lessonId: string, enabled: boolean) {
  return useQuery({
    queryKey: attendanceKeys.history(lessonId),
    queryFn: ({ signal }) => apiRequest<{ items: Amendment[] }>(lessonPath(lessonId, '/history'), { signal }),
    enabled,
    meta: { silentErrors: true },
  });
}

export function useCodes() {
  return useQuery({
    queryKey: attendanceKeys.codes,
    queryFn: ({ signal }) => apiRequest<CodeSet>('/api/v1/attendance/codes', { signal }),
    staleTime: 60 * 60_000,
    meta: { silentErrors: true },
  });
}

export function useToday(date: string, timezone: string) {
  return useQuery({
    queryKey: attendanceKeys.today(date, timezone),
    queryFn: ({ signal }) =>
      apiRequest<Today>('/api/v1/attendance/today', { signal, query: { date, timezone } }),
    meta: { silentErrors: true },
  });
}

export function usePartnerAttendance(page: number) {
  return useQuery({
    queryKey: attendanceKeys.partner(page),
    queryFn: ({ signal }) =>
      apiRequest<Page<AttendanceEntry>>('/api/v1/attendance/partner', { signal, query: { page, size: 50 } }),
    meta: { silentErrors: true },
  });
}

export function usePartnerSessions(page: number, enabled: boolean) {
  return useQuery({
    queryKey: [ROOT, 'attendance-sessions', page],
    queryFn: ({ signal }) =>
      apiRequest<Page<SessionMark>>('/api/v1/attendance/partner/sessions', {
        signal,
        query: { page, size: 50 },
      }),
    enabled,
    meta: { silentErrors: true },
  });
}

/** Takes (or amends) marks; every `lessons` query refreshes. Errors are shown by the form. */
export const useTakeRegister = (lessonId: string) =>
  useAreaCommand(
    ROOT,
    (entries: MarkInput[]) =>
      apiRequest<RegisterWritten>(lessonPath(lessonId), {
        method: 'PUT',
        json: { client_key: crypto.randomUUID(), entries },
      }),
    { success: 'Register saved', silentErrors: true },
  );

/** A partner's reason for an absence. */
export const useGiveReason = (lessonId: string) =>
  useAreaCommand(
    ROOT,
    (vars: { studentId: string; absence_reason: string; note?: string }) =>
      apiRequest<RegisterWritten>(lessonPath(lessonId, `/${encodeURIComponent(vars.studentId)}/reason`), {
        method: 'PUT',
        json: { absence_reason: vars.absence_reason, note: vars.note },
      }),
    { success: 'Reason given', silentErrors: true },
  );

export const MARK_LABELS: Record<string, string> = {
  present: 'Present',
  late: 'Late',
  left_early: 'Left early',
  absent_pending: 'Absent (reason unknown)',
  absent: 'Absent (reason known)',
  not_required: 'Not required',
  tech_failure_provider: 'Technical failure (ours)',
  tech_failure_pupil: 'Technical failure (pupil)',
};

export const REASON_LABELS: Record<string, string> = {
  illness: 'Illness',
  medical: 'Medical or dental appointment',
  religious: 'Religious observance',
  interview: 'Interview',
  study_leave: 'Study leave',
  excluded: 'Suspended or excluded',
  authorised_other: 'Other authorised',
  unauthorised: 'Unauthorised',
  holiday_not_agreed: 'Holiday not agreed',
  unable_transport: 'No transport',
  on_site_at_school: 'In school instead',
};

export const MARK_COLORS: Record<string, string> = {
  present: 'green',
  late: 'yellow',
  left_early: 'yellow',
  absent_pending: 'red',
  absent: 'orange',
  not_required: 'gray',
  tech_failure_provider: 'grape',
  tech_failure_pupil: 'grape',
};

export const markOptions = Object.entries(MARK_LABELS).map(([value, label]) => ({ value, label }));
export const reasonOptions = Object.entries(REASON_LABELS).map(([value, label]) => ({ value, label }));

/** A mark in words: "Late (10 min)", "Absent (reason known): Illness". */
export function describeEntry(e: {
  mark: string | null;
  minutes_late: number | null;
  minutes_missed: number | null;
  absence_reason: string | null;
}): string {
  if (!e.mark) return 'Not marked';
  const base = MARK_LABELS[e.mark] ?? e.mark;
  if (e.mark === 'late' && e.minutes_late) return `${base} (${e.minutes_late} min)`;
  if (e.mark === 'left_early' && e.minutes_missed) return `${base} (${e.minutes_missed} min missed)`;
  if (e.absence_reason) return `${base}: ${REASON_LABELS[e.absence_reason] ?? e.absence_reason}`;
  return base;
}

const ABSENCES_ROOT = 'planned-absences';

/** Planned absences the reader may see (live: `plannedAbsence-{id}` streams refresh the root). */
export function usePlannedAbsences() {
  return useQuery({
    queryKey: [ABSENCES_ROOT, 'list'],
    queryFn: ({ signal }) =>
      apiRequest<Page<PlannedAbsence>>('/api/v1/planned-absences/', { signal, query: { size: 100 } }),
    meta: { silentErrors: true },
  });
}

/** The students the reader may choose (their school's; selected ones for link contacts and parents). */
export function useMyStudents(enabled: boolean) {
  return useQuery({
    queryKey: [ABSENCES_ROOT, 'students'],
    enabled,
    queryFn: ({ signal }) =>
      apiRequest<{
        items: {
          id: string;
          display_name: string;
          customer_name: string | null;
          year_group: string | null;
        }[];
      }>('/api/v1/users/students/simple', {
        signal,
      }),
    meta: { silentErrors: true },
  });
}

export interface PlannedAbsenceInput {
  student_id: string;
  from: string;
  to: string;
  absence_reason: string;
  note?: string;
}

export const useRecordPlannedAbsence = () =>
  useAreaCommand(
    ABSENCES_ROOT,
    (body: PlannedAbsenceInput) =>
      apiRequest<{ id: string; position: string }>('/api/v1/planned-absences/', {
        method: 'POST',
        json: body,
      }),
    { success: 'Planned absence recorded', silentErrors: true },
  );

export const useWithdrawPlannedAbsence = () =>
  useAreaCommand(
    ABSENCES_ROOT,
    (id: string) =>
      apiRequest<{ id: string; position: string }>(`/api/v1/planned-absences/${encodeURIComponent(id)}`, {
        method: 'DELETE',
      }),
    { success: 'Planned absence withdrawn' },
  );

export type AttendanceContacts = ApiSchema<'AttendanceContactsView'>;
export type AttendanceContact = ApiSchema<'AttendanceContactView'>;
export type AttendanceContactCandidate = ApiSchema<'AttendanceContactCandidateView'>;
export type NotificationFrequency = AttendanceContact['notification_frequency'];

/**
 * A school's attendance contacts (decision 0061) live in the customer's stream, so their queries sit
 * under the `customers` root: a change anywhere refreshes an open screen through the live channel.
 */
const CONTACTS_ROOT = 'customers';
const contactsPath = (customerId: string, rest = '') =>
  `/api/v1/customers/${encodeURIComponent(customerId)}/attendance-contacts${rest}`;

export function useAttendanceContacts(customerId: string) {
  return useQuery({
    queryKey: [CONTACTS_ROOT, 'attendance-contacts', customerId],
    queryFn: ({ signal }) => apiRequest<AttendanceContacts>(contactsPath(customerId), { signal }),
    meta: { silentErrors: true },
  });
}

/** The partner's own school (a partner's customers list holds only it). */
export function useOwnCustomer(enabled: boolean) {
  return useQuery({
    queryKey: [CONTACTS_ROOT, 'own'],
    queryFn: ({ signal }) =>
      apiRequest<Page<{ id: string; name: string }>>('/api/v1/customers/', { signal, query: { size: 1 } }),
    select: (page) => page.items[0] ?? null,
    enabled,
    meta: { silentErrors: true },
  });
}

/** Whom the list may hold: the school's partner users who see attendance (asked only by editors). */
export function useAttendanceContactCandidates(customerId: string, enabled: boolean) {
  return useQuery({
    queryKey: [CONTACTS_ROOT, 'attendance-contact-candidates', customerId],
    queryFn: ({ signal }) =>
      apiRequest<{ items: AttendanceContactCandidate[] }>(contactsPath(customerId, '/candidates'), {
        signal,
      }),
    enabled,
    meta: { silentErrors: true },
  });
}

/** Replaces the whole list. Errors (a 422 naming `contacts[i].user_id`) are shown by the card. */
export const useSaveAttendanceContacts = (customerId: string) =>
  useAreaCommand(
    CONTACTS_ROOT,
    (contacts: { user_id: string; notification_frequency: NotificationFrequency }[]) =>
      apiRequest<AttendanceContacts>(contactsPath(customerId), { method: 'PUT', json: { contacts } }),
    { success: 'Attendance contacts saved', silentErrors: true },
  );

export const FREQUENCY_LABELS: Record<NotificationFrequency, string> = {
  'each-change': 'An e-mail for each alert',
  daily: 'One daily digest',
};
