import { ApiError, RequestNotSent, seconds, type Failure, type NotSentReason, type RequestLine } from '../api/errors.js';
import { refusesTheToken } from '../api/not-authenticated.js';
import { AuthError } from '../auth/errors.js';
import { ConfigError, type ConfigFailure } from '../config/errors.js';
import { BASE_URL, originOf, type Settings } from '../config/settings.js';

/**
 * What to do about a failure, in the CLI's words (its flags, its variables and its
 * commands), chosen here, at the edge, beside the exit codes (exit-codes.ts): api/, auth/
 * and config/ say what happened (the Failure, the request, why a request was not sent, the
 * kind of an error and its facts: the proxy's variable, the design tool's URL, the sandbox
 * probe's origin, ...) and name none of them. A layer that knows better than its failure
 * says, in words that name nothing of the CLI (a redirect to another origin), gives its own
 * hint, and that one is kept.
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
  const designTool = error instanceof ApiError ? designToolHint(error) : undefined;
  if (designTool !== undefined) return designTool;
  if (error.hint !== undefined) return error.hint;
  if (error instanceof RequestNotSent) return NOT_SENT[error.reason];
  if (error instanceof AuthError) return authHint(error);
  if (error instanceof ConfigError) return configHint(error);
  if (error instanceof ApiError && error.failure) {
    const { redirect, sandboxProbe } = error.facts;
    if (redirect !== undefined) return REDIRECT[redirect];
    if (sandboxProbe !== undefined && error.failure.type === 'refused') return noSandboxHint(sandboxProbe);
    if (error.failure.type === 'status' && refusesTheToken(error.failure.status, error.body)) return notSignedInHint(service);
    return (service && connectionHint(error.failure, service)) ?? hintOfFailure(error.failure, error.request);
  }
  return undefined;
}

/** The design tool's refusal of its key, or its URL unreachable: about the design tool, not the service. */
function designToolHint(error: ApiError): string | undefined {
  const { designTool } = error.facts;
  if (designTool === undefined) return undefined;
  if (error.kind === 'auth') return 'check the design tool API key: MERCH_DESIGN_TOOL_KEY, or `echo "$KEY" | merch config set design-tool-key`';
  // Under the base URL (the sandbox's), the service's own hints say it.
  if (error.kind === 'network' && designTool.apart) {
    return `is the design tool at ${designTool.url} up? (design tool URL from --design-tool-url, MERCH_DESIGN_TOOL_URL or the profile)`;
  }
  return undefined;
}

const REDIRECT: Record<NonNullable<ApiError['facts']['redirect']>, string> = {
  unreadable: 'the service answered a redirect that cannot be followed; run again with --verbose',
  loop: 'the service redirects in a loop: check the base URL, or run again with --verbose',
};

/** The sandbox probe found nothing at `origin`: only a loopback base URL with no token is probed, most likely a sandbox not started. */
function noSandboxHint(origin: string): string {
  const { port } = new URL(origin);
  return `no merch sandbox answers at ${origin}: start one with \`merch sandbox${port ? ` --port ${port}` : ''}\``;
}

function authHint(error: AuthError): string | undefined {
  // Only the token URL's client secret is refused over plain http.
  if (error.kind === 'insecure') return 'use an https token URL, or pass --allow-http if you really mean it';
  const facts = error.facts;
  switch (facts?.of) {
    case 'signed-in-elsewhere':
      return `sign in there: merch login --base-url ${facts.baseUrl} (with --profile NAME to keep this sign-in), or set MERCH_TOKEN`;
    case 'no-token':
      return `profile ${facts.profile} has no token for ${facts.baseUrl} (MERCH_TOKEN also works)`;
    case 'link-reused':
      return 'run merch login --web again';
    case 'no-return':
      return `the app's callback URL must be exactly ${facts.redirectUri} (127.0.0.1, not localhost; this port: --callback-port); otherwise the provider shows an error page instead of coming back`;
    case 'grant-not-allowed':
      return 'a private app signs in with --client-id and --username, a third-party app with --web --client-id';
    case 'not-an-endpoint':
      return facts.endpoint === 'revoke' ? 'check --revoke-url' : 'check --token-url (the developer apps page shows it)';
    case 'unreachable':
      return facts.failure.type === 'proxy' ? proxyHint(facts.failure) : `is the authorization server at ${facts.origin} up?`;
    case undefined:
      return undefined;
  }
}

/** A config error's hint by its kind, where one kind has one hint. */
const CONFIG: Partial<Record<ConfigFailure, string>> = {
  'no-design-tool-key': 'echo "$KEY" | merch config set design-tool-key   (the key comes from the design tool provider)',
  insecure: 'use an https design tool URL, or pass --allow-http if you really mean it',
  keyring: 'unlock the keyring, or sign in again: merch login (--insecure-storage keeps the token in the config file)',
};

function configHint(error: ConfigError): string | undefined {
  const facts = error.facts;
  switch (facts?.of) {
    case 'invalid-file':
      return 'fix or delete it, then run merch login again';
    case 'not-a-regular-file':
      return `make ${facts.path} a regular file (or remove it and sign in again: merch login)`;
    case 'key-for-other-origin':
      return `store one for it: echo "$KEY" | merch config set design-tool-key --design-tool-url ${facts.designToolUrl} (with --profile NAME to keep this one), or set MERCH_DESIGN_TOOL_KEY`;
    case undefined:
      return CONFIG[error.kind];
  }
}

/** The proxy refused the connection, asks for credentials, or will not reach the host: its variable, or NO_PROXY. */
function proxyHint(failure: Extract<Failure, { type: 'proxy' }>): string {
  const target = new URL(failure.origin);
  switch (failure.problem) {
    case 'refused':
      return `is the proxy up? check ${failure.variable}, or list ${target.hostname} in NO_PROXY`;
    case 'credentials':
      return `${failure.variable}=http://USER:PASSWORD@${failure.proxyHost} (percent-encode special characters)`;
    case 'tunnel':
      return `the proxy will not reach ${target.host}: ask its administrator, or list the host in NO_PROXY`;
  }
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
      return proxyHint(failure);
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
