import { isLoopbackHost } from '../lib/loopback.js';
import { VERSION } from '../version.js';
import { backoffDelay, retryAfterMs, sleep, type BackoffPolicy } from '../lib/backoff.js';
import { parseExact, stringifyExact } from '../lib/exact-json.js';
import { inKeyOrderOf } from '../lib/key-order.js';
import { ApiError, connectionFailure, describeFailure, errorFromResponse, failureError, notJsonFailure, RequestNotSent, RequestTimeoutError, ReusedConnectionLost, type Failure } from './errors.js';
import type { ProxyEnvironment } from '../lib/proxy-environment.js';
import type { ResponseSchema } from '../lib/shapes.js';
import type { RunSecrets } from './run-secrets.js';
import { newTransport, proxyFailure } from './connections.js';
import type { Transport } from './transport.js';
import { redirectOf } from './redirects.js';
import { refusesTheToken } from './not-authenticated.js';
import type { Trace } from './trace.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export type QueryValue = string | number | bigint | boolean | undefined | null;

export interface RequestOptions<T> {
  method: HttpMethod;
  /** A path on the base URL (`/v1/orders`) or an absolute URL of the same service. */
  path: string;
  query?: Record<string, QueryValue>;
  body?: unknown;
  /** A lenient schema the response body must satisfy (lib/shapes.ts, or zod's). */
  schema?: ResponseSchema<T>;
  /** Retry on connection errors, 429 and 502/503/504. Default: every method but POST. */
  retry?: boolean;
  headers?: Record<string, string>;
  /** Send the bearer token (default true). */
  auth?: boolean;
  /**
   * For a DELETE: a 404 on a retry, after an attempt whose answer was lost (the connection
   * failed once the request may have reached the server), means that attempt deleted it.
   * The response is then `{status: 404, gone: true}` instead of an error.
   */
  goneMeansDone?: boolean;
}

export interface ApiResponse<T> {
  status: number;
  data: T;
  headers: Record<string, string | string[] | undefined>;
  attempts: number;
  /** `goneMeansDone`: the 404 of a retry whose earlier attempt's answer was lost. */
  gone?: boolean;
}

/**
 * Where the bearer token comes from: a token refreshed before it expires, and renewed once
 * after the service refused it (src/auth/token-provider.ts), or a fixed one.
 */
export interface TokenProvider {
  /** The token to send now; throws (an AuthError) when there is none to send. */
  current(): Promise<string>;
  /** After the service refused `rejected` (a 401, or DRF's 403 of the same: src/api/not-authenticated.ts): a new token to retry with once, or undefined (no retry). */
  renewAfterRejection(rejected: string): Promise<string | undefined>;
  /** There is no token at all: why (`not logged in`), said before any other check of the request. */
  readonly missing?: Error;
}

export interface ClientOptions {
  baseUrl: string;
  /** A fixed token, a provider, or none (requests go without Authorization). */
  token: string | TokenProvider | undefined;
  accountId?: string;
  timeoutMs: number;
  retries: number;
  insecure: boolean;
  /** HTTPS_PROXY, HTTP_PROXY and NO_PROXY (none: every request goes direct). */
  proxy?: ProxyEnvironment;
  /** Told each token and API key the client sends, so that no output shows them. */
  secrets?: RunSecrets;
  trace?: Trace;
  retryBaseMs?: number;
  /** Told when a retry starts waiting (a terminal shows "retrying in 3 s (429)"); what it returns is called when the wait ends. */
  onRetry?: (notice: RetryNotice) => (() => void) | void;
  /** Where requests go instead of the connections (and the proxy): the tests' in-memory service (test/support/memory-service.ts). */
  transport?: Transport;
}

/** A retry about to wait: for how long, and why (the status, or what happened to the connection). */
export interface RetryNotice {
  delayMs: number;
  reason: string;
}

const RETRYABLE_STATUS = new Set([429, 502, 503, 504]);

/** The one HTTP client: a keep-alive pool per origin (direct or through the proxy), auth headers, retries, errors. */
export class ApiClient {
  readonly baseUrl: string;
  private connections: Transport | undefined;
  private get retryPolicy(): BackoffPolicy {
    return { initialMs: this.options.retryBaseMs ?? 100, maxMs: 5_000 };
  }

  constructor(private readonly options: ClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
  }

  /** How many times a failed request is sent again (`--retries`). */
  get retries(): number {
    return this.options.retries;
  }

