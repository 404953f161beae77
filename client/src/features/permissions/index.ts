import { lazy } from 'react';
import { screen, type Feature } from '../../shared/routing/screens';

const PermissionsPage = lazy(() => import('./pages/PermissionsPage'));

export const permissions: Feature = {
  screens: { 'users/permissions': screen(PermissionsPage) },
};
