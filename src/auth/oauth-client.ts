import { rewriteJson } from '../lib/json-response.js';
import * as oauth from 'oauth4webapi';
import { newTransport, proxyFailure } from '../api/connections.js';
import { connectionFailure, describeCause, describeFailure, RequestTimeoutError } from '../api/errors.js';
import { isLoopbackHost } from '../lib/loopback.js';
import { VERSION } from '../version.js';
import { AuthError } from './errors.js';
import type { OAuthApp, Grant, Tokens } from './oauth-app.js';

// The OAuth 2.0 grants, through oauth4webapi. This module (and the library) is loaded only
// by login, logout, `auth token`/`auth refresh`, and a token provider that must refresh.

type ClientAuthMethod = NonNullable<OAuthApp['clientAuth']>;

/** Password grant (private apps). */
export function passwordGrant(app: OAuthApp, username: string, password: string): Promise<Tokens> {
  return tokenRequest(app, 'password', (as, client, auth, options) =>
    oauth.genericTokenEndpointRequest(as, client, auth, 'password', { username, password }, options),
  );
}

/** Authorization code grant with the PKCE verifier (third-party apps), from a checked callback. */
export function authorizationCodeGrant(app: OAuthApp, callback: URLSearchParams, redirectUri: string, codeVerifier: string): Promise<Tokens> {
  return tokenRequest(app, 'authorization_code', (as, client, auth, options) =>
    oauth.authorizationCodeGrantRequest(as, client, auth, callback, redirectUri, codeVerifier, options),
  );
}

/** Refresh grant: the provider rotates the refresh token, so the answer's one replaces it. */
export function refreshGrant(app: OAuthApp, refreshToken: string): Promise<Tokens> {
  return tokenRequest(app, 'refresh_token', (as, client, auth, options) => oauth.refreshTokenGrantRequest(as, client, auth, refreshToken, options));
}

/** Revokes a token (RFC 7009). Throws an AuthError when the endpoint refuses or cannot be reached. */
export async function revokeToken(app: OAuthApp & { revokeUrl: string }, token: string, hint: 'access_token' | 'refresh_token'): Promise<void> {
  const as = authorizationServer(app);
  const response = await send(app, app.revokeUrl, () =>
    oauth.revocationRequest(as, { client_id: app.clientId }, clientAuth(app, app.clientAuth ?? 'basic'), token, {
      ...requestOptions(app),
      additionalParameters: { token_type_hint: hint },
    }),
  );
  try {
    await oauth.processRevocationResponse(response);
  } catch (error) {
    throw refusal(app, 'revoke', error);
  }
}

/**
 * The parameters of a callback that carries this login's state (web-login.ts ignores the
 * others), checked: no error came back, and it is an authorization response.
 */
export function checkCallback(app: OAuthApp, callback: URLSearchParams, expectedState: string): URLSearchParams {
  try {
    return oauth.validateAuthResponse(authorizationServer(app), { client_id: app.clientId }, callback, expectedState);
  } catch (error) {
    if (error instanceof oauth.AuthorizationResponseError) {
      if (error.error === 'access_denied') throw new AuthError('sign-in was denied in the browser (access_denied): nothing stored', 'refused');
      throw new AuthError(`the authorization server answered ${oneLine(error.error)}${error.error_description ? `: ${oneLine(error.error_description)}` : ''}`, 'refused');
    }
    throw new AuthError(`the callback is not an authorization response: ${oneLine(error instanceof Error ? error.message : String(error))}`, 'refused');
  }
}

type Send = (
  as: oauth.AuthorizationServer,
  client: oauth.Client,
  auth: oauth.ClientAuth,
  options: oauth.TokenEndpointRequestOptions,
) => Promise<Response>;

/**
 * One token request. Client authentication is HTTP Basic, as RFC 6749 asks servers to
 * accept; a provider that refuses it (401) is asked again with form fields, and the method
 * that worked is kept in the session for its refreshes.
 */
