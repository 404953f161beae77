import { lazy } from 'react';
import { screen, type Feature } from '../../shared/routing/screens';
import { templates } from './api';

const PermissionTemplatesPage = lazy(() => import('./pages/PermissionTemplatesPage'));
const PermissionTemplatePage = lazy(() => import('./pages/PermissionTemplatePage'));

export const permissionTemplates: Feature = {
  screens: {
    'permission-templates': screen(PermissionTemplatesPage),
    'permission-templates/:id': screen(PermissionTemplatePage, {}, 'template'),
  },
  liveRoots: { permissionTemplate: templates.root },
};
