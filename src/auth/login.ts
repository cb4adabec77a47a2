import type { ApiClient } from '../api/client.js';
import type { Settings } from '../config/settings.js';
import { updateProfile, type Session } from '../config/store.js';
import { discoverAccount, type Me } from './account.js';
import type { OAuthApp } from './oauth-app.js';

/** What a login obtained: a token, and for a developer app the app and its refresh token. */
export interface Obtained {
  method: Session['method'];
  accessToken: string;
  refreshToken?: string;
  expiresAt?: string;
  app?: OAuthApp & { clientAuth: 'basic' | 'post' };
}

/**
 * Ends every login: asks the service who the token belongs to (`GET /v1/users/me` through
 * `client`, which sends the obtained token; this also proves the token works), then
 * stores the token, what refreshes it and the account in the profile (mode 0600). Nothing
 * is stored when any step fails.
 */
export async function completeLogin(
  client: ApiClient,
  settings: Pick<Settings, 'configDir' | 'profile' | 'baseUrl' | 'baseUrlSource'>,
  obtained: Obtained,
): Promise<{ session: Session; me: Me }> {
  const me = await discoverAccount(client);
  const { app } = obtained;
  const session: Session = {
    method: obtained.method,
    expires_at: obtained.expiresAt,
    refresh_token: obtained.refreshToken,
    ...(app && {
      client_id: app.clientId,
      client_secret: app.clientSecret,
      client_auth: app.clientAuth,
      token_url: app.tokenUrl,
      revoke_url: app.revokeUrl,
    }),
    user: me.user,
    account: me.account,
  };
  await updateProfile(settings.configDir, settings.profile, {
    token: obtained.accessToken,
    session,
    'base-url': settings.baseUrlSource === 'default' ? undefined : settings.baseUrl,
  });
  return { session, me };
}
