import { lazy, Suspense, type ReactNode } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router-dom';
import { LoginPage } from '../features/auth/pages/LoginPage';
import { PasswordResetPage } from '../features/auth/pages/PasswordResetPage';
import { ForbiddenPage } from '../features/errors/pages/ForbiddenPage';
import { NotFoundPage } from '../features/errors/pages/NotFoundPage';
import { RouteErrorPage } from '../features/errors/pages/RouteErrorPage';
import { InvalidLinkPage, PublicNotBuiltPage } from '../features/errors/pages/PublicMessagePages';
import { NoAccessPage, NotBuiltPage } from '../features/shell/pages/NotBuiltPage';
import { ScreenSkeleton } from '../shared/ui/ScreenSkeleton';
import { configureApiClient } from '../shared/api/client';
import { configureSessionRules, useSession } from '../shared/session';
import { DefaultRouteRedirect, RedirectWhenSignedIn, RequireAccess, RequirePortalAccess } from './guards';
import { AuthLayout } from './layouts/AuthLayout';
import { queryClient } from './query-client';
import { INVALID_TOKEN_ROUTES, PROTECTED_ROUTES, PUBLIC_ROUTES, type PortalRoute } from './routes';

// Feature screens load on first visit (one chunk per area), so the first screen stays small: the
// login screen loads neither the portal's shell nor the dashboard (`npm run size` reports the sizes).
const PortalLayout = lazy(() => import('./layouts/PortalLayout').then((m) => ({ default: m.PortalLayout })));
const DashboardPage = lazy(() =>
  import('../features/dashboard/pages/DashboardPage').then((m) => ({ default: m.DashboardPage })),
);
const UsersListPage = lazy(() => import('../features/users/pages/UsersListPage'));
const UserDetailsPage = lazy(() => import('../features/users/pages/UserDetailsPage'));
const UserEditPage = lazy(() => import('../features/users/pages/UserEditPage'));
const UserAuditPage = lazy(() => import('../features/users/pages/UserAuditPage'));
const MyUsersPage = lazy(() => import('../features/users/pages/MyUsersPage'));
const MyUsersImportPage = lazy(() => import('../features/users/pages/MyUsersImportPage'));
const ImportUsersPage = lazy(() => import('../features/users/pages/ImportUsersPage'));
const UserActivityPage = lazy(() => import('../features/activity/pages/UserActivityPage'));
const CustomFieldsPage = lazy(() => import('../features/custom-fields/pages/CustomFieldsPage'));

