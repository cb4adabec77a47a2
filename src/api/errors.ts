import { fieldErrorsOf, formatFieldError } from './field-errors.js';
import { parseExact, stringifyExact } from '../lib/exact-json.js';

/**
 * The one vocabulary of failures. Every request that fails, in every command, the order
 * wizard and the waiters included, says why in these words: `<what> failed: <cause>`, then
 * one hint. The cause is a Failure, described by describeFailure(); the hint, which names
 * the CLI's flags and commands, is chosen from it at the CLI's edge (src/commands/hints.ts).
 */
export type Failure =
  /** Nothing listens at the address: the request never left. */
  | { type: 'refused'; host: string }
  /** The host's name does not resolve (or DNS did not answer): the request never left. */
  | { type: 'host-not-found'; host: string }
  /** No complete answer within --timeout. */
  | { type: 'no-answer'; timeoutMs: number }
  /** The connection was cut before the answer was complete. */
  | { type: 'closed' }
  /** The TLS handshake failed (a certificate, or not TLS at that port). */
  | { type: 'tls'; detail: string }
  /**
   * The proxy (`variable`: HTTPS_PROXY or HTTP_PROXY, at `proxyHost`) refused the connection,
   * asks for credentials, or would not open the tunnel to `origin`.
   */
  | { type: 'proxy'; detail: string; problem: 'refused' | 'credentials' | 'tunnel'; variable: string; proxyHost: string; origin: string }
  /** Any other connection failure, in Node's words. */
  | { type: 'connection'; detail: string }
  /** The service answered with an error status. `title`: the reason (an HTML page's title when it sent one). */
  | { type: 'status'; status: number; title: string; message: string; retryAfterMs?: number }
  /** The answer cannot be read: not JSON (its first bytes), or not the shape expected. */
  | { type: 'malformed'; status: number; detail: string };

/**
 * What kind of failure, in the API's own words: api/ chooses no exit code, the CLI gives
 * each kind its own at its edge (src/commands/exit-codes.ts).
 */
export type ApiErrorKind = 'auth' | 'not_found' | 'refused' | 'server' | 'network' | 'unexpected';

/**
 * What the layer that raised an error knows beyond its failure, and the CLI's hint names with
 * its flags and commands (src/commands/hints.ts).
 */
export interface ApiFacts {
  /** The sandbox probe's origin (src/auth/sandbox-check.ts): where a sandbox was looked for. */
  sandboxProbe?: string;
  /** A redirect not followed because it cannot be read (`unreadable`) or goes round (`loop`). */
  redirect?: 'unreadable' | 'loop';
  /** The request went to the design tool at `url`, `apart` from the service's base URL or under it. */
  designTool?: { url: string; apart: boolean };
}

/** A request the service refused or that could not complete. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly kind: ApiErrorKind,
    readonly status: number | undefined,
    /** The parsed error body (JSON) or its text, when the server sent one. */
    readonly body: unknown,
    /**
     * What to do about it, in one line, when the one who raised it knows better than its
     * failure says (a redirect to another origin); else the CLI chooses it. It names no flag,
     * variable or command: a hint that does is the CLI's, chosen from `facts`.
     */
    readonly hint?: string,
    /**
     * An earlier attempt of this request may have reached the service and done its work,
     * its answer lost (a dropped connection, a 5xx): this answer may be about a repeat.
     */
    readonly afterAmbiguousAttempt = false,
    /** Why the request failed, when it was a request that failed (not a check of its answer's meaning). */
    readonly failure?: Failure,
    /** The request that failed. */
    readonly request?: RequestLine,
    /** What the CLI's hint names beyond the failure. */
    readonly facts: ApiFacts = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** Why a request was not sent: the caller's to fix, nothing left this machine. */
export type NotSentReason =
  /** The bearer token would go to an origin that is not the base URL's. */
  | 'token-to-other-origin'
  /** The bearer token would go over plain http to a host that is not loopback. */
  | 'token-over-http'
  /** An id that cannot be one segment of a resource's path (empty, `.` or `..`). */
  | 'not-an-id'
  /** HTTPS_PROXY or HTTP_PROXY is not an http(s) URL. */
  | 'bad-proxy';

