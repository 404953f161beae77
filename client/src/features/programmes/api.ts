import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../shared/api/client';
import { createResource, useAreaCommand } from '../../shared/api/resource';
import type { ApiSchema, Page, Written } from '../../shared/api/types';

/** The server's views (generated from the API document). */
export type Programme = ApiSchema<'ProgrammeView'>;
export type ProgrammeStatistics = ApiSchema<'ProgrammeStatisticsView'>;
export type Group = ApiSchema<'GroupView'>;
export type GroupListItem = ApiSchema<'GroupListItem'>;
export type Enrolment = ApiSchema<'EnrolmentView'>;
export type TeacherStudent = ApiSchema<'TeacherStudentView'>;
export type ProgrammeInput = ApiSchema<'CreateProgrammeBody'>;
export type EnrolmentInput = ApiSchema<'CreateEnrolmentBody'>;
export type GroupTeacherInput = ApiSchema<'GroupTeacherBody'>;

export const PROGRAMME_STATUSES = ['draft', 'active', 'paused', 'completed', 'cancelled'] as const;
export const ENROLMENT_STATUSES = ['requested', 'active', 'paused', 'withdrawn', 'ended'] as const;
export const PLACEMENT_TYPES = [
  { value: 'NOT_SET', label: 'Unspecified' },
  { value: 'MAIN', label: 'Main' },
  { value: 'ONLY', label: 'Only' },
  { value: 'NOT_MAIN_OR_ONLY', label: 'Not main or only' },
];
export const SETTINGS = [
  { value: 'NOT_SET', label: 'Unspecified' },
  { value: 'HOME', label: 'Home' },
  { value: 'PARTNER_SITE', label: 'Partner site' },
  { value: 'MIXED', label: 'Mixed' },
];
export const PLACEMENT_REASONS = [
  'NOT_SET',
  'DAY_6',
  'PEX',
  'PREVENT_PEX',
  'EBSNA',
  'AWAITING_PLACEMENT',
  'REDUCED_TIMETABLE',
  'CLA',
  'SEMH',
  'MEDICAL_REASONS',
  'EOTAS',
  'ESOL',
  'TRIAL',
  'OTHER',
].map((value) => ({ value, label: value === 'NOT_SET' ? 'Unspecified' : value.replace(/_/g, ' ') }));

export const STATUS_COLOURS: Record<string, string> = {
  draft: 'gray',
  requested: 'gray',
  active: 'teal',
  paused: 'yellow',
  completed: 'blue',
  ended: 'blue',
  cancelled: 'red',
  withdrawn: 'red',
};

/** Programmes under the `programmes` root (live: `programme-{id}` streams). */
export const programmes = createResource<Programme, ProgrammeInput>({
  root: 'programmes',
  path: '/api/v1/programmes/',
});

/** Groups under the `groups` root (live: `group-{id}`). */
export const groups = createResource<
  GroupListItem,
  { programme_id: string; name: string; teachers?: GroupTeacherInput[] }
>({
  root: 'groups',
  path: '/api/v1/groups/',
});

/** Enrolments under the `enrolments` root (live: `enrolment-{id}`). */
export const enrolments = createResource<Enrolment, EnrolmentInput>({
  root: 'enrolments',
  path: '/api/v1/enrolments/',
});

export const myProgrammes = (params: Record<string, unknown>) =>
  apiRequest<Page<Programme>>('/api/v1/programmes/my', {
    query: params as Record<string, string | number | undefined>,
  });

export const useProgrammeStatistics = () =>
  useQuery({
    queryKey: programmes.keys.other('statistics'),
    queryFn: ({ signal }) => apiRequest<ProgrammeStatistics>('/api/v1/programmes/statistics', { signal }),
    meta: { silentErrors: true },
  });

/** One group with its members over time and its teachers. */
export const useGroup = (id: string) =>
  useQuery({
    queryKey: groups.keys.detail(id),
    queryFn: ({ signal }) => apiRequest<Group>(groups.url(id), { signal }),
    meta: { silentErrors: true },
  });

export const useMyStudents = () =>
  useQuery({
    queryKey: groups.keys.other('my-students'),
    queryFn: ({ signal }) =>
      apiRequest<{ items: TeacherStudent[] }>('/api/v1/groups/my-students', { signal }),
    meta: { silentErrors: true },
  });

export type ProgrammeAction = 'activate' | 'pause' | 'resume' | 'complete' | 'cancel';

export const ACTION_LABELS: Record<ProgrammeAction, string> = {
  activate: 'Activate',
  pause: 'Pause',
  resume: 'Resume',
  complete: 'Complete',
  cancel: 'Cancel programme',
};

const ACTION_DONE: Record<ProgrammeAction, string> = {
  activate: 'activated',
  pause: 'paused',
  resume: 'resumed',
  complete: 'completed',
  cancel: 'cancelled',
};

export const useProgrammeAction = (id: string) =>
  programmes.useCommand(
    ({ action, reason }: { action: ProgrammeAction; reason?: string }) =>
      apiRequest<Written>(programmes.url(id, `/${action}`), {
        method: 'PUT',
        json: reason ? { reason } : {},
      }),
    { success: (_result, { action }) => `Programme ${ACTION_DONE[action]}.`, silentErrors: true },
  );

export const addGroupStudent = (groupId: string, body: { student_id: string; from?: string }) =>
  apiRequest<Written>(groups.url(groupId, '/students'), { method: 'POST', json: body });

export const removeGroupStudent = (groupId: string, studentId: string, to?: string) =>
  apiRequest<Written>(groups.url(groupId, `/students/${encodeURIComponent(studentId)}`), {
    method: 'DELETE',
    query: { to },
  });

export const setGroupTeachers = (groupId: string, teachers: GroupTeacherInput[]) =>
  apiRequest<Written>(groups.url(groupId, '/teachers'), { method: 'PUT', json: { teachers } });

export const withdrawEnrolment = (id: string, reason: string) =>
  apiRequest<Written>(enrolments.url(id, '/withdraw'), { method: 'PUT', json: { reason } });

/** A command under the groups root that also refreshes programmes (member counts, statistics). */
export const useGroupCommand = <TVars>(fn: (vars: TVars) => Promise<Written>, success?: string) =>
  useAreaCommand('groups', fn, { success, silentErrors: true });

/** Users to pick from (students of a customer, teachers), by name; students with school and year group. */
export interface PickableUser {
  id: string;
  full_name: string;
  customer_name?: string | null;
  year_group?: string | null;
}
export const usePickableUsers = (type: 'students' | 'teachers', customerId?: string, enabled = true) =>
  useQuery({
    queryKey: ['users', 'pick', type, customerId ?? null],
    enabled,
    queryFn: ({ signal }) =>
      apiRequest<Page<PickableUser>>('/api/v1/users/', {
        signal,
        query: { type, customer_id: customerId, size: 500, sort_by: 'full_name' },
      }),
    meta: { silentErrors: true },
  });

/** Customers to pick from (a programme's school). */
export const useCustomerOptions = (enabled = true) =>
  useQuery({
    queryKey: ['customers', 'pick'],
    enabled,
    queryFn: ({ signal }) =>
      apiRequest<Page<{ id: string; name: string }>>('/api/v1/customers/', { signal, query: { size: 500 } }),
    meta: { silentErrors: true },
  });
