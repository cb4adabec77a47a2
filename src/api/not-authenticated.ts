/**
 * The one rule for "the service did not take the token" (the caller is not signed in: no
 * token, or an unknown, expired or revoked one), as against "the signed-in caller may not do
 * this" (docs/sign-in.md, "Not signed in, or not allowed"). Only the first is worth a refresh
 * of the token, and its hint is to sign in; the second's is about permissions.
 *
 * - Every 401, with or without a `WWW-Authenticate` challenge.
 * - A 403 whose body is an authentication failure: DRF answers its NotAuthenticated and
 *   AuthenticationFailed with 403 instead of 401 when the first of its
 *   DEFAULT_AUTHENTICATION_CLASSES has no challenge to give (SessionAuthentication). Its
 *   `detail` starts with one of NOT_AUTHENTICATED_DETAILS (any case, as DRF's, its token
 *   authentication's, simplejwt's, django-oauth-toolkit's words), or its `code` (or an
 *   OAuth `error`) is one of NOT_AUTHENTICATED_CODES.
 *
 * Any other 403 ("You do not have permission to perform this action.", an account the token
 * may not act for) is a refusal of permission.
 */
export function refusesTheToken(status: number | undefined, body: unknown): boolean {
  if (status === 401) return true;
  if (status !== 403) return false;
  const answer = typeof body === 'string' ? parsed(body) : body;
  if (typeof answer === 'string') return isNotAuthenticatedDetail(answer);
  if (answer === null || typeof answer !== 'object' || Array.isArray(answer)) return false;
  const { detail, code, error } = answer as { detail?: unknown; code?: unknown; error?: unknown };
  if (typeof detail === 'string' && isNotAuthenticatedDetail(detail)) return true;
  return [code, error, (detail as { code?: unknown } | null)?.code].some((value) => typeof value === 'string' && NOT_AUTHENTICATED_CODES.has(value));
}

/** How the failures of authentication begin (rest_framework/exceptions.py and authentication.py, simplejwt, django-oauth-toolkit). */
const NOT_AUTHENTICATED_DETAILS = [
  'authentication credentials were not provided',
  'incorrect authentication credentials',
  'invalid token',
  'given token not valid',
  'token is invalid or expired',
  'token has expired',
  'signature has expired',
  'the access token is invalid',
  'the access token has expired',
];

/** DRF's codes of those failures (a custom exception handler may send them), simplejwt's, OAuth's. */
const NOT_AUTHENTICATED_CODES: ReadonlySet<string> = new Set(['not_authenticated', 'authentication_failed', 'token_not_valid', 'invalid_token']);

function isNotAuthenticatedDetail(detail: string): boolean {
  const words = detail.trim().toLowerCase();
  return NOT_AUTHENTICATED_DETAILS.some((start) => words.startsWith(start));
}

/** A body's text as JSON when it is JSON, else as it is. */
function parsed(text: string): unknown {
  const trimmed = text.trim();
  if (!trimmed.startsWith('{') && !trimmed.startsWith('"')) return trimmed;
  try {
    return JSON.parse(trimmed) as unknown;
  } catch {
    return trimmed;
  }
}