/** A request refused here, before it was sent. */
export class RequestNotSent extends Error {
  constructor(
    message: string,
    readonly reason: NotSentReason,
    /** What to do about it, when the CLI's usual hint of `reason` does not say it (src/commands/hints.ts). */
    readonly hint?: string,
  ) {
    super(message);
    this.name = 'RequestNotSent';
  }
}

/** The method and path of the request, as the first line names it (`GET /v1/orders/5`). */
export interface RequestLine {
  method: string;
  path: string;
}

/** `GET /v1/orders/5 failed: 502 Bad Gateway (after 4 attempts)`: the one form of the first line. */
function failedMessage(request: RequestLine, cause: string, attempts = 1): string {
  return `${request.method} ${request.path} failed: ${cause}${attempts > 1 ? ` (after ${attempts} attempts)` : ''}`;
}

/** An ApiError for a failure of `request`, with its message (`hint`: what to do, when it is not the usual one of the failure). */
export function failureError(
  request: RequestLine,
  failure: Failure,
  options: { attempts?: number; body?: unknown; hint?: string; afterAmbiguousAttempt?: boolean; facts?: ApiFacts } = {},
): ApiError {
  return new ApiError(
    failedMessage(request, describeFailure(failure), options.attempts),
    kindOfFailure(failure),
    failure.type === 'status' || failure.type === 'malformed' ? failure.status : undefined,
    options.body,
    options.hint,
    options.afterAmbiguousAttempt ?? false,
    failure,
    request,
    options.facts,
  );
}

function kindOfStatus(status: number): ApiErrorKind {
  if (status === 401 || status === 403) return 'auth';
  if (status === 404) return 'not_found';
  if (status === 400 || status === 409 || status === 422) return 'refused';
  if (status >= 500 || status === 429) return 'server';
  return 'unexpected';
}

function kindOfFailure(failure: Failure): ApiErrorKind {
  if (failure.type === 'status') return kindOfStatus(failure.status);
  if (failure.type === 'malformed') return 'unexpected';
  return 'network';
}

/**
 * A failure that goes away by itself, worth asking again later (a waiter polls on through
 * it): no answer in time, a cut connection or another network failure on the way (a host
 * unreachable for now), a 5xx, a 429. A refused connection, an unknown host, a TLS
 * failure, a 4xx and a malformed answer will not change by waiting.
 */
export function isPassing(failure: Failure | undefined): boolean {
  if (failure === undefined) return false;
  if (failure.type === 'no-answer' || failure.type === 'closed' || failure.type === 'connection') return true;
  return failure.type === 'status' && (failure.status >= 500 || failure.status === 429);
}

/** The cause, in the words every command uses: `connection refused (127.0.0.1:4010)`, `502 Bad Gateway`, ... */
export function describeFailure(failure: Failure): string {
  switch (failure.type) {
    case 'refused':
      return 'connection refused';
    case 'host-not-found':
      return `host not found (${failure.host})`;
    case 'no-answer':
      return `no answer within ${failure.timeoutMs} ms (--timeout)`;
    case 'closed':
      return 'connection closed by the server before it answered';
    case 'tls':
      return `TLS error: ${failure.detail}`;
    case 'proxy':
      return failure.detail;
    case 'connection':
      return `connection failed: ${failure.detail}`;
    case 'malformed':
      return `malformed answer (${failure.status}): ${failure.detail}`;
    case 'status': {
      const retry = failure.retryAfterMs === undefined ? '' : ` (Retry-After: ${seconds(failure.retryAfterMs)})`;
      const message = failure.message === '' || sameWords(failure.message, failure.title) ? '' : `: ${failure.message}`;
      return `${failure.status}${failure.title ? ` ${failure.title}` : ''}${retry}${message}`;
    }
  }
}

/** The cause of an error in these words (its message, when it is not a failure of a request). */
export function causeOf(error: ApiError): string {
  return error.failure ? describeFailure(error.failure) : error.message;
}

/**
 * The one place an error is built from an HTTP response. Tolerates any body: `{detail}`,
 * `{message}`, `{error}`, a map of field -> messages, plain text or an HTML page (its
 * `<title>` names the error: Django's `Server Error (500)`, nginx's `502 Bad Gateway`).
 */
