/** What the OAuth server keeps in the sandbox state (so `--data` persists it). Times are epoch ms. */

export interface AuthorizationCode {
  code: string;
  client_id: string;
  user: number;
  /** The authorize request's redirect_uri: the token request must repeat it. */
  redirect_uri: string;
  /** PKCE S256: base64url(sha256(code_verifier)). */
  code_challenge: string;
  expires_at: number;
}

export interface AccessToken {
  token: string;
  client_id: string;
  user: number;
  expires_at: number;
}

export interface RefreshToken {
  token: string;
  client_id: string;
  user: number;
  /** The access token issued with it: revoked with it. */
  access_token: string;
}

export interface OAuthState {
  codes: AuthorizationCode[];
  access_tokens: AccessToken[];
  refresh_tokens: RefreshToken[];
}

export const emptyOAuthState = (): OAuthState => ({ codes: [], access_tokens: [], refresh_tokens: [] });
