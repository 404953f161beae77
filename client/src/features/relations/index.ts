import { lazy } from 'react';
import { screen, type Feature } from '../../shared/routing/screens';

const RelationshipsPage = lazy(() => import('./pages/RelationshipsPage'));

export const relations: Feature = {
  screens: { 'partner/relationships/:tabName?': screen(RelationshipsPage) },
};