export function errorFromResponse(
  request: RequestLine,
  status: number,
  bodyText: string,
  attempts = 1,
  afterAmbiguousAttempt = false,
  retryAfterMs?: number,
): ApiError {
  return failureError(request, statusFailure(status, bodyText, retryAfterMs), {
    attempts,
    body: parseJson(bodyText) ?? bodyText,
    afterAmbiguousAttempt,
  });
}

/** An error status and what its body says. */
function statusFailure(status: number, bodyText: string, retryAfterMs?: number): Failure {
  const body = parseJson(bodyText);
  const page = body === undefined ? htmlPage(bodyText) : undefined;
  const message = body !== undefined ? jsonMessage(body) : page ? '' : oneLine(bodyText);
  const title = page?.title ? withoutStatus(page.title, status) || REASONS[status] || '' : REASONS[status] ?? '';
  return { type: 'status', status, title, message, ...(status === 429 && retryAfterMs !== undefined ? { retryAfterMs } : {}) };
}

/** An answer that does not parse as JSON: its first bytes, shown safely. */
export function notJsonFailure(status: number, bodyText: string): Failure {
  return { type: 'malformed', status, detail: `not JSON, it starts with '${firstBytes(bodyText)}'` };
}

/** An attempt that got no complete answer within `--timeout`. */
export class RequestTimeoutError extends Error {
  override name = 'RequestTimeoutError';
  constructor(readonly timeoutMs: number) {
    super(`no answer within ${timeoutMs} ms (--timeout)`);
  }
}

/**
 * A kept-alive connection that had served a request before was cut as this request went out
 * on it (node:http's `reusedSocket`): most likely the server closed it while it lay idle, and
 * the request went unread, though that cannot be known. A connection closed ('closed'): a
 * read is sent again at once on a new connection (src/api/client.ts); a POST is not, and
 * what it did is looked up (src/orders/create/exactly-once.ts), on a new connection too.
 */
