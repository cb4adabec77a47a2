import type { Store } from '../store.js';
import type { OAuthApp, SandboxUser } from './registry.js';
import type { OAuthServer } from './server.js';
import { generateToken } from './tokens.js';

/** A validated `GET /o/authorize/` request. */
export interface AuthorizationRequest {
  app: OAuthApp;
  redirectUri: string;
  state: string | undefined;
  codeChallenge: string;
}

/**
 * Refused before the redirect URI is trusted (unknown client, missing or unregistered redirect
 * URI): shown as a 400 page, never redirected, as django-oauth-toolkit does.
 */
export class AuthorizePageError extends Error {
  constructor(
    message: string,
    /** What the page adds to help (the registered URIs). */
    readonly hint?: string,
  ) {
    super(message);
  }
}

/** Refused once the redirect URI is trusted: sent back to it as `?error=...&state=...`. */
export class AuthorizeRedirectError extends Error {
  /** The redirect URI with the error. */
  readonly location: string;

  constructor(
    target: { redirectUri: string; state: string | undefined },
    error: 'invalid_request' | 'unsupported_response_type',
    description?: string,
  ) {
    super(description ?? error);
    this.location = callbackUrl(target.redirectUri, target.state, { error, ...(description === undefined ? {} : { error_description: description }) });
  }
}

/** The authorization code's lifetime (django-oauth-toolkit's AUTHORIZATION_CODE_EXPIRE_SECONDS). */
const CODE_TTL_MS = 60_000;

/** How long a signed-in user may take to press Authorize or Deny. */
const CONSENT_TTL_MS = 10 * 60_000;

export function parseAuthorizationRequest(apps: readonly OAuthApp[], query: URLSearchParams): AuthorizationRequest {
  const clientId = query.get('client_id');
  if (!clientId) throw new AuthorizePageError('The request has no client_id.');
  const app = apps.find((candidate) => candidate.client_id === clientId);
  if (!app) throw new AuthorizePageError(`No app has the client id "${clientId}".`);
  const redirectUri = query.get('redirect_uri');
  if (!redirectUri) throw new AuthorizePageError('The request has no redirect_uri.');
  if (!app.redirect_uris.includes(redirectUri)) {
    throw new AuthorizePageError(
      `The redirect URI ${redirectUri} is not registered for ${app.name}. Callback URLs must match exactly (scheme, host, port and path).`,
      app.redirect_uris.length === 0 ? 'This app has no registered callback URL.' : `Registered: ${app.redirect_uris.join(', ')}`,
    );
  }
  const request = { app, redirectUri, state: query.get('state') ?? undefined };
  const responseType = query.get('response_type');
  if (!responseType) throw new AuthorizeRedirectError(request, 'invalid_request', 'Missing response_type parameter.');
  if (responseType !== 'code') throw new AuthorizeRedirectError(request, 'unsupported_response_type');
  const codeChallenge = query.get('code_challenge');
  if (!codeChallenge) throw new AuthorizeRedirectError(request, 'invalid_request', 'Code challenge required.');
  if (query.get('code_challenge_method') !== 'S256') {
    throw new AuthorizeRedirectError(request, 'invalid_request', 'Transform algorithm not supported.');
  }
  return { ...request, codeChallenge };
}

/** Where the browser goes back to: the redirect URI with the answer (and the state) added. */
export function callbackUrl(redirectUri: string, state: string | undefined, answer: Record<string, string>): string {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(answer)) url.searchParams.set(name, value);
  if (state !== undefined) url.searchParams.set('state', state);
  return url.href;
}

/** A user who signed in on the authorize page and has yet to press Authorize or Deny. */
interface PendingConsent {
  request: AuthorizationRequest;
  user: SandboxUser;
  expiresAt: number;
}

/**
 * The authorization code flow's steps after sign-in. A pending consent is named by an
 * unguessable ticket in the consent form (it carries the checked request, so the form cannot
 * change it); it lives in memory only, as a browser session would.
 */
export class Authorizations {
  private readonly pending = new Map<string, PendingConsent>();

  constructor(
    private readonly server: OAuthServer,
    private readonly store: Store,
  ) {}

  /** The ticket the consent form sends back. */
  awaitConsent(request: AuthorizationRequest, user: SandboxUser): string {
    const now = this.server.now();
    for (const [ticket, consent] of this.pending) if (consent.expiresAt <= now) this.pending.delete(ticket);
    const ticket = generateToken();
    this.pending.set(ticket, { request, user, expiresAt: now + CONSENT_TTL_MS });
    return ticket;
  }

  /** Authorize or Deny: the URL to redirect to; undefined for an unknown, used or expired ticket. */
  decide(ticket: string, authorized: boolean): string | undefined {
    const consent = this.pending.get(ticket);
    this.pending.delete(ticket);
    if (!consent || consent.expiresAt <= this.server.now()) return undefined;
    const { request, user } = consent;
    if (!authorized) return callbackUrl(request.redirectUri, request.state, { error: 'access_denied' });
    const code = generateToken();
    this.store.addAuthorizationCode({
      code,
      client_id: request.app.client_id,
      user: user.id,
      redirect_uri: request.redirectUri,
      code_challenge: request.codeChallenge,
      expires_at: this.server.now() + CODE_TTL_MS,
    });
    return callbackUrl(request.redirectUri, request.state, { code });
  }
}
