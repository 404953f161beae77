import { createBrowserRouter } from 'react-router-dom';
import { LoginPage } from '../features/auth/pages/LoginPage';
import { ForbiddenPage } from '../features/errors/pages/ForbiddenPage';
import { NotFoundPage } from '../features/errors/pages/NotFoundPage';
import { HomePage } from '../features/home/pages/HomePage';
import { configureApiClient } from '../shared/api/client';
import { useSession } from '../shared/session';
import { RedirectWhenSignedIn, RequireSession } from './guards';
import { AuthLayout } from './layouts/AuthLayout';
import { queryClient } from './query-client';

export const router = createBrowserRouter([
  {
    // Public routes (auth layout).
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
      { path: '*', element: <NotFoundPage /> },
    ],
  },
  {
    // Protected routes.
    path: '/',
    element: <RequireSession />,
    children: [{ index: true, element: <HomePage /> }],
  },
]);

// Spec §8: 401 (or 403 "Could not validate credentials") ends the session; 404 "User not found" → NotFound.
configureApiClient({
  onUnauthorized: () => {
    useSession.getState().signOut();
    queryClient.clear();
    void router.navigate('/login', { replace: true });
  },
  onUserNotFound: () => {
    void router.navigate('/notfound', { replace: true });
  },
});