export class ReusedConnectionLost extends Error {
  override name = 'ReusedConnectionLost';
  constructor(cause: unknown) {
    super(`a kept-alive connection was cut: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
}

const TLS_CODE = /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|HOSTNAME_MISMATCH|EPROTO$)/;

/** What happened to a connection, from the error Node or undici (through a proxy) threw (`host`: host:port it went to). */
export function connectionFailure(cause: unknown, host: string): Failure {
  if (cause instanceof RequestTimeoutError) return { type: 'no-answer', timeoutMs: cause.timeoutMs };
  if (cause instanceof ReusedConnectionLost) return { type: 'closed' };
  const error = innermost(cause);
  const code = (error as { code?: unknown } | undefined)?.code;
  if (code === 'ECONNREFUSED') return { type: 'refused', host };
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_NONAME' || code === 'EAI_FAIL') return { type: 'host-not-found', host: host.replace(/:\d+$/, '') };
  if (code === 'ECONNRESET' || code === 'EPIPE' || code === 'UND_ERR_SOCKET' || code === 'UND_ERR_CLOSED') return { type: 'closed' };
  const message = error instanceof Error ? oneLine(error.message) : oneLine(String(cause));
  if (typeof code === 'string' && TLS_CODE.test(code)) return { type: 'tls', detail: `${tlsWords(message)} (${code})` };
  return { type: 'connection', detail: typeof code === 'string' && !message.includes(code) ? `${message} (${code})` : message || 'unknown error' };
}

/** The cause in words, from whatever a connection attempt threw (the --verbose trace, the login's requests). */
export function describeCause(cause: unknown, host = 'the host'): string {
  return describeFailure(connectionFailure(cause, host));
}

/** undici and fetch wrap the socket's error in `cause`: the innermost one says what happened. */
function innermost(error: unknown): unknown {
  let current = error;
  for (let depth = 0; depth < 5; depth++) {
    const next = (current as { cause?: unknown } | undefined)?.cause;
    const code = (current as { code?: unknown } | undefined)?.code;
    if (next === undefined || (typeof code === 'string' && code !== 'UND_ERR_SOCKET')) break;
    current = next;
  }
  return current;
}

/** OpenSSL's `...:SSL routines:ssl3_get_record:wrong version number:...` as its last words. */
function tlsWords(message: string): string {
  const routine = /SSL routines:[^:]*:([^:]+)/.exec(message);
  return routine?.[1]?.trim() ?? message;
}

/** Reason phrases of the statuses a client meets, for an answer that names none. */
const REASONS: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  408: 'Request Timeout',
  409: 'Conflict',
  410: 'Gone',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/** An HTML page: its `<title>` (else its first heading). Undefined when the text is not HTML. */
function htmlPage(text: string): { title: string } | undefined {
  if (!/^\s*<(!doctype|html|head|body|h1|title|center)\b/i.test(text)) return undefined;
  const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(text)?.[1] ?? /<h1[^>]*>([\s\S]*?)<\/h1>/i.exec(text)?.[1] ?? '';
  return { title: oneLine(decodeEntities(title.replace(/<[^>]*>/g, ' '))) };
}

/** `Server Error (500)` -> `Server Error`, `502 Bad Gateway` -> `Bad Gateway`. */
function withoutStatus(title: string, status: number): string {
  return title.replace(new RegExp(`\\(?\\b${status}\\b\\)?`, 'g'), ' ').replace(/\s+/g, ' ').replace(/^[\s:-]+|[\s:-]+$/g, '');
}

function decodeEntities(text: string): string {
  const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };
  return text.replace(/&(#\d+|#x[0-9a-f]+|[a-z]+);/gi, (whole, entity: string) => {
    if (entity.startsWith('#x') || entity.startsWith('#X')) return String.fromCodePoint(parseInt(entity.slice(2), 16) || 32);
    if (entity.startsWith('#')) return String.fromCodePoint(Number(entity.slice(1)) || 32);
    return named[entity.toLowerCase()] ?? whole;
  });
}

/** The same words, whatever their case and punctuation (`Not found.` and `Not Found`). */
function sameWords(a: string, b: string): boolean {
  const words = (text: string) => text.toLowerCase().replace(/[^a-z0-9]+/g, ' ').trim();
  return words(a) === words(b);
}

/** A wait in seconds as a person reads it. */
export function seconds(ms: number): string {
  return ms >= 1000 || ms === 0 ? `${Math.round(ms / 1000)} s` : `${Math.round(ms / 100) / 10} s`;
}

/** The first characters of an answer, on one line, with anything unprintable shown as `\xNN`. */
function firstBytes(text: string, length = 60): string {
  const sample = [...text.slice(0, length * 2)].slice(0, length).join('');
  const shown = sample.replace(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069']/g, (c) => (c === "'" ? "\\'" : `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`));
  return text.length > sample.length ? `${shown}...` : shown;
}

function parseJson(text: string): unknown {
  const trimmed = text.trim();
  if (!trimmed.startsWith('{') && !trimmed.startsWith('[') && !trimmed.startsWith('"')) return undefined;
  try {
    return parseExact(trimmed);
  } catch {
    return undefined;
  }
}

function jsonMessage(body: unknown): string {
  if (typeof body === 'string') return oneLine(body);
  if (Array.isArray(body)) return oneLine(body.map((item) => (typeof item === 'string' ? item : stringifyExact(item))).join('; '));
  if (body === null || typeof body !== 'object') return '';
  const record = body as Record<string, unknown>;
  for (const key of ['detail', 'message', 'error', 'error_description']) {
    const value = record[key];
    if (typeof value === 'string') return oneLine(value);
    if (value && typeof value === 'object' && typeof (value as { message?: unknown }).message === 'string') {
      return oneLine((value as { message: string }).message);
    }
  }
  // A validation map, flat or nested like the request: every message with its field's path.
  const errors = fieldErrorsOf(record);
  const shown = errors.slice(0, MAX_FIELD_ERRORS).map(formatFieldError);
  if (errors.length > MAX_FIELD_ERRORS) shown.push(`and ${errors.length - MAX_FIELD_ERRORS} more`);
  return oneLine(shown.join('; '));
}

/** Field errors shown in one error line; a 10,000-recipient order may have one per recipient. */
const MAX_FIELD_ERRORS = 5;

function oneLine(text: string): string {
  const withoutTags = /<[a-z!/][^>]*>/i.test(text) ? text.replace(/<(script|style)[\s\S]*?<\/\1>/gi, ' ').replace(/<[^>]*>/g, ' ') : text;
  const line = withoutTags.replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ').replace(/\s+/g, ' ').trim();
  return line.length > 300 ? `${line.slice(0, 297)}...` : line;
}
