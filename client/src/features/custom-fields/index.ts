import { lazy } from 'react';
import { screen, type Feature } from '../../shared/routing/screens';

const CustomFieldsPage = lazy(() => import('./pages/CustomFieldsPage'));

export const customFields: Feature = {
  screens: { fields: screen(CustomFieldsPage) },
};
