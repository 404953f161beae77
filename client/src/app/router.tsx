import { createBrowserRouter, type RouteObject } from 'react-router-dom';
import { LoginPage } from '../features/auth/pages/LoginPage';
import { PasswordResetPage } from '../features/auth/pages/PasswordResetPage';
import { DashboardPage } from '../features/dashboard/pages/DashboardPage';
import { ForbiddenPage } from '../features/errors/pages/ForbiddenPage';
import { NotFoundPage } from '../features/errors/pages/NotFoundPage';
import { InvalidLinkPage, PublicNotBuiltPage } from '../features/errors/pages/PublicMessagePages';
import { CustomerDetailsPage } from '../features/customers/pages/CustomerDetailsPage';
import { CustomersPage } from '../features/customers/pages/CustomersPage';
import { OnePageProfilePage } from '../features/one-page-profiles/pages/OnePageProfilePage';
import { OnePageProfilesPage } from '../features/one-page-profiles/pages/OnePageProfilesPage';
import { IncidentPage } from '../features/safeguarding/pages/IncidentPage';
import { IncidentTypesPage } from '../features/safeguarding/pages/IncidentTypesPage';
import { MyIncidentsPage } from '../features/safeguarding/pages/MyIncidentsPage';
import { SafeguardingIncidentsPage } from '../features/safeguarding/pages/SafeguardingIncidentsPage';
import { NoAccessPage, NotBuiltPage } from '../features/shell/pages/NotBuiltPage';
import { configureApiClient } from '../shared/api/client';
import { configureSessionRules, useSession } from '../shared/session';
import { DefaultRouteRedirect, RedirectWhenSignedIn, RequireAccess, RequirePortalAccess } from './guards';
import { AuthLayout } from './layouts/AuthLayout';
import { PortalLayout } from './layouts/PortalLayout';
import { queryClient } from './query-client';
import { INVALID_TOKEN_ROUTES, PROTECTED_ROUTES, PUBLIC_ROUTES, type PortalRoute } from './routes';

/** Screens that exist; every other route of the table shows the "not built yet" page. */
const BUILT_SCREENS: Record<string, () => React.ReactNode> = {
  'dashboard/:type?': () => <DashboardPage />,
  'safeguarding-incidents': () => <SafeguardingIncidentsPage />,
  'safeguarding-incidents/:id': () => <IncidentPage />,
  'my-safeguarding-incidents': () => <MyIncidentsPage />,
  'my-safeguarding-incidents/:id': () => <IncidentPage partnerView />,
  'safeguarding-incident-types': () => <IncidentTypesPage />,
  customers: () => <CustomersPage />,
  'customers/details/:id': () => <CustomerDetailsPage />,
  'customers/:id': () => <CustomerDetailsPage />,
  'users/one-page-profiles': () => <OnePageProfilesPage />,
  'one-page-profiles/:id/details': () => <OnePageProfilePage />,
};

function protectedRoute(route: PortalRoute & { group: string }): RouteObject {
  const screen = BUILT_SCREENS[route.path]?.() ?? <NotBuiltPage area={route.title} group={route.group} />;
  return {
    path: route.path,
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
        element: <PublicNotBuiltPage flow={route.title} />,
      })),
      { path: '*', element: <NotFoundPage /> },
    ],
  },
  {
    // Protected routes: portal access, then each route's own requirement (spec §2).
    path: '/',
    element: (
      <RequirePortalAccess>
        <PortalLayout />
      </RequirePortalAccess>
    ),
    children: [{ index: true, element: <DefaultRouteRedirect /> }, ...PROTECTED_ROUTES.map(protectedRoute)],
  },
]);

function endSession(): void {
  useSession.getState().signOut();
  queryClient.clear();
  void router.navigate('/login', { replace: true });
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
