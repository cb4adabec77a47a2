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

export class AuthError extends Error {
  constructor(
    message: string,
    readonly kind: AuthFailure,
    readonly hint?: string,
  ) {
    super(message);
    this.name = 'AuthError';
  }
}
