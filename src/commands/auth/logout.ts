import type { Context } from '../../context.js';
import { ConfigError } from '../../config/errors.js';
import { holds } from '../../config/secret-storage.js';
import { readProfile, updateProfile, type Profile, type Session } from '../../config/store.js';
import { singleLine } from '../../output/sanitize.js';

/**
 * Forgets the profile's tokens, after revoking them at the revoke URL its login used
 * (best effort: a failure is a warning, the tokens are forgotten anyway). A profile that
 * is not signed in is told so, and is no error (as `config unset` of an unset key).
 */
export async function logout(ctx: Pick<Context, 'io' | 'settings' | 'trace'>): Promise<void> {
  const { settings } = ctx;
  const stored = readProfile(settings.configDir, settings.profile);
  const session = stored.session;
  const signedIn = holds(stored, 'token') || session !== undefined;
  const hasKey = holds(stored, 'design-tool-key');
  if (!signedIn && !hasKey) {
    ctx.io.err(`Not logged in to profile ${settings.profile}: nothing to forget.`);
    return;
  }
  if (holds(stored, 'token') && session?.client_id && session.revoke_url) await revoke(ctx, stored, session, session.revoke_url);
  // Like the tokens, the design tool key is a credential of the profile: signing out forgets
  // it. From the keyring and from the file alike.
  await updateProfile(settings.configDir, settings.profile, { token: undefined, session: undefined, 'design-tool-key': undefined, 'design-tool-key-origin': undefined });
  if (!signedIn) ctx.io.err(`Not logged in to profile ${settings.profile}; its design tool key is forgotten.`);
  else ctx.io.err(`Logged out of profile ${settings.profile}${hasKey ? ' (its design tool key is forgotten too)' : ''}.`);
}

/** Revokes the refresh token, then the access token: best effort, a failure is a warning. */
async function revoke(ctx: Pick<Context, 'io' | 'settings' | 'trace'>, stored: Profile, session: Session, revokeUrl: string): Promise<void> {
  const { settings } = ctx;
  let tokens: [string | undefined, 'refresh_token' | 'access_token'][];
  try {
    // The refresh token first: revoking it also ends the access tokens it issued.
    tokens = [
      [session.refresh_token, 'refresh_token'],
      [stored.token, 'access_token'],
    ];
  } catch (error) {
    // In a keyring that does not answer: they are forgotten all the same.
    if (!(error instanceof ConfigError)) throw error;
    ctx.io.err(`warning: the tokens were not revoked: ${error.message}`);
    return;
  }
  const { appOfSession } = await import('../../auth/oauth-app.js');
  const { revokeToken } = await import('../../auth/oauth-client.js');
  const app = { ...appOfSession(session, settings, ctx.trace), revokeUrl };
  for (const [token, hint] of tokens) {
    if (!token) continue;
    try {
      await revokeToken(app, token, hint);
    } catch (error) {
      // The provider's words may be in the message: one line.
      ctx.io.err(singleLine(`warning: could not revoke the ${hint.replace('_', ' ')} at ${revokeUrl}: ${error instanceof Error ? error.message : String(error)}`));
    }
  }
}