async function tokenRequest(app: OAuthApp, grant: Grant, request: Send): Promise<Tokens> {
  const as = authorizationServer(app);
  const client = { client_id: app.clientId };
  const attempt = (method: ClientAuthMethod) => send(app, app.tokenUrl, () => request(as, client, clientAuth(app, method), requestOptions(app)));
  let method: ClientAuthMethod = app.clientAuth ?? 'basic';
  let response = await attempt(method);
  if (app.clientAuth === undefined && response.status === 401) {
    await response.body?.cancel();
    method = 'post';
    response = await attempt(method);
  }
  try {
    const answer =
      grant === 'authorization_code'
        ? await oauth.processAuthorizationCodeResponse(as, client, response)
        : grant === 'refresh_token'
          ? await oauth.processRefreshTokenResponse(as, client, response)
          : await oauth.processGenericTokenEndpointResponse(as, client, response);
    return {
      accessToken: answer.access_token,
      refreshToken: answer.refresh_token,
      expiresAt: answer.expires_in === undefined ? undefined : new Date(Date.now() + answer.expires_in * 1000).toISOString(),
      clientAuth: method,
    };
  } catch (error) {
    throw refusal(app, grant, error);
  }
}

function authorizationServer(app: OAuthApp): oauth.AuthorizationServer {
  return {
    issuer: new URL(app.tokenUrl).origin,
    token_endpoint: app.tokenUrl,
    authorization_endpoint: app.authorizeUrl,
    revocation_endpoint: app.revokeUrl,
  };
}

function clientAuth(app: OAuthApp, method: ClientAuthMethod): oauth.ClientAuth {
  return method === 'basic' ? oauth.ClientSecretBasic(app.clientSecret) : oauth.ClientSecretPost(app.clientSecret);
}

/** Timeouts, the --verbose trace (headers redacted; bodies, which hold the secrets, never shown). */
function requestOptions(app: OAuthApp): oauth.TokenEndpointRequestOptions {
  return {
    signal: () => AbortSignal.timeout(app.timeoutMs),
    headers: { 'user-agent': `merch/${VERSION}` },
    // Plain http is allowed to loopback (a sandbox) and with --allow-http, as for the API.
    [oauth.allowInsecureRequests]: true,
    [oauth.customFetch]: async (url, init) => {
      const started = Date.now();
      app.trace?.request(init.method, url, init.headers);
      try {
        const response = await oneRequest(app, new URL(url), init);
        app.trace?.response(init.method, url, response.status, Date.now() - started, 1);
        return await withoutIdToken(response);
      } catch (error) {
        app.trace?.failure(init.method, url, describeCause(causeOf(error), new URL(url).host), Date.now() - started, 1);
        throw error;
      }
    },
  };
}

/**
 * One request, direct or through the proxy (src/api/connections.ts), as the Response
 * oauth4webapi reads. A token request is a one-off (the API has its own pool): no socket is
 * kept for a later request to find closed by the server.
 */
async function oneRequest(app: OAuthApp, url: URL, init: RequestInit): Promise<Response> {
  const headers: Record<string, string> = {};
  new Headers(init.headers).forEach((value, name) => (headers[name] = value));
  headers.connection = 'close';
  const body = init.body === undefined || init.body === null ? undefined : String(init.body);
  const transport = newTransport(app.proxy);
  try {
    const answer = await transport.request({ origin: url.origin, path: url.pathname + url.search, method: init.method ?? 'GET', headers, body, ...(init.signal ? { signal: init.signal } : {}) });
    const text = await answer.body.text();
    const answerHeaders = new Headers();
    for (const [name, value] of Object.entries(answer.headers)) {
      for (const each of Array.isArray(value) ? value : value === undefined ? [] : [value]) answerHeaders.append(name, each);
    }
    return new Response([101, 204, 205, 304].includes(answer.statusCode) ? null : text, { status: answer.statusCode, headers: answerHeaders });
  } finally {
    await transport.close();
  }
}

