import { ApiError, apiRequest, TOKEN_HEADER } from '../../shared/api/client';
import { parseCurrentUser, type CurrentUser } from '../../shared/current-user';

export interface AccessToken {
  access_token: string;
  token_type: string;
  /** Seconds until the session ends at the latest (it ends sooner when idle or logged out). */
  expires_in?: number;
}

export interface Credentials {
  username: string;
  password: string;
}

/** POST /api/v1/login/access-token with a form-encoded username and password (spec §7). */
export function requestAccessToken({ username, password }: Credentials): Promise<AccessToken> {
  return apiRequest<AccessToken>('/api/v1/login/access-token', {
    method: 'POST',
    form: { username, password },
    handleSessionErrors: false,
  });
}

export const UNREACHABLE_MESSAGE =
  'The portal could not be reached. Check your connection and try again in a moment.';

export interface LoginFailure {
  title: string;
  message: string;
  /** The server refused the credentials themselves, so the password is what to fix. */
  credentialsRejected: boolean;
}

/** What the login form tells the user when signing in fails. */
export function describeLoginFailure(error: unknown): LoginFailure {
  if (!(error instanceof ApiError) || error.isNetworkError || error.isServerError) {
    return { title: 'Portal unreachable', message: UNREACHABLE_MESSAGE, credentialsRejected: false };
  }
  const detail = error.detailText;
  if (error.status === 429) {
    return {
      title: 'Too many attempts',
      message: detail ?? 'Too many sign-in attempts. Please wait a moment and try again.',
      credentialsRejected: false,
    };
  }
  return {
    title: 'Sign-in failed',
    message: detail ?? `Sign-in failed (error ${error.status}). Please check your details and try again.`,
    credentialsRejected: error.status === 400 || error.status === 401,
  };
}

/**
 * GET /api/v1/users/me (spec §7). Right after login the token is passed explicitly (it is not stored
 * until the user details are known) and a failure is an answer for the login form.
 */
export async function fetchCurrentUser(token?: string): Promise<CurrentUser> {
  const answer = await apiRequest<unknown>('/api/v1/users/me', {
    headers: token === undefined ? undefined : { [TOKEN_HEADER]: token },
    handleSessionErrors: token === undefined,
  });
  const user = parseCurrentUser(answer);
  if (!user) throw new Error('The portal answered /users/me without user details');
  return user;
}

/** POST /api/v1/password-recovery/{email}: mails a recovery link (spec §2). */
export function requestRecoveryLink(email: string): Promise<{ msg: string }> {
  return apiRequest<{ msg: string }>(`/api/v1/password-recovery/${encodeURIComponent(email)}`, {
    method: 'POST',
    handleSessionErrors: false,
  });
}

/** POST /api/v1/set-new-password with the recovery link's token. */
export function setNewPassword(token: string, password: string): Promise<{ msg: string }> {
  return apiRequest<{ msg: string }>('/api/v1/set-new-password', {
    method: 'POST',
    json: { token, password },
    handleSessionErrors: false,
  });
}
