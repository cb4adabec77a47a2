import { ApiError } from '../../api/errors.js';
import { currentAccountId } from '../../api/resources/users.js';
import { knownAccount, rememberAccount } from '../../config/account-cache.js';
import type { ApiClient } from '../../api/client.js';
import type { Settings } from '../../config/settings.js';
import { CliError, ExitCode } from '../../errors.js';
import { identityScope } from '../../orders/create/order-identity.js';
import type { OrderScope } from '../../orders/create/ports.js';

/** What of the run's context reaching the service needs: where it is, as whom, and its client (made when first asked for). */
export interface RunService {
  settings: Settings;
  api(): ApiClient;
}

/**
 * What an order's identity is scoped to (src/orders/create/order-identity.ts): the service's
 * origin and the account the run acts for, as the service knows it. The account set
 * (`--account-id`, `MERCH_ACCOUNT_ID`, `config set account-id`, the login's) is used as it
 * is; otherwise the service is asked once per token (`GET /v1/users/me`) and the answer
 * remembered (src/config/account-cache.ts): a fresh token per CI job, a login or the
 * sandbox's token, all acting for one account, make the same orders.
 */
export async function orderScopeOf(service: RunService): Promise<OrderScope> {
  const { baseUrl, accountId: set } = service.settings;
  const token = set === undefined ? service.settings.token : undefined;
  const legacy = { baseUrl, ...(set === undefined ? { token } : { accountId: set }) };
  return { scope: identityScope(baseUrl, set ?? (await accountOfToken(service, token))), legacy };
}

async function accountOfToken({ settings, api }: RunService, token: string | undefined): Promise<string> {
  const { configDir } = settings;
  const origin = new URL(settings.baseUrl).origin;
  const known = token === undefined ? undefined : knownAccount(configDir, origin, token);
  if (known !== undefined) return known;
  let account: string;
  try {
    account = await currentAccountId(api());
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
