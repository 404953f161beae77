import { lazy } from 'react';
import { screen, type Feature } from '../../shared/routing/screens';
import { NOTIFICATIONS_KEY } from './api';

const NotificationsPage = lazy(() =>
  import('./pages/NotificationsPage').then((m) => ({ default: m.NotificationsPage })),
);

export const notifications: Feature = {
  screens: { notifications: screen(NotificationsPage) },
  liveRoots: { notifications: NOTIFICATIONS_KEY },
};
