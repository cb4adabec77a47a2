import { ApiError } from '../../api/errors.js';
import { currentAccountId } from '../../api/resources/users.js';
import { knownAccount, rememberAccount } from '../../config/account-cache.js';
import type { Context } from '../../context.js';
import { CliError, ExitCode } from '../../errors.js';
import { identityScope } from '../../orders/create/order-identity.js';

/**
 * What an order's identity is scoped to (src/orders/create/order-identity.ts): the service's
 * origin and the account the run acts for, as the service knows it. The account set
 * (`--account-id`, `MERCH_ACCOUNT_ID`, `config set account-id`, the login's) is used as it
 * is; otherwise the service is asked once per token (`GET /v1/users/me`) and the answer
 * remembered (src/config/account-cache.ts): a fresh token per CI job, a login or the
 * sandbox's token, all acting for one account, make the same orders.
 */
export interface OrderScope {
  scope: string;
  /** What merch 0.1 scoped an order to (order-journal.ts's `legacyKey`): an order it placed from this machine is still found. */
  legacy: { baseUrl: string; accountId?: string; token?: string };
}

export async function orderScopeOf(ctx: Context): Promise<OrderScope> {
  const { baseUrl, accountId: set, configDir } = ctx.settings;
  const token = set === undefined ? ctx.settings.token : undefined;
  const legacy = { baseUrl, ...(set === undefined ? { token } : { accountId: set }) };
  return { scope: identityScope(baseUrl, set ?? (await accountOfToken(ctx, configDir, token))), legacy };
}

async function accountOfToken(ctx: Context, configDir: string, token: string | undefined): Promise<string> {
  const origin = new URL(ctx.settings.baseUrl).origin;
  const known = token === undefined ? undefined : knownAccount(configDir, origin, token);
  if (known !== undefined) return known;
  let account: string;
  try {
    account = await currentAccountId(ctx.api());
  } catch (err) {
    if (!(err instanceof ApiError) || err.status !== 404) throw err;
    throw new CliError(
      `${err.message}: the service does not say which account the token acts for, and an order's identity needs it; nothing was sent`,
      ExitCode.failed,
      'set the account with --account-id or MERCH_ACCOUNT_ID',
    );
  }
  if (token !== undefined) rememberAccount(configDir, origin, token, account);
  return account;
}
