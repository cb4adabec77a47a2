import type { Context, MiddlewareHandler } from 'hono';
import type { NotAuthenticatedForm } from './options.js';
import type { Env, SandboxContext } from './route-context.js';
import { HttpError } from './errors.js';
import { userById, userOfAccount, type SandboxUser } from './oauth/registry.js';
import type { TokenRefusal } from './oauth/tokens.js';
import type { AccountState } from './state.js';

/** Who a request's bearer token acts for, or why it is refused. */
type Bearer =
  | { kind: 'missing' }
  | { kind: 'refused'; reason: TokenRefusal }
  | { kind: 'accepted'; account: AccountState; user: SandboxUser };

/** DRF's one message for a missing, an unknown, an expired and a revoked token alike. */
const NOT_AUTHENTICATED = 'Authentication credentials were not provided.';

/**
 * A static account token (`sandbox-token`, acting as the account's user) or an access token
 * issued by `/o/token/` (acting as its user, for the user's account).
 */
function bearerOfRequest(ctx: SandboxContext, authorization: string | undefined): Bearer {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  if (!match) return { kind: 'missing' };
  const token = match[1]!;
  const account = ctx.store.accountByToken(token);
  if (account) return { kind: 'accepted', account, user: userOfAccount(account.id) };
  const verified = ctx.oauth.tokens.verify(token);
  if ('refused' in verified) return { kind: 'refused', reason: verified.refused };
  const user = userById(verified.user);
  return { kind: 'accepted', account: ctx.store.account(user.account), user };
}

/** The account a request's token acts for, if it is accepted. */
export function accountOfRequest(ctx: SandboxContext, authorization: string | undefined): AccountState | undefined {
  const bearer = bearerOfRequest(ctx, authorization);
  return bearer.kind === 'accepted' ? bearer.account : undefined;
}

/**
 * django-oauth-toolkit's challenge (realm "api", parameters joined by a bare comma as its
 * OAuth2Authentication does): only its `error` tells an unknown, expired or revoked token from
 * none at all, since the body does not.
 */
function challenge(bearer: Exclude<Bearer, { kind: 'accepted' }>): string {
  if (bearer.kind === 'missing') return 'Bearer realm="api"';
  return `Bearer realm="api",error="invalid_token",error_description="${bearer.reason}"`;
}

/**
 * The refusal of a request without an accepted token, in the form `--not-authenticated`
 * names: `401` with the challenge, `401-bare` without it, or `403`, DRF's downgrade of a 401
 * when the first authentication class has no challenge to give (SessionAuthentication).
 */
function notAuthenticated(c: Context<Env>, form: NotAuthenticatedForm, bearer: Exclude<Bearer, { kind: 'accepted' }>): Response {
  if (form === '403') return c.json({ detail: NOT_AUTHENTICATED }, 403);
  if (form === '401-bare') return c.json({ detail: NOT_AUTHENTICATED }, 401);
  return c.json({ detail: NOT_AUTHENTICATED }, 401, { 'WWW-Authenticate': challenge(bearer) });
}

/** The account (and user) of `/v1` requests; an `SC-Account-Id` header, if sent, must agree. */
export function requireAccount(ctx: SandboxContext): MiddlewareHandler<Env> {
  return async (c, next) => {
    const bearer = bearerOfRequest(ctx, c.req.header('authorization'));
    if (bearer.kind !== 'accepted') return notAuthenticated(c, ctx.variants.notAuthenticated, bearer);
    const claimed = c.req.header('sc-account-id');
    if (claimed !== undefined && claimed !== bearer.account.id) {
      throw new HttpError(403, { detail: 'The SC-Account-Id header does not match the token\'s account.' });
    }
    c.set('account', bearer.account.id);
    c.set('user', bearer.user.id);
    await next();
  };
}
