import { create } from 'zustand';
import { apiRequest, resetWritePosition, TOKEN_HEADER } from './api/client';
import { parseCurrentUser, type CurrentUser } from './current-user';
import { clearOnLogout, getItem, getToken, setItem, setToken, TOKEN_KEY } from './storage';

/**
 * Session rules (spec §4):
 * - the token, the user details and the permission list are kept in local storage;
 * - the permission list is cached in memory once read;
 * - reading permissions when user details or the permission list are missing logs the user out;
 * - logout clears the permission cache and local storage, except the keys storage.ts keeps; a logout
 *   the user asks for first ends the session on the server ({@link endServerSessions}).
 */

export const USER_DETAILS_KEY = 'user_details';
export const PERMISSION_LIST_KEY = 'permission_list';

let permissionCache: string[] | null = null;

export function clearPermissionCache(): void {
  permissionCache = null;
}

/** Stores the user details and their permission list, and refreshes the in-memory cache. */
export function storeUserDetails(user: CurrentUser): void {
  setItem(USER_DETAILS_KEY, user);
  setItem(PERMISSION_LIST_KEY, user.permission_list);
  permissionCache = [...user.permission_list];
}

export function readStoredUser(): CurrentUser | null {
  return parseCurrentUser(getItem<unknown>(USER_DETAILS_KEY));
}

function readStoredPermissions(): string[] | null {
  const stored = getItem<unknown>(PERMISSION_LIST_KEY);
  return Array.isArray(stored) && stored.every((item) => typeof item === 'string') ? stored : null;
}

let onMissingDetails: () => void = () => {};

/** What to do when permissions are read without stored user details (the app logs out and goes to Login). */
export function configureSessionRules(handlers: { onMissingDetails: () => void }): void {
  onMissingDetails = handlers.onMissingDetails;
}

/**
 * The permission list: from the memory cache, else from storage. When user details or the permission
 * list are missing from storage the user is logged out and `null` is returned.
 */
export function readPermissions(): string[] | null {
  if (permissionCache !== null) return permissionCache;
  const user = readStoredUser();
  const permissions = readStoredPermissions();
  if (user === null || permissions === null) {
    onMissingDetails();
    return null;
  }
  permissionCache = permissions;
  return permissionCache;
}

/** The permission list without side effects (for rendering): the cache, else storage, else null. */
export function peekPermissions(): string[] | null {
  if (permissionCache !== null) return permissionCache;
  if (readStoredUser() === null) return null;
  const permissions = readStoredPermissions();
  if (permissions !== null) permissionCache = permissions;
  return permissions;
}

/** Logout: clears the permission cache and local storage (keeping the spec's two keys). */
export function logoutStorage(): void {
  clearPermissionCache();
  clearOnLogout();
  resetWritePosition();
}

/** How long a sign-out waits for the server before clearing the session here anyway. */
export const LOGOUT_TIMEOUT_MS = 5000;

/**
 * Ends these sessions on the server (`POST /api/v1/logout` with each token, decision 0039), so a
 * token copied from this browser is refused from now on. Never throws and never runs the session-error
 * handlers: offline, a slow server or a token that has already ended must not keep anyone signed in
 * here, so the caller clears the local session whatever happened.
 */
export async function endServerSessions(
  tokens: readonly (string | null)[],
  timeoutMs = LOGOUT_TIMEOUT_MS,
): Promise<void> {
  const distinct = [...new Set(tokens.filter((token): token is string => Boolean(token)))];
  await Promise.allSettled(
    distinct.map((token) =>
      apiRequest<void>('/api/v1/logout', {
        method: 'POST',
        headers: { [TOKEN_HEADER]: token },
        handleSessionErrors: false,
        signal: AbortSignal.timeout(timeoutMs),
      }),
    ),
  );
}

/** The signed-in session, mirrored from storage for rendering. */
interface SessionState {
  token: string | null;
  user: CurrentUser | null;
  /** After login: keep the token and the user details (with their permission list). */
  signIn: (token: string, user: CurrentUser) => void;
  /** Fresh user details from the server. */
  updateUser: (user: CurrentUser) => void;
  signOut: () => void;
}

export const useSession = create<SessionState>()((set) => ({
  token: getToken(),
  user: readStoredUser(),
  signIn: (token, user) => {
    setToken(token);
    storeUserDetails(user);
    set({ token, user });
  },
  updateUser: (user) => {
    storeUserDetails(user);
    set({ user });
  },
  signOut: () => {
    logoutStorage();
    set({ token: null, user: null });
  },
}));

/** Follows sign-in and sign-out made in other tabs. Returns the unsubscribe function. */
export function followSessionAcrossTabs(): () => void {
  const onStorage = (event: StorageEvent) => {
    if (event.key === null || event.key === TOKEN_KEY || event.key === USER_DETAILS_KEY) {
      clearPermissionCache();
      useSession.setState({ token: getToken(), user: readStoredUser() });
    }
  };
  window.addEventListener('storage', onStorage);
  return () => window.removeEventListener('storage', onStorage);
}

/** The signed-in user's permissions for rendering (empty without a user). */
export function usePermissions(): string[] {
  const user = useSession((state) => state.user);
  return user === null ? [] : (peekPermissions() ?? user.permission_list);
}
