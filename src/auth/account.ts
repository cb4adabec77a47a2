import { z } from 'zod';
import type { ApiClient } from '../api/client.js';
import type { Session } from '../config/store.js';

// A BigInt: an id beyond 2^53, read exactly (lib/exact-json.ts).
const idSchema = z.union([z.string(), z.number(), z.bigint()]).transform(String);

/** `GET /v1/users/me`: the signed-in user and the account its token acts for. */
const meSchema = z.object({
  id: idSchema.optional(),
  username: z.string().nullish(),
  first_name: z.string().nullish(),
  last_name: z.string().nullish(),
  email: z.string(),
  current_account: z.object({ id: idSchema, name: z.string() }).passthrough(),
});

export type Me = Pick<Session, 'user' | 'account'> & { user: NonNullable<Session['user']>; account: NonNullable<Session['account']> };

/**
 * Who the token belongs to and which account it acts for. Sent without SC-Account-Id: the
 * point is to learn the account.
 */
export async function discoverAccount(client: ApiClient): Promise<Me> {
  const { data } = await client.request({ method: 'GET', path: '/v1/users/me', schema: meSchema, headers: {} });
  return {
    user: {
      id: data.id,
      email: data.email,
      username: data.username ?? undefined,
      first_name: data.first_name ?? undefined,
      last_name: data.last_name ?? undefined,
    },
    account: { id: data.current_account.id, name: data.current_account.name },
  };
}
