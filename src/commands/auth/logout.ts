import type { Context } from '../../context.js';
import { readProfile, updateProfile } from '../../config/store.js';

/**
 * Forgets the profile's tokens, after revoking them at the revoke URL its login used
 * (best effort: a failure is a warning, the tokens are forgotten anyway). A profile that
 * is not signed in is told so, and is no error (as `config unset` of an unset key).
 */
export async function logout(ctx: Context): Promise<void> {
  const { settings } = ctx;
  const stored = readProfile(settings.configDir, settings.profile);
  const session = stored.session;
  const signedIn = stored.token !== undefined || session !== undefined;
  const hasKey = stored['design-tool-key'] !== undefined;
  if (!signedIn && !hasKey) {
    ctx.io.err(`Not logged in to profile ${settings.profile}: nothing to forget.`);
    return;
  }
  if (stored.token && session?.client_id && session.revoke_url) {
    const { appOfSession } = await import('../../auth/oauth-app.js');
    const { revokeToken } = await import('../../auth/oauth-client.js');
    const app = { ...appOfSession(session, settings, ctx.trace), revokeUrl: session.revoke_url };
    // The refresh token first: revoking it also ends the access tokens it issued.
    const tokens: [string | undefined, 'refresh_token' | 'access_token'][] = [
      [session.refresh_token, 'refresh_token'],
      [stored.token, 'access_token'],
    ];
    for (const [token, hint] of tokens) {
      if (!token) continue;
      try {
        await revokeToken(app, token, hint);
      } catch (error) {
        ctx.io.err(`warning: could not revoke the ${hint.replace('_', ' ')} at ${session.revoke_url}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  }
  // Like the tokens, the design tool key is a credential of the profile: signing out forgets it.
  await updateProfile(settings.configDir, settings.profile, { token: undefined, session: undefined, 'design-tool-key': undefined });
  if (!signedIn) ctx.io.err(`Not logged in to profile ${settings.profile}; its design tool key is forgotten.`);
  else ctx.io.err(`Logged out of profile ${settings.profile}${hasKey ? ' (its design tool key is forgotten too)' : ''}.`);
}
