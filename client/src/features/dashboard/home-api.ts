import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../shared/api/client';
import type { ApiSchema, Page } from '../../shared/api/types';

/**
 * The reads of the home page (issue 18 item 2), each under the `home` query root: the page refetches
 * them when a live message arrives (any area may change a figure), so the figures stay current.
 */
export const HOME_ROOT = 'home';

type Lesson = ApiSchema<'LessonView'>;
type LessonWeek = ApiSchema<'LessonWeekView'>;
type IncidentSummary = ApiSchema<'IncidentSummary'>;
type ReaderIncident = ApiSchema<'ReaderIncidentView'>;
type WithoutAvailability = ApiSchema<'TeachersWithoutAvailabilityAnswer'>;
type CoverRequest = ApiSchema<'CoverRequestView'>;
type TeacherStudent = ApiSchema<'TeacherStudentView'>;
type AttendanceToday = ApiSchema<'TodayView'>;
type Report = ApiSchema<'ReportView'>;
export interface StudentRow {
  id: string;
  full_name: string;
  customer_name?: string | null;
}

const read = <T>(key: string, enabled: boolean, fn: (signal: AbortSignal) => Promise<T>) =>
  useQuery({
    queryKey: [HOME_ROOT, key],
    enabled,
    queryFn: ({ signal }) => fn(signal),
    meta: { silentErrors: true },
  });

/** A teacher's lessons this week (their own), to pick today's from. */
export const useMyWeek = (enabled: boolean, weekStart: string, timezone: string) =>
  read('my-week', enabled, (signal) =>
    apiRequest<LessonWeek>('/api/v1/lessons/my', { signal, query: { week_start: weekStart, timezone } }),
  );

/** Lessons between two instants that the reader may see (administrators: all; partners: their school's). */
export const useLessonsBetween = (enabled: boolean, from: string, to: string) =>
  read('lessons-today', enabled, (signal) =>
    apiRequest<Page<Lesson>>('/api/v1/lessons/', { signal, query: { from, to, size: 8 } }),
  );

export const useIncidentSummary = (enabled: boolean) =>
  read('incident-summary', enabled, (signal) =>
    apiRequest<IncidentSummary>('/api/v1/safeguarding-incidents/summary', { signal }),
  );

export const useMyConcerns = (enabled: boolean) =>
  read('my-concerns', enabled, (signal) =>
    apiRequest<Page<ReaderIncident>>('/api/v1/safeguarding-incidents/reported-by-me', {
      signal,
      query: {
        size: 50,
        status: [
          'reported',
          'acknowledged',
          'under_review',
          'actions',
          'partner_informed',
          'partner_feedback',
        ],
      },
    }),
  );

export const usePartnerIncidents = (enabled: boolean) =>
  read('partner-incidents', enabled, (signal) =>
    apiRequest<Page<ReaderIncident>>('/api/v1/safeguarding-incidents/partner', {
      signal,
      query: { size: 5 },
    }),
  );

export const useTeachersWithoutAvailability = (enabled: boolean) =>
  read('without-availability', enabled, (signal) =>
    apiRequest<WithoutAvailability>('/api/v1/users/teachers_without_availability_set', { signal }),
  );

export const useCoverOffers = (enabled: boolean) =>
  read('cover-offers', enabled, (signal) =>
    apiRequest<Page<CoverRequest>>('/api/v1/cover-requests/', { signal, query: { view: 'offers', size: 5 } }),
  );

export const useMyStudents = (enabled: boolean) =>
  read('my-students', enabled, (signal) =>
    apiRequest<{ items: TeacherStudent[] }>('/api/v1/groups/my-students', { signal }),
  );

/** The students a partner may see (link contacts and parents: their selected students only). */
export const usePartnerStudents = (enabled: boolean) =>
  read('partner-students', enabled, (signal) =>
    apiRequest<Page<StudentRow>>('/api/v1/users/', {
      signal,
      query: { type: ['students'], status: ['active'], size: 6, sort_by: 'full_name' },
    }),
  );

/** Today's registers and the absences still waiting for a reason, within what the reader may see. */
export const useAttendanceToday = (enabled: boolean, timezone: string) =>
  read('attendance-today', enabled, (signal) =>
    apiRequest<AttendanceToday>('/api/v1/attendance/today', { signal, query: { timezone } }),
  );

/** Published half-term reports released to the partner's school (their selected students' for parents). */
export const useReleasedReports = (enabled: boolean) =>
  read('released-reports', enabled, (signal) =>
    apiRequest<Page<Report>>('/api/v1/half-term-reports/partner', { signal, query: { size: 5 } }),
  );
