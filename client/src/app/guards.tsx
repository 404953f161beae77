import { Navigate, Outlet, useLocation, type Location } from 'react-router-dom';
import { useSession } from '../shared/session';

interface FromState {
  from?: string;
}

/** Where to go after signing in: the protected page that sent the visitor to Login, else the default route. */
export function redirectTargetAfterLogin(location: Location): string {
  const from = (location.state as FromState | null)?.from;
  // Only same-app paths: never "//host" or absolute URLs.
  if (typeof from === 'string' && from.startsWith('/') && !from.startsWith('//') && from !== '/login') {
    return from;
  }
  return '/';
}

/** Protected routes: a visitor without a session goes to Login (spec §2). */
export function RequireSession() {
  const token = useSession((state) => state.token);
  const location = useLocation();
  if (token === null) {
    const from = `${location.pathname}${location.search}${location.hash}`;
    return <Navigate to="/login" replace state={from === '/' ? undefined : ({ from } satisfies FromState)} />;
  }
  return <Outlet />;
}

/**
 * Login and Forbidden: a visitor who is already allowed into the portal goes to the default route (spec §2).
 * Until user details and permissions are loaded, holding a session token counts as allowed.
 */
export function RedirectWhenSignedIn() {
  const token = useSession((state) => state.token);
  const location = useLocation();
  if (token !== null) return <Navigate to={redirectTargetAfterLogin(location)} replace />;
  return <Outlet />;
}
