import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../shared/api/client';
import { createResource, useAreaCommand } from '../../shared/api/resource';
import type { ApiSchema, Page, Written } from '../../shared/api/types';

/** The server's views (generated from the API document). */
export type Lesson = ApiSchema<'LessonView'>;
export type LessonWeek = ApiSchema<'LessonWeekView'>;
export type Timetable = ApiSchema<'TimetableView'>;
export type TeacherGrid = ApiSchema<'TeacherGridView'>;
export type TeacherGridRow = ApiSchema<'TeacherGridRow'>;
export type Schedule = ApiSchema<'ScheduleView'>;
export type ScheduleWritten = ApiSchema<'ScheduleWritten'>;
export type ScheduleInput = ApiSchema<'CreateScheduleBody'>;

/** Lessons under the `lessons` query root (live: `lesson-{id}` streams). */
export const lessons = createResource<Lesson>({ root: 'lessons', path: '/api/v1/lessons/' });

/** Schedules under the `schedules` root (live: `schedule-{id}` streams). */
export const schedules = createResource<Schedule>({ root: 'schedules', path: '/api/v1/schedules/' });

/** The signed-in user's week (`GET /lessons/my`), read in `timezone`. */
export function useMyWeek(weekStart: string, timezone: string) {
  return useQuery({
    queryKey: lessons.keys.other('my', weekStart, timezone),
    queryFn: ({ signal }) =>
      apiRequest<LessonWeek>('/api/v1/lessons/my', { signal, query: { week_start: weekStart, timezone } }),
    meta: { silentErrors: true },
  });
}

/** A user's week (`GET /timetable/{userId}`), read in the viewer's `timezone`. */
export function useTimetable(userId: string, weekStart: string, timezone: string) {
  return useQuery({
    queryKey: lessons.keys.other('timetable', userId, weekStart, timezone),
    queryFn: ({ signal }) =>
      apiRequest<Timetable>(`/api/v1/timetable/${encodeURIComponent(userId)}`, {
        signal,
        query: { week_start: weekStart, timezone },
      }),
    enabled: userId !== '',
    meta: { silentErrors: true },
  });
}

/** The teachers' grid (`GET /timetables/teachers`): a page of teachers × one week, read in `timezone`. */
export function useTeachersGrid(f: {
  weekStart: string;
  timezone: string;
  q: string;
  page: number;
  size: number;
}) {
  return useQuery({
    queryKey: lessons.keys.other('teachers-grid', f.weekStart, f.timezone, f.q, f.page, f.size),
    queryFn: ({ signal }) =>
      apiRequest<TeacherGrid>('/api/v1/timetables/teachers', {
        signal,
        query: {
          week_start: f.weekStart,
          timezone: f.timezone,
          query: f.q || undefined,
          page: f.page,
          size: f.size,
        },
      }),
    placeholderData: (previous) => previous,
    meta: { silentErrors: true },
  });
}

/** A programme's schedules. */
export function useProgrammeSchedules(programmeId: string) {
  return useQuery({
    queryKey: schedules.keys.other('programme', programmeId),
    queryFn: ({ signal }) =>
      apiRequest<Page<Schedule>>(`/api/v1/programmes/${encodeURIComponent(programmeId)}/schedules`, {
        signal,
        query: { size: 100 },
      }),
    meta: { silentErrors: true },
  });
}

export interface NamedOption {
  value: string;
  label: string;
}

/** Teachers to choose from (internal users), by name. */
export function useTeacherOptions(enabled = true) {
  return useQuery({
    queryKey: ['users', 'teacher-options'],
    enabled,
    queryFn: async ({ signal }) => {
      const page = await apiRequest<Page<{ id: string; full_name: string }>>('/api/v1/users/', {
        signal,
        query: { type: ['teachers', 'admins'], status: ['active'], size: 500, sort_by: 'full_name' },
      });
      return page.items.map((u): NamedOption => ({ value: u.id, label: u.full_name }));
    },
    meta: { silentErrors: true },
  });
}

/** A programme's groups (from the programmes area), for the schedule form. */
export function useProgrammeGroups(programmeId: string) {
  return useQuery({
    queryKey: ['programmes', 'groups-of', programmeId],
    queryFn: async ({ signal }) => {
      const page = await apiRequest<Page<{ id: string; name: string }>>('/api/v1/groups/', {
        signal,
        query: { programme_id: programmeId, size: 200 },
      });
      return page.items.map((g): NamedOption => ({ value: g.id, label: g.name }));
    },
    retry: false,
    meta: { silentErrors: true },
  });
}

export interface CancelInput {
  reason: string;
  cancelled_by: 'provider' | 'teacher' | 'partner' | 'parent' | 'student';
  charge_customer: boolean;
  pay_teacher: boolean;
}

export interface RescheduleInput {
  local_date: string;
  local_start: string;
  duration_minutes?: number;
  reason: string;
}

const put = <Body>(id: string, action: string, body: Body) =>
  apiRequest<Written>(lessons.url(id, `/${action}`), { method: 'PUT', json: body });

/** Lesson commands; each refreshes every `lessons` query. */
export const useCancelLesson = (id: string) =>
  useAreaCommand('lessons', (body: CancelInput) => put(id, 'cancel', body), {
    success: 'Lesson cancelled',
    silentErrors: true,
  });
export const useRescheduleLesson = (id: string) =>
  useAreaCommand('lessons', (body: RescheduleInput) => put(id, 'reschedule', body), {
    success: 'Lesson rescheduled',
    silentErrors: true,
  });
export const useCoverTeacher = (id: string) =>
  useAreaCommand(
    'lessons',
    (teacherId: string | null) => put(id, 'cover-teacher', { teacher_id: teacherId }),
    {
      success: 'Cover teacher saved',
      silentErrors: true,
    },
  );
export const useLessonNotes = (id: string) =>
  useAreaCommand('lessons', (notes: string) => put(id, 'notes', { notes }), { success: 'Notes saved' });

/** Adds a schedule to a programme (the planner runs at once); refreshes schedules and lessons. */
export const useAddSchedule = (programmeId: string) =>
  useAreaCommand(
    'schedules',
    (body: ScheduleInput) =>
      apiRequest<ScheduleWritten>(`/api/v1/programmes/${encodeURIComponent(programmeId)}/schedules`, {
        method: 'POST',
        json: body,
      }),
    { silentErrors: true, also: (_r, _v, client) => client.invalidateQueries({ queryKey: ['lessons'] }) },
  );

export interface ExceptionInput {
  local_date: string;
  action: 'skip' | 'move';
  new_local_start?: string | null;
}

/** Skips or moves one date of a schedule (the planner runs at once). */
export const useScheduleException = (scheduleId: string) =>
  useAreaCommand(
    'schedules',
    (body: ExceptionInput) =>
      apiRequest<ScheduleWritten>(`/api/v1/schedules/${encodeURIComponent(scheduleId)}/exceptions`, {
        method: 'POST',
        json: body,
      }),
    {
      success: 'Schedule exception saved',
      silentErrors: true,
      also: (_r, _v, client) => client.invalidateQueries({ queryKey: ['lessons'] }),
    },
  );
