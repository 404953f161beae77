import { lazy } from 'react';
import { screen, type Feature } from '../../shared/routing/screens';

const ReportsPage = lazy(() => import('./pages/ReportsPage').then((m) => ({ default: m.ReportsPage })));

/** The report files (decision 0058). */
export const reports: Feature = {
  screens: { 'reports/:reportName?': screen(ReportsPage) },
};