/**
 * merch asks for no OpenID scope, so an `id_token` in a token response is not its to check:
 * a provider that adds one anyway (oauth2-mock-server does, with an audience it left
 * URL-encoded) must not make the sign-in fail.
 */
async function withoutIdToken(response: Response): Promise<Response> {
  if (!response.ok || !response.headers.get('content-type')?.includes('json')) return response;
  return rewriteJson(response, (body) => {
    if (body !== null && typeof body === 'object' && 'id_token' in body) delete (body as { id_token?: unknown }).id_token;
    return JSON.stringify(body);
  });
}

/** Sends one request to an OAuth endpoint: https, or http to loopback, or --allow-http. */
async function send(app: OAuthApp, endpoint: string, request: () => Promise<Response>): Promise<Response> {
  const url = new URL(endpoint);
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname) && !app.insecure) {
    throw new AuthError(`refusing to send the client secret over plain http to ${url.host}`, 'insecure');
  }
  try {
    return await request();
  } catch (error) {
    const failure =
      error instanceof Error && error.name === 'TimeoutError'
        ? connectionFailure(new RequestTimeoutError(app.timeoutMs), url.host)
        : proxyFailure(error, url, app.proxy) ?? connectionFailure(causeOf(error), url.host);
    throw new AuthError(`POST ${url.origin}${url.pathname} failed: ${describeFailure(failure)}`, 'unreachable', undefined, { of: 'unreachable', origin: url.origin, failure });
  }
}

/** The one-line message of a token or revoke endpoint's refusal, with what to check. */
function refusal(app: OAuthApp, grant: Grant | 'revoke', error: unknown): AuthError {
  const code = errorCode(error);
  const where = grant === 'revoke' ? app.revokeUrl : app.tokenUrl;
  if (code === 'invalid_client') {
    return new AuthError(`the authorization server refused the client (invalid_client): check the client id ${app.clientId} and the client secret (MERCH_CLIENT_SECRET)`, 'refused');
  }
  if (code === 'invalid_grant') {
    if (grant === 'password') return new AuthError('the authorization server refused the email or password (invalid_grant): check --username and the password', 'refused');
    if (grant === 'refresh_token') return new AuthError('the sign-in has expired or was revoked (refresh refused: invalid_grant): sign in again: merch login', 'refused');
    return new AuthError('the authorization code was refused (invalid_grant): run merch login --web again', 'refused');
  }
  if (code === 'unauthorized_client' || code === 'unsupported_grant_type') {
    return new AuthError(`this app may not use the ${grant} grant (${code})`, 'refused', undefined, { of: 'grant-not-allowed' });
  }
  if (code !== undefined) return new AuthError(`${where} refused the request: ${oneLine(code)}`, 'refused');
  // oauth4webapi's "not a conform response" errors carry the response as their cause.
  const cause = (error as { cause?: unknown }).cause;
  const status = cause instanceof Response ? cause.status : undefined;
  return new AuthError(
    `${where} did not answer as an OAuth 2.0 ${grant === 'revoke' ? 'revocation' : 'token'} endpoint (${status ? `HTTP ${status}` : oneLine(error instanceof Error ? error.message : String(error))})`,
    'not-oauth',
    undefined,
    { of: 'not-an-endpoint', endpoint: grant === 'revoke' ? 'revoke' : 'token' },
  );
}

function errorCode(error: unknown): string | undefined {
  if (error instanceof oauth.ResponseBodyError) return error.error;
  if (error instanceof oauth.WWWAuthenticateChallengeError) {
    const fromChallenge = error.cause.map((challenge) => challenge.parameters.error).find((value) => value !== undefined);
    return fromChallenge ?? (error.status === 401 ? 'invalid_client' : undefined);
  }
  return undefined;
}

function causeOf(error: unknown): unknown {
  return error instanceof TypeError && error.cause !== undefined ? error.cause : error;
}

function oneLine(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ').slice(0, 200);
}
