import { apiRequest } from '../../shared/api/client';
import { createResource, useAreaCommand } from '../../shared/api/resource';
import type { ApiSchema } from '../../shared/api/types';

/** The server's views (generated from the API document). */
export type CoverRequest = ApiSchema<'CoverRequestView'>;
export type CoverRequestInput = ApiSchema<'CreateCoverRequestBody'>;
export type MeetingJoin = ApiSchema<'MeetingJoinView'>;

/** Cover requests under the `cover-requests` root (live: `coverRequest-{id}` streams). */
export const coverRequests = createResource<CoverRequest, CoverRequestInput>({
  root: 'cover-requests',
  path: '/api/v1/cover-requests/',
});

const put = (id: string, action: 'accept' | 'decline' | 'cancel') =>
  apiRequest<{ id: string; position: string }>(coverRequests.url(id, `/${action}`), {
    method: 'PUT',
    json: {},
  });

export const useAcceptCover = () =>
  useAreaCommand('cover-requests', (id: string) => put(id, 'accept'), {
    success: 'Cover accepted: the lesson is yours',
    silentErrors: true,
    also: (_result, _id, queryClient) => queryClient.invalidateQueries({ queryKey: ['lessons'] }),
  });
export const useDeclineCover = () =>
  useAreaCommand('cover-requests', (id: string) => put(id, 'decline'), {
    success: 'Cover declined',
    silentErrors: true,
  });
export const useCancelCover = () =>
  useAreaCommand('cover-requests', (id: string) => put(id, 'cancel'), {
    success: 'Cover request cancelled',
    silentErrors: true,
  });
export const useRequestCover = () =>
  useAreaCommand('cover-requests', (body: CoverRequestInput) => coverRequests.create(body), {
    success: 'Cover requested',
    silentErrors: true,
    also: (_result, _body, queryClient) => queryClient.invalidateQueries({ queryKey: ['lessons'] }),
  });

/** `POST /meetings/{meetingId}/join`: records the join and answers the meeting URL. */
export const joinMeeting = (meetingId: string) =>
  apiRequest<MeetingJoin>(`/api/v1/meetings/${encodeURIComponent(meetingId)}/join`, {
    method: 'POST',
    json: {},
  });
