import type { Store } from '../store.js';
import { invalidGrant, invalidRequest, OAuthError } from './errors.js';
import { param, requiredParam } from './form.js';
import { s256 } from './pkce.js';
import { signIn, type OAuthApp } from './registry.js';
import type { OAuthServer } from './server.js';
import type { TokenResponse } from './tokens.js';

/** Grants django-oauth-toolkit's server knows; an app may use its own and the refresh grant. */
const KNOWN_GRANTS = ['password', 'authorization_code', 'refresh_token', 'client_credentials'];

function passwordGrant(server: OAuthServer, app: OAuthApp, form: URLSearchParams): TokenResponse {
  const username = requiredParam(form, 'username');
  const password = requiredParam(form, 'password');
  const user = signIn(username, password);
  if (!user) throw invalidGrant('Invalid credentials given.');
  return server.tokens.issue(app.client_id, user.id);
}

/** The code is spent only by a successful exchange (oauthlib), so a wrong verifier may be retried. */
function authorizationCodeGrant(server: OAuthServer, store: Store, app: OAuthApp, form: URLSearchParams): TokenResponse {
  const code = store.authorizationCode(requiredParam(form, 'code'));
  if (!code || code.client_id !== app.client_id || code.expires_at <= server.now()) throw invalidGrant();
  const verifier = param(form, 'code_verifier');
  if (verifier === undefined) throw invalidRequest('Code verifier required.');
  if (s256(verifier) !== code.code_challenge) throw invalidGrant();
  const redirectUri = param(form, 'redirect_uri');
  if (redirectUri === undefined) throw invalidRequest('Missing redirect URI.');
  if (redirectUri !== code.redirect_uri) throw invalidRequest('Mismatching redirect URI.');
  store.removeAuthorizationCode(code.code);
  return server.tokens.issue(app.client_id, code.user);
}

function refreshTokenGrant(server: OAuthServer, app: OAuthApp, form: URLSearchParams): TokenResponse {
  const issued = server.tokens.refresh(app.client_id, requiredParam(form, 'refresh_token'));
  if (!issued) throw invalidGrant();
  return issued;
}

/** `POST /o/token/` once the client is authenticated: the grant's tokens, or an OAuthError. */
export function grantTokens(server: OAuthServer, store: Store, app: OAuthApp, form: URLSearchParams): TokenResponse {
  const grant = requiredParam(form, 'grant_type');
  if (!KNOWN_GRANTS.includes(grant)) throw new OAuthError('unsupported_grant_type');
  if (grant !== app.grant && grant !== 'refresh_token') throw new OAuthError('unauthorized_client');
  if (grant === 'password') return passwordGrant(server, app, form);
  if (grant === 'authorization_code') return authorizationCodeGrant(server, store, app, form);
  return refreshTokenGrant(server, app, form);
}
