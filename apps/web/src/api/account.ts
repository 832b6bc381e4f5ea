import type {
  AuthResult,
  ChangeEmailBody,
  ChangePasswordBody,
  ComingSoonBody,
  DeleteAccountBody,
  LoginBody,
  SignupBody,
  UserInfo,
} from '@moments/contract';
import { STORAGE_KEYS, writeStored } from '../lib/storage';
import { api } from './client';

/**
 * Account calls. The session itself is an httpOnly cookie; the token from login/sign-up is kept so
 * the realtime client can send it as its auth header.
 */

/**
 * A single-use ticket for the realtime CONNECT's `token` header (valid one minute). The session
 * token itself stays in its httpOnly cookie: scripts never see it. Null when signed out.
 */
export async function fetchRealtimeTicket(): Promise<string | null> {
  try {
    const { token } = await api.post<{ token: string }>('/api/auth/token', undefined, {
      suppressErrorDialog: true,
    });
    return token || null;
  } catch {
    // Signed out (or offline): no ticket, so no realtime channel until sign-in.
    return null;
  }
}

/** The session lives in the httpOnly cookie; a token kept by an older version is dropped. */
function rememberToken(result: AuthResult): AuthResult {
  writeStored(STORAGE_KEYS.authToken, null);
  return result;
}

// Pages show these failures next to the fields, so the global dialogs stay out of the way.
export async function signup(body: SignupBody): Promise<AuthResult> {
  return rememberToken(
    await api.post<AuthResult>('/api/auth/signup', body, { suppressErrorDialog: true }),
  );
}

export async function login(body: LoginBody): Promise<AuthResult> {
  return rememberToken(
    await api.post<AuthResult>('/api/auth/login', body, { suppressErrorDialog: true }),
  );
}

export async function logout(): Promise<void> {
  writeStored(STORAGE_KEYS.authToken, null);
  await api.post<null>('/api/auth/logout');
}

/** The user info fetch: null when signed out. */
/**
 * The signed-in user, or null for a visitor. Asked through /api/auth/session, which answers 200
 * for visitors too: a 401 from /api/user/info would log a console error on every anonymous page.
 */
export async function fetchUserInfo(): Promise<UserInfo | null> {
  const user = await api.get<UserInfo | null>('/api/auth/session');
  if (!user) writeStored(STORAGE_KEYS.authToken, null);
  return user;
}

/** POST /sys/coming_soon. */
export async function subscribeToComingSoon(body: ComingSoonBody): Promise<void> {
  await api.post<null>('/sys/coming_soon', body, { suppressErrorDialog: true });
}

// The profile screen's account changes: each form shows its own failure next to its fields.

/** Ends every other session; this one stays signed in. */
export function changePassword(body: ChangePasswordBody): Promise<null> {
  return api.post<null>('/api/user/change_password', body, { suppressErrorDialog: true });
}

/** Mails a confirmation link to the new address; the email changes once it is opened. */
export function changeEmail(body: ChangeEmailBody): Promise<{ email: string }> {
  return api.post<{ email: string }>('/api/user/change_email', body, {
    suppressErrorDialog: true,
  });
}

export function confirmEmail(token: string): Promise<{ email: string }> {
  return api.post<{ email: string }>(
    '/api/user/confirm_email',
    { token },
    { suppressErrorDialog: true },
  );
}

/** Deletes the account and everything in it; the session ends with it. */
export async function deleteAccount(body: DeleteAccountBody): Promise<void> {
  await api.post<null>('/api/user/delete_account', body, { suppressErrorDialog: true });
  writeStored(STORAGE_KEYS.authToken, null);
}
