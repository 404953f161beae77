import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../shared/api/client';
import type { ApiSchema, Page } from '../../shared/api/types';
import type { AttendanceEntry, Summary } from '../attendance/api';

export type ChildOverview = ApiSchema<'ChildOverviewView'>;
export type SchoolContact = ApiSchema<'SchoolContactView'>;

/** Queries of the "my child" page; under `lessons` too would refetch on lesson news, but a parent gets none live. */
export const FAMILY_ROOT = 'family';

export interface ChildRow {
  id: string;
  full_name: string;
  customer_name?: string | null;
}

/** The children (students) linked to the signed-in partner, for the picker. */
export const useChildren = () =>
  useQuery({
    queryKey: [FAMILY_ROOT, 'children'],
    queryFn: ({ signal }) =>
      apiRequest<Page<ChildRow>>('/api/v1/users/', {
        signal,
        query: { type: ['students'], status: ['active'], size: 50, sort_by: 'full_name' },
      }),
  });

export const useChildOverview = (id: string, timezone: string) =>
  useQuery({
    queryKey: [FAMILY_ROOT, 'overview', id, timezone],
    enabled: id !== '',
    queryFn: ({ signal }) =>
      apiRequest<ChildOverview>(`/api/v1/users/${id}/child-overview`, { signal, query: { timezone } }),
  });

/** The child's attendance per programme over a period (the attendance area's summary). */
export const useChildAttendance = (id: string, from: string, to: string, enabled: boolean) =>
  useQuery({
    queryKey: [FAMILY_ROOT, 'attendance', id, from, to],
    enabled,
    queryFn: ({ signal }) =>
      apiRequest<Page<Summary>>('/api/v1/attendance/programmes', {
        signal,
        query: { student_id: id, from, to, size: 100 },
      }),
  });

/** The child's latest marks (the attendance area's partner list, newest first). */
export const useRecentMarks = (id: string, enabled: boolean) =>
  useQuery({
    queryKey: [FAMILY_ROOT, 'marks', id],
    enabled,
    queryFn: ({ signal }) =>
      apiRequest<Page<AttendanceEntry>>('/api/v1/attendance/partner', {
        signal,
        query: { student_id: id, size: 6 },
      }),
  });

/** Attended out of possible marks over every programme, as a percentage with one decimal; null without marks. */
export function attendancePercent(rows: readonly Pick<Summary, 'attended' | 'possible'>[]): number | null {
  const possible = rows.reduce((n, r) => n + r.possible, 0);
  if (possible === 0) return null;
  const attended = rows.reduce((n, r) => n + r.attended, 0);
  return Math.round((attended / possible) * 1000) / 10;
}

export const CONTACT_ROLES: Record<string, string> = {
  'super-admin': 'School administrator',
  admin: 'School administrator',
  'link-contact': 'Link contact',
};
