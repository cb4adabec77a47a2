import { notSignedInAt } from '../../auth/not-signed-in.js';
import { tokenProviderFor } from '../../auth/token-provider.js';
import type { Context } from '../../context.js';
import { CliError, ExitCode, UsageError } from '../../errors.js';

/** `merch auth token`: a valid access token on stdout (refreshed first when it expires soon), for curl and scripts. */
export async function token(ctx: Pick<Context, 'io' | 'settings' | 'trace' | 'secrets'>): Promise<void> {
  const { settings } = ctx;
  const current = await tokenProviderFor(settings, ctx.trace).current();
  ctx.secrets.reveal(() => ctx.io.out(current));
}

/** `merch auth refresh`: a new access token now, with the stored refresh token. */
export async function refresh(ctx: Pick<Context, 'io' | 'settings' | 'trace'>): Promise<void> {
  const { settings } = ctx;
  if (settings.tokenSource === 'env') throw new UsageError('the token comes from MERCH_TOKEN, which merch cannot refresh');
  if (settings.signedInElsewhere !== undefined) throw notSignedInAt(settings, settings.signedInElsewhere);
  if (!settings.session?.refresh_token) throw nothingToRefresh(settings);
  const { refreshStoredToken } = await import('../../auth/refresh.js');
  const fresh = await refreshStoredToken(settings, { force: true, trace: ctx.trace });
  ctx.io.err(`Refreshed the token of profile ${settings.profile}${fresh.session.expires_at ? `; it expires at ${fresh.session.expires_at}` : ''}.`);
}

/**
 * Why a profile has nothing `auth refresh` can renew, in words (issue 42.5): the sandbox's
 * own token, a profile not signed in, or a token stored with --with-token (it came with no
 * refresh token).
 */
function nothingToRefresh(settings: Context['settings']): CliError {
  const profile = `profile ${settings.profile}`;
  if (settings.tokenSource === 'default') {
    return new CliError(`nothing to refresh: ${profile} is not signed in, and the sandbox's own token never expires`, ExitCode.auth, 'to sign in with an account of your own: merch login');
  }
  if (!settings.session) return new CliError(`nothing to refresh: ${profile} is not signed in, so it has no token to renew`, ExitCode.auth, 'sign in: merch login');
  return new CliError(
    `nothing to refresh: ${profile} was signed in with --with-token, and such a token comes with no refresh token`,
    ExitCode.auth,
    'when it expires, sign in again: merch login',
  );
}
