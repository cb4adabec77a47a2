import type { ApiClient } from '../api/client.js';
import type { Settings } from '../config/settings.js';
import type { SecretStorage } from '../config/secret-storage.js';
import { updateProfile, type SecretsStored, type Session } from '../config/store.js';
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
 * stores the token, what refreshes it and the account in the profile: the secrets in the
 * OS keyring, or in the file (mode 0600) where `storage` says so or no keyring answers
 * (`stored` says which, and why). Nothing is stored when any step fails.
 */
export async function completeLogin(
  client: ApiClient,
  settings: Pick<Settings, 'configDir' | 'profile' | 'baseUrl' | 'baseUrlSource'>,
  obtained: Obtained,
  storage?: SecretStorage,
): Promise<{ session: Session; me: Me; stored: SecretsStored }> {
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
    // The token, refresh token and client secret belong to this origin (src/config/origin-binding.ts).
    origin: new URL(settings.baseUrl).origin,
  };
  const stored = await updateProfile(
    settings.configDir,
    settings.profile,
    { token: obtained.accessToken, session, 'base-url': settings.baseUrlSource === 'default' ? undefined : settings.baseUrl },
    { storage: storage ?? 'keyring' },
  );
  return { session, me, stored: stored ?? { storage: 'file' } };
}
