import { useEffect, type ReactNode } from 'react';
import { Navigate, Outlet, useLocation, type Location } from 'react-router-dom';
import { defaultRoute, type CurrentUser } from '../shared/current-user';
import { peekPermissions, readPermissions, useSession } from '../shared/session';
import { hasPortalAccess, type AccessPredicate } from './access';

interface FromState {
  from?: string;
}

/**
 * Where to go after signing in: the protected page that sent the visitor to Login, else the user's
 * default route (spec §2).
 */
export function redirectTargetAfterLogin(location: Location, user: CurrentUser | null): string {
  const from = (location.state as FromState | null)?.from;
  // Only same-app paths: never "//host" or absolute URLs.
  if (
    typeof from === 'string' &&
    from.startsWith('/') &&
    !from.startsWith('//') &&
    from !== '/login' &&
    from !== '/forbidden'
  ) {
    return from;
  }
  return defaultRoute(user);
}

/** The signed-in user may use the portal: a token plus stored user details with a portal-access marker. */
export function useAllowedUser(): CurrentUser | null {
  const token = useSession((state) => state.token);
  const user = useSession((state) => state.user);
  if (token === null || user === null) return null;
  return hasPortalAccess(user.permission_list) ? user : null;
}

/** Reads the permissions after render; missing user details log the user out (spec §4). */
function EndSessionWithoutDetails() {
  useEffect(() => {
    readPermissions();
  }, []);
  return null;
}

/**
 * Protected routes (spec §2): no session → Login; a session without stored user details → logout;
 * a user without portal access → Forbidden.
 */
export function RequirePortalAccess({ children }: { children?: ReactNode }) {
  const token = useSession((state) => state.token);
  const user = useSession((state) => state.user);
  const location = useLocation();
  if (token === null) {
    const from = `${location.pathname}${location.search}${location.hash}`;
    return <Navigate to="/login" replace state={from === '/' ? undefined : ({ from } satisfies FromState)} />;
  }
  if (user === null) return <EndSessionWithoutDetails />;
  const permissions = peekPermissions() ?? user.permission_list;
  if (!hasPortalAccess(permissions)) return <Navigate to="/forbidden" replace />;
  return children ?? <Outlet />;
}

/** Login and Forbidden: a user already allowed into the portal goes to the default route (spec §2). */
export function RedirectWhenSignedIn() {
  const user = useAllowedUser();
  const location = useLocation();
  if (user !== null) return <Navigate to={redirectTargetAfterLogin(location, user)} replace />;
  return <Outlet />;
}

/** `/`: the user's default custom dashboard if it is theirs, else Dashboard (spec §2). */
export function DefaultRouteRedirect() {
  const user = useSession((state) => state.user);
  return <Navigate to={defaultRoute(user)} replace />;
}

/** A route with a requirement: without it the user sees `fallback` inside the portal layout. */
export function RequireAccess({
  allows,
  fallback,
  children,
}: {
  allows: AccessPredicate;
  fallback: ReactNode;
  children: ReactNode;
}) {
  const user = useSession((state) => state.user);
  const permissions = user === null ? [] : (peekPermissions() ?? user.permission_list);
  return allows(permissions) ? children : fallback;
}
