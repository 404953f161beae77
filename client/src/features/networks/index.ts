import { lazy } from 'react';
import { screen, type Feature } from '../../shared/routing/screens';
import { networks as resource } from './api';

const NetworksPage = lazy(() => import('./pages/NetworksPage'));
const NetworkDetailsPage = lazy(() => import('./pages/NetworkDetailsPage'));
const NetworkEditPage = lazy(() => import('./pages/NetworkEditPage'));

export const networks: Feature = {
  screens: {
    networks: screen(NetworksPage),
    'networks/details/:id': screen(NetworkDetailsPage),
    'networks/:id': screen(NetworkEditPage),
  },
  liveRoots: { network: resource.root },
};
