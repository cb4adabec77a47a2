import { ApiClient } from '../api/client.js';
import { stderrTrace } from '../api/trace.js';
import { updateProfile, type Session } from '../config/store.js';
import type { Context } from '../context.js';
import { singleLine } from '../output/sanitize.js';
import { discoverAccount } from './account.js';
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
 * Ends every login: asks the service who the token belongs to (`GET /v1/users/me`, which
 * also proves the token works), then stores the token, what refreshes it and the account in
 * the profile (mode 0600). Nothing is stored when any step fails.
 */
export async function completeLogin(ctx: Context, obtained: Obtained): Promise<Session> {
  const { settings } = ctx;
  const client = new ApiClient({
    baseUrl: settings.baseUrl,
    token: obtained.accessToken,
    timeoutMs: settings.timeoutMs,
    retries: settings.retries,
    insecure: settings.insecure,
    trace: settings.verbose ? stderrTrace(ctx.io) : undefined,
  });
  let me;
  try {
    me = await discoverAccount(client);
  } finally {
    await client.close();
  }
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
  // The service's own strings, on one line each and without escape sequences.
  const [email, account, id] = [me.user.email, me.account.name, me.account.id].map(singleLine);
  ctx.io.err(`Logged in to ${settings.baseUrl} as ${email}, account ${account} (${id}).\nStored in profile ${settings.profile} (${settings.configDir}, mode 0600).`);
  return session;
}
