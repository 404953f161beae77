import { lazy } from 'react';
import { screen, type Feature } from '../../shared/routing/screens';

const ActivatePage = lazy(() => import('./pages/ActivatePage').then((m) => ({ default: m.ActivatePage })));
const PartnerRegistrationPage = lazy(() =>
  import('./pages/PartnerRegistrationPage').then((m) => ({ default: m.PartnerRegistrationPage })),
);
const ProfilePage = lazy(() => import('./pages/ProfilePage').then((m) => ({ default: m.ProfilePage })));

export const account: Feature = {
  screens: { profile: screen(ProfilePage) },
  publicScreens: {
    activate: screen(ActivatePage),
    'register/partner/invite': screen(PartnerRegistrationPage),
  },
};
