import type { Trace } from '../api/trace.js';
import type { Settings } from '../config/settings.js';
import { readProfile, updateProfile, type Session } from '../config/store.js';
import { AuthError } from './errors.js';
import { appOfSession, expiresWithin, sessionWithTokens } from './oauth-app.js';
import { refreshLockPath, withFileLock } from './refresh-lock.js';

export interface StoredToken {
  token: string;
  session: Session;
}

/**
 * Refreshes the profile's token, one process at a time. Refresh tokens rotate (the old
 * one stops working once used), so under the lock the stored token is read again: when
 * another process has already replaced the token this one `held` with one that has not
 * expired, that one is used and nothing is sent. `force` refreshes in any case.
 */
export async function refreshStoredToken(
  settings: Pick<Settings, 'configDir' | 'profile' | 'insecure' | 'timeoutMs' | 'proxy'>,
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
    if (!options.force && stored.token !== options.held && !expiresWithin(session, 0)) return { token: stored.token, session };
    const { refreshGrant } = await import('./oauth-client.js');
    const tokens = await refreshGrant(appOfSession(session, settings, options.trace), session.refresh_token);
    const next = sessionWithTokens(session, tokens);
    await updateProfile(configDir, profile, { token: tokens.accessToken, session: next });
    return { token: tokens.accessToken, session: next };
  });
}
