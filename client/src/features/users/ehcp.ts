import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../shared/api/client';
import { useAreaCommand } from '../../shared/api/resource';
import type { Page, PositionAnswer } from '../../shared/api/types';
import type { CustomerRole, UserView } from './api';
import { MARKER_PERMISSIONS, NAMED_PERMISSIONS, PARTNER } from '@portal/projections/permissions';

/**
 * EHCP reminders and requests (server/src/identity/ehcp/, decision 0035). The predicates mirror the
 * server's policy (`ehcpScope`, `maySendEhcpRequests`); the server decides in the end.
 */
export const CAN_ACCESS_AND_UPLOAD_EHCP = NAMED_PERMISSIONS.EHCP;
export const PARTNER_CAN_ACCESS_USER_RELATIONS = PARTNER.ACCESS_USER_RELATIONS;

export interface EhcpAccess {
  /** See and change the EHCP reminder list. */
  reminders: boolean;
  /** Ask people for a student's EHCP. */
  request: boolean;
}

export function ehcpAccess(permissions: readonly string[], customerType: CustomerRole | null): EhcpAccess {
  const has = (p: string) => permissions.includes(p);
  const partner = has(MARKER_PERMISSIONS.partner);
  const internal = has(MARKER_PERMISSIONS.admin) || has(MARKER_PERMISSIONS.teacher);
  return {
    reminders: has(MARKER_PERMISSIONS.admin) || (has(CAN_ACCESS_AND_UPLOAD_EHCP) && (internal || partner)),
    request:
      partner &&
      (customerType === 'super-admin' || customerType === 'admin') &&
      has(CAN_ACCESS_AND_UPLOAD_EHCP) &&
      has(PARTNER_CAN_ACCESS_USER_RELATIONS),
  };
}

/**
 * The list to PUT when one student's reminder is switched. The GET answers exactly the caller's part
 * of the list, and a PUT replaces exactly that part, so "what I see, plus or minus one" is right.
 */
export function withReminder(current: readonly string[], studentId: string, on: boolean): string[] {
  const rest = current.filter((id) => id !== studentId);
  return on ? [...rest, studentId] : rest;
}

type Candidate = Pick<
  UserView,
  'id' | 'full_name' | 'user_type' | 'has_access' | 'is_blocked' | 'permission_list'
>;

/**
 * The school users a requester may ask (the server's `recipientRefusal`): not themselves, not
 * students, able to sign in, and shown the students; sorted by name. (Partners cannot list the
 * provider's staff, so the screen offers their own school's users.)
 */
export function requestCandidates<T extends Candidate>(users: readonly T[], selfId: string | null): T[] {
  return users
    .filter(
      (u) =>
        u.id !== selfId &&
        u.user_type === 'partner' &&
        u.has_access &&
        !u.is_blocked &&
        u.permission_list.includes(PARTNER.SEE_ALL_STUDENTS_DETAILS),
    )
    .sort((a, b) => a.full_name.localeCompare(b.full_name));
}

export interface StudentFile {
  id: string;
  file_path: string;
  file_name: string;
  file_type: 'EHCP' | 'OTHER';
  uploaded_at: string;
}

export interface EhcpReminderItem {
  id: string;
  display_name: string;
  customer_name: string | null;
  has_ehcp_file: boolean;
  latest_ehcp_file: StudentFile | null;
  reminder_since: string;
}

export const ehcpKeys = { reminders: ['ehcp', 'reminders'] as const };

export function useEhcpReminders(enabled: boolean) {
  return useQuery({
    queryKey: ehcpKeys.reminders,
    queryFn: ({ signal }) =>
      apiRequest<{ items: EhcpReminderItem[] }>('/api/v1/users/students/ehcp-reminder', { signal }),
    enabled,
  });
}

export function useSetEhcpReminders() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (ids: string[]) =>
      apiRequest<PositionAnswer>('/api/v1/users/students/ehcp-reminder', { method: 'PUT', json: ids }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ehcpKeys.reminders }),
  });
}

/** The users of the requester's school they may see (GET /users/customers, up to 200 with access). */
export function useSchoolUsers(enabled: boolean) {
  return useQuery({
    queryKey: ['users', 'school-users'],
    queryFn: ({ signal }) =>
      apiRequest<Page<UserView>>('/api/v1/users/customers', {
        signal,
        query: { has_access: true, size: 200 },
      }),
    enabled,
  });
}

export function useRequestEhcp(studentId: string) {
  return useAreaCommand(
    'users',
    (recipientIds: string[]) =>
      apiRequest<PositionAnswer & { id: string; recipients: number }>(
        `/api/v1/users/students/${encodeURIComponent(studentId)}/ehcp-request`,
        { method: 'PUT', json: recipientIds },
      ),
    { silentErrors: true },
  );
}
