import { join } from 'node:path';
import { discoverAccount } from '../../auth/account.js';
import { notSignedInAt } from '../../auth/not-signed-in.js';
import { KEYRING_NAME } from '../../config/keyring.js';
import { CONFIG_FILE_NAME } from '../../config/paths.js';
import type { SecretStorage } from '../../config/secret-storage.js';
import type { Context } from '../../context.js';
import { readProfile, type Session } from '../../config/store.js';
import { CliError, ExitCode, type ExitCodeValue } from '../../errors.js';
import { redactUrlCredentials } from '../../output/redact-url.js';
import { isMachineOutput, printJson, printRecord } from '../../output/render.js';
import { asCliError } from '../exit-codes.js';

/** The methods as the text view says them. */
const SIGNED_IN_WITH: Record<string, string> = {
  password: 'password (a developer app)',
  web: 'the browser (a developer app)',
  token: 'a token (merch login --with-token)',
  env: 'MERCH_TOKEN',
  sandbox: "the sandbox's public token (no sign-in needed)",
  none: 'nothing: run merch login',
};

interface AuthStatus {
  profile: string;
  base_url: string;
  base_url_source: string;
  user: Session['user'] | null;
  account: Session['account'] | null;
  /** The account requests act for (SC-Account-Id): the discovered one unless one is set. */
  account_id: string | null;
  /**
   * How the token was obtained: password, web, token (login --with-token), env
   * (MERCH_TOKEN), sandbox (its public token, where it works), or none.
   */
  method: string;
  expires_at: string | null;
  token_source: string;
  /** Where the profile's token is: `keyring` (the OS keyring), `file` (the config file), or null (not the profile's). */
  token_storage: SecretStorage | null;
  token_valid: boolean | null;
  error: string | null;
}

/**
 * Who is signed in, for which account, how, until when; and whether the token works
 * (`GET /v1/users/me`, refreshing an expired token first, as any command would). Never a
 * secret.
 */
export async function run(ctx: Pick<Context, 'io' | 'format' | 'settings' | 'api'>): Promise<ExitCodeValue> {
  const { settings } = ctx;
  const status: AuthStatus = {
    profile: settings.profile,
    base_url: redactUrlCredentials(settings.baseUrl),
    base_url_source: settings.baseUrlSource,
    user: settings.session?.user ?? null,
    account: settings.session?.account ?? null,
    account_id: settings.accountId ?? null,
    method: settings.session?.method ?? { env: 'env', default: 'sandbox', profile: 'token', none: 'none' }[settings.tokenSource],
    expires_at: null,
    token_source: settings.tokenSource,
    token_storage: null,
    token_valid: null,
    // Signed in at another origin: that token is not sent here (src/config/origin-binding.ts).
    error: settings.tokenSource === 'none' && settings.signedInElsewhere !== undefined ? notSignedInAt(settings, settings.signedInElsewhere).message : null,
  };
  if (settings.tokenSource !== 'none') {
    try {
      const me = await discoverAccount(ctx.api());
      status.user = me.user;
      status.account = me.account;
      status.account_id ??= me.account.id;
      status.token_valid = true;
    } catch (thrown) {
      const error = asCliError(thrown, ctx.settings);
      // A usage error (e.g. a token refused over plain http) is the user's to fix, not a status.
      if (!(error instanceof CliError) || error.exitCode === ExitCode.usage) throw error;
      status.token_valid = error.exitCode === ExitCode.auth ? false : null;
      status.error = error.message;
      // The sandbox's public token is no sign-in: where it does not work (not a merch
      // sandbox, so it was not even sent), nothing is signed in, and the hint says why.
      if (status.method === 'sandbox' && status.token_valid === false) {
        status.method = 'none';
        status.error = error.hint ?? error.message;
      }
    }
  }
  // Read after the request: a refresh may have replaced the token, and moved it to the keyring.
  if (settings.tokenSource === 'profile') {
    const stored = readProfile(settings.configDir, settings.profile);
    status.expires_at = stored.session?.expires_at ?? null;
    status.token_storage = stored['secret-storage'] ?? 'file';
  }

  if (isMachineOutput(ctx.format)) await printJson(ctx, status);
  else {
    await printRecord(ctx, status, [
      { header: 'Profile', value: (s) => s.profile },
      { header: 'Base URL', value: (s) => `${s.base_url} (${s.base_url_source})` },
      { header: 'User', value: (s) => s.user?.email ?? '(unknown)' },
      { header: 'Account', value: (s) => (s.account ? `${s.account.name} (${s.account.id})` : '(unknown)') + (s.account_id && s.account_id !== s.account?.id ? `; requests act for ${s.account_id}` : '') },
      { header: 'Signed in with', value: (s) => SIGNED_IN_WITH[s.method] ?? s.method },
      { header: 'Expires', value: (s) => s.expires_at ?? (s.method === 'none' ? '' : 'unknown') },
      { header: 'Token works', value: tokenWorks },
      { header: 'Stored in', value: storedIn(settings.configDir) },
    ]);
  }
  if (status.token_valid === true) return ExitCode.ok;
  return status.token_valid === false || settings.tokenSource === 'none' ? ExitCode.auth : ExitCode.failed;
}

/** Where the profile's token is; nothing when it is not the profile's. */
function storedIn(configDir: string): (status: AuthStatus) => string {
  return (status) => {
    if (status.token_storage === 'keyring') return `the OS keyring (${KEYRING_NAME})`;
    if (status.token_storage === 'file') return `${join(configDir, CONFIG_FILE_NAME)} (mode 0600)`;
    return '';
  };
}

/** `yes`, `no: why`, `unknown: why`; with no token, that there is none (and why the sandbox's was not sent). */
function tokenWorks(status: AuthStatus): string {
  const why = status.error ? `: ${status.error}` : '';
  if (status.method === 'none') return `no token${why}`;
  if (status.token_valid === null) return `unknown${why}`;
  return status.token_valid ? 'yes' : `no${why}`;
}
