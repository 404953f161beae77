import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../shared/api/client';
import type { ListParams } from '../../shared/api/resource';
import type { ApiSchema, Page } from '../../shared/api/types';

/** The server's NotificationView (generated from the API document). */
export type Notification = ApiSchema<'NotificationView'>;
export type Unread = ApiSchema<'UnreadView'>;

/** The query root: `notifications-{userId}` live messages (the read cursor) refresh it via the registry. */
export const NOTIFICATIONS_KEY = 'notifications';
const BASE = '/api/v1/notifications';

export const useNotifications = ({ page, size }: ListParams) =>
  useQuery({
    queryKey: [NOTIFICATIONS_KEY, 'list', page, size],
    queryFn: () => apiRequest<Page<Notification>>(`${BASE}/`, { query: { page, size } }),
    placeholderData: keepPreviousData,
    meta: { silentErrors: true },
  });

/** The bell's count; a failure leaves the bell without a number rather than showing a toast. */
export const useUnread = () =>
  useQuery({
    queryKey: [NOTIFICATIONS_KEY, 'unread'],
    queryFn: () => apiRequest<Unread>(`${BASE}/unread-count`),
    meta: { silentErrors: true },
  });

/** Marks everything up to the newest (or `upTo`) read, then refreshes the bell and the list. */
export function useMarkRead() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (upTo?: string) =>
      apiRequest<Unread>(`${BASE}/read`, { method: 'PUT', json: upTo ? { up_to_position: upTo } : {} }),
    onSuccess: () => client.invalidateQueries({ queryKey: [NOTIFICATIONS_KEY] }),
  });
}