const CustomerDetailsPage = lazy(() =>
  import('../features/customers/pages/CustomerDetailsPage').then((m) => ({ default: m.CustomerDetailsPage })),
);
const CustomersPage = lazy(() =>
  import('../features/customers/pages/CustomersPage').then((m) => ({ default: m.CustomersPage })),
);
const OnePageProfilePage = lazy(() =>
  import('../features/one-page-profiles/pages/OnePageProfilePage').then((m) => ({
    default: m.OnePageProfilePage,
  })),
);
const OnePageProfilesPage = lazy(() =>
  import('../features/one-page-profiles/pages/OnePageProfilesPage').then((m) => ({
    default: m.OnePageProfilesPage,
  })),
);
const IncidentPage = lazy(() =>
  import('../features/safeguarding/pages/IncidentPage').then((m) => ({ default: m.IncidentPage })),
);
const IncidentTypesPage = lazy(() =>
  import('../features/safeguarding/pages/IncidentTypesPage').then((m) => ({ default: m.IncidentTypesPage })),
);
const MyIncidentsPage = lazy(() =>
  import('../features/safeguarding/pages/MyIncidentsPage').then((m) => ({ default: m.MyIncidentsPage })),
);
const SafeguardingIncidentsPage = lazy(() =>
  import('../features/safeguarding/pages/SafeguardingIncidentsPage').then((m) => ({
    default: m.SafeguardingIncidentsPage,
  })),
);
const FeedbackPage = lazy(() =>
  import('../features/safeguarding/pages/FeedbackPages').then((m) => ({ default: m.FeedbackPage })),
);
const FeedbackConfirmPage = lazy(() =>
  import('../features/safeguarding/pages/FeedbackPages').then((m) => ({ default: m.FeedbackConfirmPage })),
);
const FeedbackSubmittedPage = lazy(() =>
  import('../features/safeguarding/pages/FeedbackPages').then((m) => ({ default: m.FeedbackSubmittedPage })),
);
const RelationshipsPage = lazy(() => import('../features/relations/pages/RelationshipsPage'));
const PermissionsPage = lazy(() => import('../features/permissions/pages/PermissionsPage'));
const PermissionTemplatesPage = lazy(
  () => import('../features/permission-templates/pages/PermissionTemplatesPage'),
);
const PermissionTemplatePage = lazy(
  () => import('../features/permission-templates/pages/PermissionTemplatePage'),
);
const NetworksPage = lazy(() => import('../features/networks/pages/NetworksPage'));
const NetworkDetailsPage = lazy(() => import('../features/networks/pages/NetworkDetailsPage'));
const NetworkEditPage = lazy(() => import('../features/networks/pages/NetworkEditPage'));
const ActivatePage = lazy(() =>
  import('../features/account/pages/ActivatePage').then((m) => ({ default: m.ActivatePage })),
);
const PartnerRegistrationPage = lazy(() =>
  import('../features/account/pages/PartnerRegistrationPage').then((m) => ({
    default: m.PartnerRegistrationPage,
  })),
);
const ProfilePage = lazy(() =>
  import('../features/account/pages/ProfilePage').then((m) => ({ default: m.ProfilePage })),
);
const lazyScreen = (node: ReactNode) => <Suspense fallback={<ScreenSkeleton />}>{node}</Suspense>;

/** Screens that exist; every other route of the table shows the "not built yet" page. */
export const BUILT_SCREENS: Record<string, () => ReactNode> = {
  'dashboard/:type?': () => lazyScreen(<DashboardPage />),
  'safeguarding-incidents': () => lazyScreen(<SafeguardingIncidentsPage />),
  'safeguarding-incidents/:id': () => lazyScreen(<IncidentPage />),
  'my-safeguarding-incidents': () => lazyScreen(<MyIncidentsPage />),
  'my-safeguarding-incidents/:id': () => lazyScreen(<IncidentPage partnerView />),
  'safeguarding-incident-types': () => lazyScreen(<IncidentTypesPage />),
  customers: () => lazyScreen(<CustomersPage />),
  'customers/details/:id': () => lazyScreen(<CustomerDetailsPage />),
  'customers/:id': () => lazyScreen(<CustomerDetailsPage />),
  'users/one-page-profiles': () => lazyScreen(<OnePageProfilesPage />),
  'one-page-profiles/:id/details': () => lazyScreen(<OnePageProfilePage />),
  users: () => lazyScreen(<UsersListPage key="all" />),
  'users/students': () => lazyScreen(<UsersListPage key="students" type="students" />),
  'users/teachers': () => lazyScreen(<UsersListPage key="teachers" type="teachers" />),
  'users/partners': () => lazyScreen(<UsersListPage key="partners" type="partners" />),
  'users/admins': () => lazyScreen(<UsersListPage key="admins" type="admins" />),
  'users/:id/details': () => lazyScreen(<UserDetailsPage />),
  'users/:id': () => lazyScreen(<UserEditPage />),
  'users/:id/audit': () => lazyScreen(<UserAuditPage />),
  'users/permissions': () => lazyScreen(<PermissionsPage />),
  'my-users': () => lazyScreen(<MyUsersPage />),
  'my-users/import/:type': () => lazyScreen(<MyUsersImportPage />),
  'my-users/:id/details': () => lazyScreen(<UserDetailsPage area="my-users" />),
  'my-users/:type/:id': () => lazyScreen(<UserEditPage area="my-users" />),
  'users/import/:type': () => lazyScreen(<ImportUsersPage />),
  fields: () => lazyScreen(<CustomFieldsPage />),
  'users/activity': () => lazyScreen(<UserActivityPage />),
  'permission-templates': () => lazyScreen(<PermissionTemplatesPage />),
  'permission-templates/:id': () => lazyScreen(<PermissionTemplatePage key="template" />),
  networks: () => lazyScreen(<NetworksPage />),
  'networks/details/:id': () => lazyScreen(<NetworkDetailsPage />),
  'networks/:id': () => lazyScreen(<NetworkEditPage />),
  profile: () => lazyScreen(<ProfilePage />),
  'partner/relationships/:tabName?': () => lazyScreen(<RelationshipsPage />),
};

