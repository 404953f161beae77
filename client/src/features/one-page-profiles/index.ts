import { lazy } from 'react';
import { screen, type Feature } from '../../shared/routing/screens';
import { onePageProfiles as resource } from './api';

const OnePageProfilePage = lazy(() =>
  import('./pages/OnePageProfilePage').then((m) => ({ default: m.OnePageProfilePage })),
);
const OnePageProfilesPage = lazy(() =>
  import('./pages/OnePageProfilesPage').then((m) => ({ default: m.OnePageProfilesPage })),
);

export const onePageProfiles: Feature = {
  screens: {
    'users/one-page-profiles': screen(OnePageProfilesPage),
    'one-page-profiles/:id/details': screen(OnePageProfilePage),
  },
  liveRoots: { onePageProfile: resource.root },
};
