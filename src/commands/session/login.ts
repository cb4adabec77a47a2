import { ApiClient } from '../../api/client.js';
import type { Context } from '../../context.js';
import { updateProfile } from '../../config/store.js';

export interface LoginOptions {
  withToken?: boolean;
}

/** A cheap authenticated, account-scoped call that proves a token works. */
export async function checkToken(client: ApiClient): Promise<void> {
  await client.get('/v1/custom-products', { limit: 1 });
}

export async function login(ctx: Context, options: LoginOptions): Promise<void> {
  const { readSecret } = await import('./read-secret.js');
  const token = await readSecret(ctx, 'token', options.withToken ?? false, 'pipe the token with --with-token');
  const { settings } = ctx;
  const client = new ApiClient({ ...settings, token, trace: undefined });
  try {
    await checkToken(client);
  } finally {
    await client.close();
  }
  await updateProfile(settings.configDir, settings.profile, {
    token,
    'base-url': settings.baseUrlSource === 'default' ? undefined : settings.baseUrl,
    'account-id': settings.accountId,
  });
  ctx.io.err(`Logged in to ${settings.baseUrl} (profile ${settings.profile}); the token is stored in ${settings.configDir} (mode 0600).`);
}

export async function logout(ctx: Context): Promise<void> {
  const { settings } = ctx;
  await updateProfile(settings.configDir, settings.profile, { token: undefined });
  ctx.io.err(`Logged out of profile ${settings.profile}.`);
}
