import type { Trace } from '../api/trace.js';
import { DEFAULT_BASE_URL, type Settings } from '../config/settings.js';
import { sameSignIn, signInOrigin } from '../config/origin-binding.js';
import { readProfile, updateProfile, type Session } from '../config/store.js';
import { AuthError } from './errors.js';
import { appOfSession, expiresWithin, sessionWithTokens } from './oauth-app.js';
import { refreshLockPath, withFileLock } from './refresh-lock.js';
import { notSignedInAt } from './not-signed-in.js';

export interface StoredToken {
  token: string;
  session: Session;
}

/**
 * Refreshes the profile's token, one process at a time. Refresh tokens rotate (the old
 * one stops working once used), so under the lock the stored token is read again: when
 * another process has already replaced the token this one `held` with one that has not
 * expired, that one is used and nothing is sent. `force` refreshes in any case.
 *
 * The refresh goes only to the token endpoint stored with the token, and only for the sign-in
 * the run started with (`settings.session`, at `settings.baseUrl`'s origin): a profile signed
 * in again meanwhile, elsewhere or as another app or account, gives this run nothing.
 */
export async function refreshStoredToken(
  settings: Pick<Settings, 'configDir' | 'profile' | 'insecure' | 'timeoutMs' | 'proxy' | 'baseUrl' | 'session'>,
  options: { held?: string; force?: boolean; trace?: Trace },
): Promise<StoredToken> {
  const { configDir, profile } = settings;
  const lock = refreshLockPath(configDir, profile);
  // The holder may be waiting on its token endpoint for up to a timeout (and one retry of
  // its client authentication).
  return withFileLock(lock, { waitMs: 2 * settings.timeoutMs + 5_000, staleMs: 2 * settings.timeoutMs + 30_000 }, async () => {
    const stored = readProfile(configDir, profile);
    const session = stored.session;
    if (!stored.token || !session?.refresh_token) {
      throw new AuthError(`not logged in (profile ${profile} has no refresh token): run merch login`, 'not-signed-in');
    }
    const origin = signInOrigin(stored, DEFAULT_BASE_URL);
    if (origin !== new URL(settings.baseUrl).origin || (settings.session !== undefined && !sameSignIn(settings.session, session))) {
      throw notSignedInAt(settings, origin);
    }
    if (!options.force && stored.token !== options.held && !expiresWithin(session, 0)) return { token: stored.token, session };
    const { refreshGrant } = await import('./oauth-client.js');
    const tokens = await refreshGrant(appOfSession(session, settings, options.trace), session.refresh_token);
    const next = sessionWithTokens(session, tokens);
    await updateProfile(configDir, profile, { token: tokens.accessToken, session: next });
    return { token: tokens.accessToken, session: next };
  });
}
