import { lazy } from 'react';
import { screen, type Feature } from '../../shared/routing/screens';
import { coverRequests } from './api';

const CoverRequestsPage = lazy(() =>
  import('./pages/CoverRequestsPage').then((m) => ({ default: m.CoverRequestsPage })),
);
const MeetingJoinPage = lazy(() =>
  import('./pages/MeetingJoinPage').then((m) => ({ default: m.MeetingJoinPage })),
);

/** Cover requests and the meeting join link (decision 0054). */
export const cover: Feature = {
  screens: { 'cover-requests': screen(CoverRequestsPage) },
  publicScreens: { 'meeting/join/:meetingId': screen(MeetingJoinPage) },
  liveRoots: { coverRequest: coverRequests.root, meeting: 'lessons' },
};
