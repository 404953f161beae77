import { lazy } from 'react';
import { screen, type Feature } from '../../shared/routing/screens';

const MyChildPage = lazy(() => import('./pages/MyChildPage').then((m) => ({ default: m.MyChildPage })));

/** A family's view of their child (decision 0062): timetable, attendance, reports, the school's contacts. */
export const family: Feature = {
  screens: { 'my-child/:id?': screen(MyChildPage) },
};
