import { notSignedInAt } from '../../auth/not-signed-in.js';
import { tokenProviderFor } from '../../auth/token-provider.js';
import type { Context } from '../../context.js';
import { CliError, ExitCode, UsageError } from '../../errors.js';

/** `merch auth token`: a valid access token on stdout (refreshed first when it expires soon), for curl and scripts. */
export async function token(ctx: Context): Promise<void> {
  const { settings } = ctx;
  const current = await tokenProviderFor(settings, ctx.trace).current();
  ctx.secrets.reveal(() => ctx.io.out(current));
}

/** `merch auth refresh`: a new access token now, with the stored refresh token. */
export async function refresh(ctx: Context): Promise<void> {
  const { settings } = ctx;
  if (settings.tokenSource === 'env') throw new UsageError('the token comes from MERCH_TOKEN, which merch cannot refresh');
  if (settings.signedInElsewhere !== undefined) throw notSignedInAt(settings, settings.signedInElsewhere);
  if (!settings.session?.refresh_token) {
    throw new CliError(`profile ${settings.profile} has no refresh token (signed in ${settings.session ? 'with --with-token' : 'with nothing'}): sign in again: merch login`, ExitCode.auth);
  }
  const { refreshStoredToken } = await import('../../auth/refresh.js');
  const fresh = await refreshStoredToken(settings, { force: true, trace: ctx.trace });
  ctx.io.err(`Refreshed the token of profile ${settings.profile}${fresh.session.expires_at ? `; it expires at ${fresh.session.expires_at}` : ''}.`);
}
