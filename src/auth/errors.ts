import type { Failure } from '../api/errors.js';

/**
 * How signing in, refreshing or revoking failed, in auth's own words. auth/ chooses no
 * exit code: the CLI gives each kind its own at its edge (src/commands/exit-codes.ts).
 */
export type AuthFailure =
  /** No usable sign-in: no token, no refresh token, no developer app to refresh with. */
  | 'not-signed-in'
  /** The authorization server, or the user in the browser, said no. */
  | 'refused'
  /** The authorization server could not be reached, or did not answer in time. */
  | 'unreachable'
  /** An endpoint answered, but not as an OAuth 2.0 endpoint. */
  | 'not-oauth'
  /** A secret would go over plain http to a host that is not loopback. */
  | 'insecure'
  /** The browser did not come back to the callback in time. */
  | 'no-return'
  /** Another process is refreshing the token and did not finish in time. */
  | 'locked';

/**
 * What happened beyond its kind, which the CLI's hint names with its flags, variables and
 * commands (src/commands/hints.ts): auth/ names none.
 */
export type AuthFacts =
  /** The profile is signed in at another origin than `baseUrl`'s (src/auth/not-signed-in.ts). */
  | { of: 'signed-in-elsewhere'; baseUrl: string }
  /** `profile` holds no token for `baseUrl`. */
  | { of: 'no-token'; profile: string; baseUrl: string }
  /** The web sign-in's link was opened twice, so that sign-in was stopped. */
  | { of: 'link-reused' }
  /** The browser did not come back to `redirectUri`. */
  | { of: 'no-return'; redirectUri: string }
  /** The app may not use the grant asked for (unauthorized_client, unsupported_grant_type). */
  | { of: 'grant-not-allowed' }
  /** The token or revoke endpoint did not answer as an OAuth 2.0 endpoint. */
  | { of: 'not-an-endpoint'; endpoint: 'token' | 'revoke' }
  /** The authorization server at `origin` could not be reached. */
  | { of: 'unreachable'; origin: string; failure: Failure };

export class AuthError extends Error {
  constructor(
    message: string,
    readonly kind: AuthFailure,
    /** What to do, when it names nothing of the CLI; else the CLI chooses it from `facts`. */
    readonly hint?: string,
    readonly facts?: AuthFacts,
  ) {
    super(message);
    this.name = 'AuthError';
  }
}
