/**
 * The token and revocation endpoints' errors, as oauthlib (behind django-oauth-toolkit) answers
 * them: `{"error", "error_description"?}`; a 401 also carries the challenge oauthlib adds,
 * `WWW-Authenticate: Bearer error="invalid_client"`.
 */
export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type';

export class OAuthError extends Error {
  readonly status: 400 | 401;

  constructor(
    readonly error: OAuthErrorCode,
    readonly description?: string,
  ) {
    super(description ?? error);
    this.status = error === 'invalid_client' ? 401 : 400;
  }
}

export const invalidRequest = (description: string): OAuthError => new OAuthError('invalid_request', description);

export const invalidGrant = (description?: string): OAuthError => new OAuthError('invalid_grant', description);

/** Token responses, good or bad, are never cached (RFC 6749 5.1). */
export const NO_STORE = { 'Cache-Control': 'no-store', Pragma: 'no-cache' } as const;

export function oauthErrorResponse(error: OAuthError): Response {
  const body = error.description === undefined ? { error: error.error } : { error: error.error, error_description: error.description };
  const challenge = [`error="${error.error}"`, ...(error.description === undefined ? [] : [`error_description="${error.description}"`])];
  return Response.json(body, {
    status: error.status,
    headers: { ...NO_STORE, ...(error.status === 401 ? { 'WWW-Authenticate': `Bearer ${challenge.join(', ')}` } : {}) },
  });
}
