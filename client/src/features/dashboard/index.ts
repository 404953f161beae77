import { lazy } from 'react';
import { screen, type Feature } from '../../shared/routing/screens';

const DashboardPage = lazy(() => import('./pages/DashboardPage').then((m) => ({ default: m.DashboardPage })));

export const dashboard: Feature = {
  screens: { 'dashboard/:type?': screen(DashboardPage) },
};