  async request<T = unknown>(request: RequestOptions<T>): Promise<ApiResponse<T>> {
    let url = this.urlOf(request.path, request.query);
    if (request.auth !== false && typeof this.options.token === 'object' && this.options.token.missing) throw this.options.token.missing;
    const headers = this.headersFor(url, request);
    let token = request.auth === false ? undefined : await this.currentToken({ method: request.method, path: url.pathname + url.search });
    if (token !== undefined) headers.authorization = `Bearer ${token}`;
    // An id read beyond 2^53 (a BigInt) goes back as the digits it came as (lib/exact-json.ts).
    const body = request.body === undefined ? undefined : stringifyExact(request.body);
    if (body !== undefined) headers['content-type'] = 'application/json';
    this.options.secrets?.add(token);
    this.options.secrets?.add(headers['x-api-key']);
    const retry = request.retry ?? request.method !== 'POST';
    const maxAttempts = retry ? this.options.retries + 1 : 1;
    const what = { method: request.method, path: url.pathname + url.search };
    /** An earlier attempt may have been done by the server, its answer lost (a dropped connection, a 5xx). */
    let ambiguous = false;
    /** A refused renewable token (not-authenticated.ts) gets one renewal and one more try (not counted as a retry). */
    let renewed = false;
    /** After a kept connection was cut under this request: every attempt on a new connection (api/errors.ts, ReusedConnectionLost). */
    let fresh = false;
    let redirects = 0;

    for (let attempt = 1; ; attempt++) {
      const started = Date.now();
      this.options.trace?.request(request.method, url.href, headers);
      let status: number;
      let responseHeaders: ApiResponse<T>['headers'];
      let text: string;
      // --timeout bounds the whole attempt (headers and body) with a precise timer.
      const deadline = AbortSignal.timeout(this.options.timeoutMs);
      try {
        const response = await this.transport().request({ origin: url.origin, method: request.method, path: url.pathname + url.search, headers, body, signal: deadline, fresh });
        status = response.statusCode;
        responseHeaders = response.headers;
        text = await response.body.text();
      } catch (thrown) {
        const failure = deadline.aborted
          ? connectionFailure(new RequestTimeoutError(this.options.timeoutMs), url.host)
          : proxyFailure(thrown, url, this.options.proxy) ?? connectionFailure(thrown, url.host);
        this.options.trace?.failure(request.method, url.href, describeFailure(failure), Date.now() - started, attempt);
        if (!nothingSent(failure)) ambiguous = true;
        // A kept connection cut under a read (the server closed it while idle): sent again at once on a new one, not counted as a retry.
        if (thrown instanceof ReusedConnectionLost && retry && !fresh) {
          fresh = true;
          attempt--;
          continue;
        }
        if (attempt < maxAttempts && !notWorthRetrying(failure, url)) {
          await this.waitToRetry(backoffDelay(attempt, this.retryPolicy), describeFailure(failure));
          continue;
        }
        throw failureError(what, failure, { attempts: attempt, afterAmbiguousAttempt: ambiguous });
      }
      this.options.trace?.response(request.method, url.href, status, Date.now() - started, attempt);
      if (refusesTheToken(status, text) && token !== undefined && !renewed && typeof this.options.token === 'object') {
        renewed = true;
        const next = await this.options.token.renewAfterRejection(token);
        if (next !== undefined) {
          token = next;
          this.options.secrets?.add(token);
          headers.authorization = `Bearer ${token}`;
          attempt--;
          continue;
        }
      }
      const redirect = redirectOf(what, status, url, responseHeaders.location, redirects);
      if (redirect && 'refuse' in redirect) throw redirect.refuse;
      if (redirect) {
        // Same origin (the pool's, and the token's): neither an attempt nor a retry.
        url = redirect.follow;
        redirects++;
        attempt--;
        continue;
      }
      const wasAmbiguous = ambiguous;
      if (status >= 500) ambiguous = true;
      if (RETRYABLE_STATUS.has(status) && attempt < maxAttempts) {
        await this.waitToRetry(retryAfterMs(responseHeaders['retry-after']) ?? backoffDelay(attempt, this.retryPolicy), String(status));
        continue;
      }
      if (status === 404 && request.goneMeansDone && wasAmbiguous) {
        return { status, data: undefined as T, headers: responseHeaders, attempts: attempt, gone: true };
      }
      if (status < 200 || status >= 300) {
        throw errorFromResponse(what, status, text, attempt, wasAmbiguous, retryAfterMs(responseHeaders['retry-after'], Date.now(), Infinity));
      }
      return { status, data: this.parse(what, status, text, request.schema), headers: responseHeaders, attempts: attempt };
    }
  }

  private async waitToRetry(delayMs: number, reason: string): Promise<void> {
    const waited = this.options.onRetry?.({ delayMs, reason });
    await sleep(delayMs);
    waited?.();
  }

