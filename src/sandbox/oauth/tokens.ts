import { randomInt } from 'node:crypto';
import type { Store } from '../store.js';
import type { AccessToken, RefreshToken } from './records.js';

/** The body of a successful token response (django-oauth-toolkit's fields). */
export interface TokenResponse {
  access_token: string;
  expires_in: number;
  token_type: 'Bearer';
  scope: string;
  refresh_token: string;
}

/** Every sandbox token may read and write: the scopes of django-oauth-toolkit's default settings. */
const SCOPE = 'read write';

const TOKEN_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** An unguessable 30-character token, as oauthlib's generate_token makes them. */
export function generateToken(): string {
  let token = '';
  for (let i = 0; i < 30; i++) token += TOKEN_ALPHABET[randomInt(TOKEN_ALPHABET.length)];
  return token;
}

/** Why an access token is refused: django-oauth-toolkit's two descriptions. */
export type TokenRefusal = 'The access token is invalid.' | 'The access token has expired.';

/** Issues, rotates, revokes and checks the OAuth server's tokens (kept in the store). */
export class Tokens {
  constructor(
    private readonly store: Store,
    private readonly ttlSeconds: number,
    private readonly now: () => number,
  ) {}

  issue(clientId: string, user: number): TokenResponse {
    const access: AccessToken = { token: generateToken(), client_id: clientId, user, expires_at: this.now() + this.ttlSeconds * 1000 };
    const refresh: RefreshToken = { token: generateToken(), client_id: clientId, user, access_token: access.token };
    this.store.addTokens(access, refresh);
    return { access_token: access.token, expires_in: this.ttlSeconds, token_type: 'Bearer', scope: SCOPE, refresh_token: refresh.token };
  }

  /**
   * The refresh grant with rotation and no grace period: the old refresh token and its access
   * token stop working at once. Undefined when the refresh token is unknown, already used or
   * revoked, or another client's.
   */
  refresh(clientId: string, refreshToken: string): TokenResponse | undefined {
    const old = this.store.refreshToken(refreshToken);
    if (!old || old.client_id !== clientId) return undefined;
    this.store.revokeRefreshToken(old.token);
    return this.issue(clientId, old.user);
  }

  /**
   * RFC 7009 as django-oauth-toolkit does it: a refresh token stops working with its access
   * token; an access token stops working alone (its refresh token still refreshes). Another
   * client's token, or an unknown one, is left alone without saying so. (Tokens are random, so
   * the `token_type_hint` changes nothing here.)
   */
  revoke(clientId: string, token: string): void {
    if (this.store.refreshToken(token)?.client_id === clientId) this.store.revokeRefreshToken(token);
    else if (this.store.accessToken(token)?.client_id === clientId) this.store.revokeAccessToken(token);
  }

  /** The user an access token acts for, or why it is refused. */
  verify(token: string): { user: number } | { refused: TokenRefusal } {
    const access = this.store.accessToken(token);
    if (!access) return { refused: 'The access token is invalid.' };
    if (access.expires_at <= this.now()) return { refused: 'The access token has expired.' };
    return { user: access.user };
  }
}