/** Public screens that exist; the other public routes show the "not built yet" page. */
export const BUILT_PUBLIC_SCREENS: Record<string, () => ReactNode> = {
  activate: () => lazyScreen(<ActivatePage />),
  'register/partner/invite': () => lazyScreen(<PartnerRegistrationPage />),
  'safeguarding-incident/feedback/:token?': () => lazyScreen(<FeedbackPage />),
  'safeguarding-incident/feedback/submitted': () => lazyScreen(<FeedbackSubmittedPage />),
  'safeguarding-incident/feedback/:feedbackId/confirm/:token?': () => lazyScreen(<FeedbackConfirmPage />),
};

function protectedRoute(route: PortalRoute & { group: string }): RouteObject {
  const screen = BUILT_SCREENS[route.path]?.() ?? <NotBuiltPage area={route.title} group={route.group} />;
  return {
    path: route.path,
    errorElement: <RouteErrorPage />,
    element: route.requirement ? (
      <RequireAccess allows={route.requirement.allows} fallback={<NoAccessPage area={route.title} />}>
        {screen}
      </RequireAccess>
    ) : (
      screen
    ),
  };
}

export const router = createBrowserRouter([
  {
    // Public routes (auth layout, spec §2).
    element: <AuthLayout />,
    errorElement: <RouteErrorPage />,
    children: [
      {
        element: <RedirectWhenSignedIn />,
        children: [
          { path: 'login', element: <LoginPage /> },
          { path: 'forbidden', element: <ForbiddenPage /> },
        ],
      },
      { path: 'notfound', element: <NotFoundPage /> },
      ...INVALID_TOKEN_ROUTES.map((route) => ({
        path: route.path,
        element: <InvalidLinkPage flow={route.title} />,
      })),
      { path: 'passwordreset', element: <PasswordResetPage /> },
      ...PUBLIC_ROUTES.filter((route) => route.path !== 'passwordreset').map((route) => ({
        path: route.path,
        element: BUILT_PUBLIC_SCREENS[route.path]?.() ?? <PublicNotBuiltPage flow={route.title} />,
      })),
      { path: '*', element: <NotFoundPage /> },
    ],
  },
  {
    // Protected routes: portal access, then each route's own requirement (spec §2).
    path: '/',
    errorElement: <RouteErrorPage />,
    element: (
      <RequirePortalAccess>
        <Suspense fallback={<ScreenSkeleton />}>
          <PortalLayout />
        </Suspense>
      </RequirePortalAccess>
    ),
    children: [{ index: true, element: <DefaultRouteRedirect /> }, ...PROTECTED_ROUTES.map(protectedRoute)],
  },
]);

function endSession(): void {
  useSession.getState().signOut();
  queryClient.clear();
  // Already on Login (sent there with a notice, e.g. after a password change): stay, keeping the notice.
  if (router.state.location.pathname !== '/login') void router.navigate('/login', { replace: true });
}

// Spec §8: 401 (or 403 "Could not validate credentials") ends the session; 404 "User not found" → NotFound.
configureApiClient({
  onUnauthorized: endSession,
  onUserNotFound: () => {
    void router.navigate('/notfound', { replace: true });
  },
});

// Spec §4: reading permissions without stored user details logs the user out.
configureSessionRules({ onMissingDetails: endSession });