  /**
   * The token to send. Where getting it needed the server and the server could not be
   * reached (the sandbox probe, src/auth/sandbox-check.ts), that is said of the request
   * asked for, not of `/v1/users/me`, which the user never asked for (issue 30.12).
   */
  private async currentToken(what: { method: HttpMethod; path: string }): Promise<string | undefined> {
    const { token } = this.options;
    if (typeof token !== 'object') return token;
    try {
      return await token.current();
    } catch (error) {
      const failure = error instanceof ApiError ? error.failure : undefined;
      if (failure === undefined || failure.type === 'status' || failure.type === 'malformed') throw error;
      throw failureError(what, failure, { hint: (error as ApiError).hint, facts: (error as ApiError).facts });
    }
  }

  get<T>(path: string, query?: Record<string, QueryValue>, schema?: ResponseSchema<T>): Promise<T> {
    return this.request({ method: 'GET', path, query, schema }).then((r) => r.data);
  }

  async close(): Promise<void> {
    const connections = this.connections;
    this.connections = undefined;
    await connections?.close();
  }

  /** Resolves a path or same-service absolute URL, adding query parameters. */
  urlOf(path: string, query?: Record<string, QueryValue>): URL {
    const url = /^https?:\/\//.test(path) ? new URL(path) : new URL(this.baseUrl + (path.startsWith('/') ? path : `/${path}`));
    let added = false;
    for (const [key, value] of Object.entries(query ?? {})) {
      if (value !== undefined && value !== null) {
        url.searchParams.set(key, String(value));
        added = true;
      }
    }
    // Comma lists go out as written (`categories__in=1,2`), not as `1%2C2`: a comma is a
    // legal query character and servers decode both the same.
    if (added) url.search = url.searchParams.toString().replace(/%2C/gi, ',');
    return url;
  }

  private headersFor(url: URL, request: RequestOptions<unknown>): Record<string, string> {
    const headers: Record<string, string> = {
      accept: 'application/json',
      'user-agent': `merch/${VERSION}`,
      ...request.headers,
    };
    if (request.auth !== false && this.options.token !== undefined) {
      // Checked before any token is fetched or refreshed: it only ever goes to the base URL.
      if (url.origin !== new URL(this.baseUrl).origin) {
        throw new RequestNotSent(`refusing to send the token to ${url.origin}: it is not the base URL ${this.baseUrl}`, 'token-to-other-origin');
      }
      if (url.protocol === 'http:' && !isLoopbackHost(url.hostname) && !this.options.insecure) {
        throw new RequestNotSent(`refusing to send the token over plain http to ${url.host}`, 'token-over-http');
      }
    }
    // The account is the service's: never sent to another origin (the design tool).
    if (this.options.accountId && url.origin === new URL(this.baseUrl).origin) headers['sc-account-id'] = this.options.accountId;
    return headers;
  }

  private parse<T>(what: { method: string; path: string }, status: number, text: string, schema?: ResponseSchema<T>): T {
    if (text.trim() === '') return undefined as T;
    let json: unknown;
    try {
      // Ids beyond 2^53 (a Django BigAutoField's) read exactly, as BigInts (lib/exact-json.ts).
      json = parseExact(text);
    } catch {
      throw failureError(what, notJsonFailure(status, text), { body: text });
    }
    if (!schema) return json as T;
    const parsed = schema.safeParse(json);
    // In the service's key order (the shapes put theirs first): --json prints what it sent.
    if (parsed.success) return inKeyOrderOf(json, parsed.data);
    const issue = parsed.error.issues[0];
    const field = issue?.path.length ? issue.path.join('.') : 'the body';
    throw failureError(what, { type: 'malformed', status, detail: `${field}: ${issue?.message ?? 'invalid'}` }, { body: json });
  }

  private transport(): Transport {
    this.connections ??= this.options.transport ?? newTransport(this.options.proxy, { connections: 16, keepAliveTimeout: 10_000 });
    return this.connections;
  }
}

/** The connection was refused, the host's name did not resolve, TLS or the proxy failed: the request never left. */
function nothingSent(failure: Failure): boolean {
  return failure.type === 'refused' || failure.type === 'host-not-found' || failure.type === 'tls' || failure.type === 'proxy';
}

/**
 * Nothing listens on this machine's port, the host is not found, TLS or the proxy failed: a
 * retry a moment later would only delay the error.
 */
function notWorthRetrying(failure: Failure, url: URL): boolean {
  return (failure.type === 'refused' && isLoopbackHost(url.hostname)) || failure.type === 'host-not-found' || failure.type === 'tls' || failure.type === 'proxy';
}
