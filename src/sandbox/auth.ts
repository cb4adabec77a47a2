import type { MiddlewareHandler } from 'hono';
import type { Env } from './context.js';
import { HttpError } from './errors.js';
import type { AccountState, Store } from './state.js';

/** Bearer tokens name an account; an `SC-Account-Id` header, if sent, must agree. */
export function accountOfRequest(store: Store, authorization: string | undefined): AccountState | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  return match ? store.accountByToken(match[1]!) : undefined;
}

export function requireAccount(store: Store): MiddlewareHandler<Env> {
  return async (c, next) => {
    const authorization = c.req.header('authorization');
    const account = accountOfRequest(store, authorization);
    if (!account) {
      throw new HttpError(401, {
        detail:
          authorization === undefined
            ? 'Authentication credentials were not provided; send Authorization: Bearer <token>.'
            : 'Invalid token.',
      });
    }
    const claimed = c.req.header('sc-account-id');
    if (claimed !== undefined && claimed !== account.id) {
      throw new HttpError(403, { detail: 'The SC-Account-Id header does not match the token\'s account.' });
    }
    c.set('account', account.id);
    await next();
  };
}
