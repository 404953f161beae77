import { lazy, Suspense, type ReactNode } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router-dom';
import { LoginPage } from '../features/auth/pages/LoginPage';
import { ForbiddenPage } from '../features/errors/pages/ForbiddenPage';
import { NotFoundPage } from '../features/errors/pages/NotFoundPage';
import { RouteErrorPage } from '../features/errors/pages/RouteErrorPage';
import { InvalidLinkPage, PublicNotBuiltPage } from '../features/errors/pages/PublicMessagePages';
import { NoAccessPage, NotBuiltPage } from '../features/shell/pages/NotBuiltPage';
import { ScreenSkeleton } from '../shared/ui/ScreenSkeleton';
import { configureApiClient } from '../shared/api/client';
import { configureSessionRules, useSession } from '../shared/session';
import { DefaultRouteRedirect, RedirectWhenSignedIn, RequireAccess, RequirePortalAccess } from './guards';
import { BUILT_PUBLIC_SCREENS, BUILT_SCREENS } from './built-screens';
import { AuthLayout } from './layouts/AuthLayout';
import { queryClient } from './query-client';
import { INVALID_TOKEN_ROUTES, PROTECTED_ROUTES, PUBLIC_ROUTES, type PortalRoute } from './routes';

// Feature screens load on first visit (one chunk per area), so the first screen stays small: the
// login screen loads neither the portal's shell nor the dashboard (`npm run size` reports the sizes).
const PortalLayout = lazy(() => import('./layouts/PortalLayout').then((m) => ({ default: m.PortalLayout })));

const lazyScreen = (node: ReactNode) => <Suspense fallback={<ScreenSkeleton />}>{node}</Suspense>;

function protectedRoute(route: PortalRoute & { group: string }): RouteObject {
  const built = BUILT_SCREENS[route.path];
  const screen = built ? lazyScreen(built()) : <NotBuiltPage area={route.title} group={route.group} />;
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
      ...PUBLIC_ROUTES.map((route) => {
        const built = BUILT_PUBLIC_SCREENS[route.path];
        return {
          path: route.path,
          element: built ? lazyScreen(built()) : <PublicNotBuiltPage flow={route.title} />,
        };
      }),
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
