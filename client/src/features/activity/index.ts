import { lazy } from 'react';
import { screen, type Feature } from '../../shared/routing/screens';

const UserActivityPage = lazy(() => import('./pages/UserActivityPage'));

export const activity: Feature = {
  screens: { 'users/activity': screen(UserActivityPage) },
};
