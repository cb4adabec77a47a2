import type { Trace } from '../api/trace.js';
import type { Settings } from '../config/settings.js';
import type { Session } from '../config/store.js';
import type { ProxyEnvironment } from '../lib/proxy-environment.js';
import { AuthError } from './errors.js';

/** A developer app and the endpoints of its authorization server, as one login uses them. */
export interface OAuthApp {
  clientId: string;
  clientSecret: string;
  /** How the token endpoint accepted the client last time; unknown: Basic, then form fields. */
  clientAuth?: 'basic' | 'post';
  tokenUrl: string;
  authorizeUrl?: string;
  revokeUrl?: string;
  insecure: boolean;
  timeoutMs: number;
  trace?: Trace;
  /** HTTPS_PROXY, HTTP_PROXY and NO_PROXY, for the token and revoke endpoints. */
  proxy?: ProxyEnvironment;
}

export type Grant = 'password' | 'authorization_code' | 'refresh_token';

/** What a token endpoint answered. */
export interface Tokens {
  accessToken: string;
  refreshToken?: string;
  /** ISO time; absent when the answer had no `expires_in`. */
  expiresAt?: string;
  clientAuth: 'basic' | 'post';
}

/** The app a stored session was obtained with, for its refreshes and its logout. */
export function appOfSession(session: Session, settings: Pick<Settings, 'insecure' | 'timeoutMs' | 'proxy'>, trace?: Trace): OAuthApp {
  if (!session.client_id || !session.client_secret || !session.token_url) {
    throw new AuthError('the stored sign-in has no developer app to refresh it with: sign in again: merch login', 'not-signed-in');
  }
  return {
    clientId: session.client_id,
    clientSecret: session.client_secret,
    clientAuth: session.client_auth,
    tokenUrl: session.token_url,
    revokeUrl: session.revoke_url,
    insecure: settings.insecure,
    timeoutMs: settings.timeoutMs,
    trace,
    proxy: settings.proxy,
  };
}

/** The stored session after a grant: new tokens, the rotated refresh token, how the client authenticated. */
export function sessionWithTokens(session: Session, tokens: Tokens): Session {
  return { ...session, refresh_token: tokens.refreshToken ?? session.refresh_token, expires_at: tokens.expiresAt, client_auth: tokens.clientAuth };
}

/** The access token has expired (or will within `marginMs`); unknown expiry never counts as expired. */
export function expiresWithin(session: Session | undefined, marginMs: number, now = Date.now()): boolean {
  if (!session?.expires_at) return false;
  return Date.parse(session.expires_at) - now <= marginMs;
}
