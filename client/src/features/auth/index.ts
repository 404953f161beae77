import { lazy } from 'react';
import { screen, type Feature } from '../../shared/routing/screens';

// The login screen itself is part of the first screen (`app/router.tsx`); password reset loads on visit.
const PasswordResetPage = lazy(() =>
  import('./pages/PasswordResetPage').then((m) => ({ default: m.PasswordResetPage })),
);

export const auth: Feature = {
  publicScreens: { passwordreset: screen(PasswordResetPage) },
};
