import { ApiError, RequestNotSent, seconds, type Failure, type NotSentReason, type RequestLine } from '../api/errors.js';
import { refusesTheToken } from '../api/not-authenticated.js';
import { BASE_URL, originOf, type Settings } from '../config/settings.js';

/**
 * What to do about a failure, in the CLI's words (its flags and its commands), chosen here,
 * at the edge, beside the exit codes (exit-codes.ts): api/ says what happened (the Failure,
 * the request, why a request was not sent) and names no flag. A layer that knows better
 * than its failure says (the proxy's variables, a redirect, the design tool, the sandbox
 * probe) gives its own hint, and that one is kept.
 */

/**
 * Where the run's service is and where that address came from: what a connection that failed
 * is told; and, when known, where the token came from: what a refused token is told.
 */
export type ServiceSettings = Pick<Settings, 'baseUrl' | 'baseUrlSource' | 'profile'> & Partial<Pick<Settings, 'tokenSource'>>;

/**
 * The hint of an error of api/, auth/ or config/: its own, else the one of what happened.
 * `service`: the run's settings, when known, for a refused connection or an unknown host.
 */
export function hintOf(error: Error & { hint?: string }, service?: ServiceSettings): string | undefined {
  if (error.hint !== undefined) return error.hint;
  if (error instanceof RequestNotSent) return NOT_SENT[error.reason];
  if (error instanceof ApiError && error.failure) {
    if (error.failure.type === 'status' && refusesTheToken(error.failure.status, error.body)) return notSignedInHint(service);
    return (service && connectionHint(error.failure, service)) ?? hintOfFailure(error.failure, error.request);
  }
  return undefined;
}

/**
 * The service did not take the token (a 401, or DRF's 403 of the same:
 * src/api/not-authenticated.ts), after the one refresh a signed-in profile gets: sign in.
 * MERCH_TOKEN's token is never refreshed: it is the variable's to replace.
 */
function notSignedInHint(service?: ServiceSettings): string {
  if (service?.tokenSource === 'env') {
    return 'the service refused the token in MERCH_TOKEN (expired or revoked?), which merch cannot refresh: set a fresh one, or unset MERCH_TOKEN and sign in: merch login';
  }
  return 'not signed in: the service refused the token (expired or revoked?): sign in again: merch login (merch auth status shows the sign-in)';
}

const NOT_SENT: Partial<Record<NotSentReason, string>> = {
  'token-over-http': 'use https, or pass --allow-http if you really mean it',
};

/** A refused connection or an unknown host: where the base URL came from, how to start the sandbox. */
function connectionHint(failure: Failure, service: ServiceSettings): string | undefined {
  if (failure.type !== 'refused' && failure.type !== 'host-not-found') return undefined;
  if (service.baseUrlSource === 'default') {
    return failure.type === 'refused'
      ? `no sandbox is running at ${service.baseUrl}: start one with \`merch sandbox\`, or log in to the service with \`merch login --base-url URL\``
      : `check the host name of ${service.baseUrl}`;
  }
  const origin = originOf(BASE_URL, service.baseUrlSource, service.profile);
  return failure.type === 'refused'
    ? `is the service at ${service.baseUrl} up? (base URL from ${origin})`
    : `check the host name of ${service.baseUrl} (base URL from ${origin}), and this machine's network and DNS`;
}

/** What to do about a failure, in one line. */
function hintOfFailure(failure: Failure, request?: RequestLine): string | undefined {
  switch (failure.type) {
    case 'refused':
      return `nothing answers at ${failure.host}: is the service up, and is the base URL right?`;
    case 'host-not-found':
      return `check the host name in the base URL (${failure.host}), and this machine's network and DNS`;
    case 'no-answer':
      // In the flag's own syntax (30s, 2m): twice the time it had.
      return `the service is slow or unreachable: try again, or allow more time: --timeout ${Math.max(1, Math.ceil((failure.timeoutMs * 2) / 1000))}s`;
    case 'closed':
      return 'the connection was cut (a proxy, or the service restarting): try again; --verbose shows each attempt';
    case 'tls':
      return "check the URL's scheme and port (https to a plain http port fails this way), the clock, or trust a private CA with NODE_EXTRA_CA_CERTS";
    case 'proxy':
      return failure.hint;
    case 'connection':
      return 'check the base URL and this machine\'s network; --verbose shows each attempt';
    case 'malformed':
      return 'the answer is not what the service sends: check that the base URL is the service, or run again with --verbose';
    case 'status':
      return hintOfStatus(failure, request);
  }
}

function hintOfStatus(failure: Extract<Failure, { type: 'status' }>, request?: RequestLine): string | undefined {
  const { status } = failure;
  if (status === 401) return notSignedInHint();
  // Not a refused token (that is the hint above): a refusal of what this sign-in may do.
  if (status === 403) return 'the token is not allowed to do this (check --account-id)';
  if (status === 404) return notFoundHint(request);
  if (status === 405) return `the service does not take ${request?.method ?? 'this method'} there: check that the base URL is the service's API`;
  if (status === 429) return `the service is limiting requests: wait${failure.retryAfterMs === undefined ? ' a little' : ` ${seconds(failure.retryAfterMs)}`}, then run again`;
  if (status >= 500) return 'the service failed on its side: try again later; --verbose shows each attempt';
  return undefined;
}

/** The command that lists the ids of the resource a path names (`$1`: the path's first number). */
const LISTED_BY: [RegExp, string][] = [
  [/^\/v1\/orders\//, 'merch orders list'],
  [/^\/v1\/custom-products\//, 'merch custom-products list'],
  [/^\/v1\/(?:supplier-)?products\/(\d+)\/parts\//, 'merch parts list $1'],
  [/^\/v1\/(supplier-)?products\//, 'merch products list'],
  [/^\/v1\/payment-methods\//, 'merch payment-methods list'],
  [/^\/v1\/core\/webhooks\//, 'merch webhooks list'],
];

/** A 404: the id, or the account it is looked for in (issue 30: every error has a hint). */
function notFoundHint(request?: RequestLine): string {
  const path = request?.path ?? '';
  const [pattern, command] = LISTED_BY.find(([candidate]) => candidate.test(path)) ?? [];
  const list = pattern && command?.replace('$1', pattern.exec(path)?.[1] ?? '');
  return `check the id${list ? ` (${list} shows them)` : ''}, and the account it is looked for in (merch auth status; --account-id)`;
}
