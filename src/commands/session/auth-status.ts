import { ApiError } from '../../api/errors.js';
import type { Context } from '../../context.js';
import { ExitCode, type ExitCodeValue } from '../../errors.js';
import { isMachineOutput, printJson, printRecord } from '../../output/render.js';
import { checkToken } from './login.js';

interface AuthStatus {
  profile: string;
  base_url: string;
  base_url_source: string;
  account_id: string | null;
  token_source: string;
  token_valid: boolean | null;
  error: string | null;
}

/** Which profile, base URL and account are in use, and whether the token works. */
export async function run(ctx: Context): Promise<ExitCodeValue> {
  const { settings } = ctx;
  const status: AuthStatus = {
    profile: settings.profile,
    base_url: settings.baseUrl,
    base_url_source: settings.baseUrlSource,
    account_id: settings.accountId ?? null,
    token_source: settings.tokenSource,
    token_valid: null,
    error: null,
  };
  if (settings.token !== undefined) {
    try {
      await checkToken(ctx.api());
      status.token_valid = true;
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      status.token_valid = error.kind === 'auth' ? false : null;
      status.error = error.message;
    }
  }
  if (isMachineOutput(ctx.format)) await printJson(ctx, status);
  else {
    await printRecord(ctx, status, [
      { header: 'Profile', value: (s) => s.profile },
      { header: 'Base URL', value: (s) => `${s.base_url} (${s.base_url_source})` },
      { header: 'Account', value: (s) => s.account_id ?? '(token default)' },
      { header: 'Token', value: (s) => (s.token_source === 'none' ? 'not set: run merch login' : `from ${s.token_source}`) },
      { header: 'Token works', value: (s) => (s.token_valid === null ? `unknown${s.error ? `: ${s.error}` : ''}` : s.token_valid ? 'yes' : 'no') },
    ]);
  }
  if (status.token_valid === true) return ExitCode.ok;
  return status.token_valid === false || settings.token === undefined ? ExitCode.auth : ExitCode.failed;
}
