import type { Context } from 'hono';
import type { App, Env, SandboxContext } from '../route-context.js';
import {
  AuthorizePageError,
  AuthorizeRedirectError,
  Authorizations,
  parseAuthorizationRequest,
  type AuthorizationRequest,
} from './authorize.js';
import { consentPage, errorPage, signInPage } from './authorize-page.js';
import { authenticateClient } from './client-auth.js';
import { NO_STORE, OAuthError, oauthErrorResponse } from './errors.js';
import { readForm, requiredParam } from './form.js';
import { grantTokens } from './grants.js';
import { accountName, SEEDED_USERS, signIn } from './registry.js';

/**
 * Paths of django-oauth-toolkit's views, as a Django project mounts them under `o/`; routed with
 * or without the trailing slash (the app's routing is not strict).
 */
const OAUTH_PATHS = { token: '/o/token', authorize: '/o/authorize', revoke: '/o/revoke_token' } as const;

/** The token and revocation endpoints answer OAuthErrors as oauthlib does; anything else is a bug. */
async function oauthEndpoint(c: Context<Env>, handle: (form: URLSearchParams) => Response): Promise<Response> {
  const form = await readForm(c);
  try {
    return handle(form);
  } catch (error) {
    if (error instanceof OAuthError) return oauthErrorResponse(error);
    throw error;
  }
}

export function oauthRoutes(app: App, ctx: SandboxContext): void {
  const { oauth, store } = ctx;
  const authorizations = new Authorizations(oauth, store);
  const testUsers = SEEDED_USERS.map((user) => user.email);

  app.post(OAUTH_PATHS.token, (c) =>
    oauthEndpoint(c, (form) => {
      const client = authenticateClient(oauth.apps, c.req.header('authorization'), form);
      return c.json(grantTokens(oauth, store, client, form), 200, NO_STORE);
    }),
  );

  app.post(OAUTH_PATHS.revoke, (c) =>
    oauthEndpoint(c, (form) => {
      const client = authenticateClient(oauth.apps, c.req.header('authorization'), form);
      // token_type_hint is only a hint (oauthlib ignores one it does not know).
      oauth.tokens.revoke(client.client_id, requiredParam(form, 'token'));
      return c.body(null, 200);
    }),
  );

  /** The request in the URL, checked; or the answer that refuses it (a page, or a redirect). */
  function authorizationRequest(c: Context<Env>): AuthorizationRequest | Response {
    try {
      return parseAuthorizationRequest(oauth.apps, new URL(c.req.url).searchParams);
    } catch (error) {
      if (error instanceof AuthorizePageError) return c.html(errorPage(error.message, error.hint), 400);
      if (error instanceof AuthorizeRedirectError) return c.redirect(error.location, 302);
      throw error;
    }
  }

  const consentAction = `${OAUTH_PATHS.authorize}/`;
  const signInAction = (c: Context<Env>): string => `${consentAction}${new URL(c.req.url).search}`;

  app.get(OAUTH_PATHS.authorize, (c) => {
    const request = authorizationRequest(c);
    if (request instanceof Response) return request;
    return c.html(signInPage({ app: request.app, action: signInAction(c), testUsers }));
  });

  // One URL for both forms, as django-oauth-toolkit's AuthorizationView: the sign-in form posts
  // to the authorize URL with its query; the consent form posts its ticket and the decision.
  app.post(OAUTH_PATHS.authorize, async (c) => {
    const form = await readForm(c);
    const pending = form.get('consent');
    if (pending !== null) {
      const target = authorizations.decide(pending, form.get('decision') === 'authorize');
      if (target === undefined) return c.html(errorPage('This sign-in is unknown, used or expired.', 'Start again from the app.'), 400);
      return c.redirect(target, 302);
    }
    const request = authorizationRequest(c);
    if (request instanceof Response) return request;
    const email = form.get('username') ?? '';
    const user = signIn(email, form.get('password') ?? '');
    if (!user) {
      const error = 'The email or the password is not right.';
      return c.html(signInPage({ app: request.app, action: signInAction(c), email, error, testUsers }));
    }
    const ticket = authorizations.awaitConsent(request, user);
    const { app: client, redirectUri } = request;
    return c.html(consentPage({ app: client, user, accountName: accountName(user.account), redirectUri, action: consentAction, ticket }));
  });
}
