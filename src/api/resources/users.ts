import { bigint, looseObject, number, string, union } from '../../lib/shapes.js';
import type { ApiClient } from '../client.js';

/** What an order's identity reads of `GET /v1/users/me`: the account the token acts for. */
const currentAccount = looseObject({ current_account: looseObject({ id: union([string(), union([number(), bigint()])]) }) });

/**
 * The id of the account the client's token acts for (`GET /v1/users/me`'s `current_account`),
 * as the service writes it. Sent without SC-Account-Id: the point is to learn the account.
 */
export async function currentAccountId(client: ApiClient): Promise<string> {
  const { data } = await client.request({ method: 'GET', path: '/v1/users/me', schema: currentAccount, headers: {} });
  return String(data.current_account.id);
}
