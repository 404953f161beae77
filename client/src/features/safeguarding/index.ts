import { lazy } from 'react';
import { screen, type Feature } from '../../shared/routing/screens';

const IncidentPage = lazy(() => import('./pages/IncidentPage').then((m) => ({ default: m.IncidentPage })));
const IncidentTypesPage = lazy(() =>
  import('./pages/IncidentTypesPage').then((m) => ({ default: m.IncidentTypesPage })),
);
const MyIncidentsPage = lazy(() =>
  import('./pages/MyIncidentsPage').then((m) => ({ default: m.MyIncidentsPage })),
);
const ReportedConcernsPage = lazy(() =>
  import('./pages/ReportedConcernsPage').then((m) => ({ default: m.ReportedConcernsPage })),
);
const SafeguardingIncidentsPage = lazy(() =>
  import('./pages/SafeguardingIncidentsPage').then((m) => ({ default: m.SafeguardingIncidentsPage })),
);
const FeedbackPage = lazy(() => import('./pages/FeedbackPages').then((m) => ({ default: m.FeedbackPage })));
const FeedbackConfirmPage = lazy(() =>
  import('./pages/FeedbackPages').then((m) => ({ default: m.FeedbackConfirmPage })),
);
const FeedbackSubmittedPage = lazy(() =>
  import('./pages/FeedbackPages').then((m) => ({ default: m.FeedbackSubmittedPage })),
);

// Safeguarding queries sit under 'safeguarding' and are refreshed by `useSafeguardingLive` (no
// registry root: an incident's readers differ, so the stream kinds have `queryRoot: null`).
export const safeguarding: Feature = {
  screens: {
    'safeguarding-incidents': screen(SafeguardingIncidentsPage),
    'safeguarding-incidents/:id': screen(IncidentPage),
    'my-safeguarding-incidents': screen(MyIncidentsPage),
    'my-safeguarding-incidents/:id': screen(IncidentPage, { partnerView: true }),
    'my-reported-concerns': screen(ReportedConcernsPage),
    'safeguarding-incident-types': screen(IncidentTypesPage),
  },
  publicScreens: {
    'safeguarding-incident/feedback/:token?': screen(FeedbackPage),
    'safeguarding-incident/feedback/submitted': screen(FeedbackSubmittedPage),
    'safeguarding-incident/feedback/:feedbackId/confirm/:token?': screen(FeedbackConfirmPage),
  },
};
