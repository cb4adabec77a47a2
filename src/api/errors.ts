import { CliError, ExitCode, type ExitCodeValue } from '../errors.js';
import { fieldErrorsOf, formatFieldError } from './field-errors.js';

export type ApiErrorKind = 'auth' | 'not_found' | 'refused' | 'server' | 'network' | 'unexpected';

const exitCodeOfKind: Record<ApiErrorKind, ExitCodeValue> = {
  auth: ExitCode.auth,
  not_found: ExitCode.notFound,
  refused: ExitCode.refused,
  server: ExitCode.failed,
  network: ExitCode.failed,
  unexpected: ExitCode.failed,
};

/** A request the service refused or that could not complete. */
export class ApiError extends CliError {
  constructor(
    message: string,
    readonly kind: ApiErrorKind,
    readonly status: number | undefined,
    /** The parsed error body (JSON) or its text, when the server sent one. */
    readonly body: unknown,
    hint?: string,
    /**
     * An earlier attempt of this request may have reached the service and done its work,
     * its answer lost (a dropped connection, a 5xx): this answer may be about a repeat.
     */
    readonly afterAmbiguousAttempt = false,
  ) {
    super(message, exitCodeOfKind[kind], hint);
  }
}

export function kindOfStatus(status: number): ApiErrorKind {
  if (status === 401 || status === 403) return 'auth';
  if (status === 404) return 'not_found';
  if (status === 400 || status === 409 || status === 422) return 'refused';
  if (status >= 500 || status === 429) return 'server';
  return 'unexpected';
}

/**
 * The one place an error is built from an HTTP response. Tolerates any body: `{detail}`,
 * `{message}`, `{error}`, a map of field -> messages, plain text or an HTML page.
 */
export function errorFromResponse(
  request: { method: string; path: string },
  status: number,
  bodyText: string,
  attempts = 1,
  afterAmbiguousAttempt = false,
): ApiError {
  const body = parseJson(bodyText);
  const serverMessage = body === undefined ? textMessage(bodyText) : jsonMessage(body);
  const kind = kindOfStatus(status);
  const what = `${request.method} ${request.path}`;
  const tries = attempts > 1 ? ` after ${attempts} attempts` : '';
  const message = serverMessage
    ? `${what} failed with ${status}${tries}: ${serverMessage}`
    : `${what} failed with ${status}${tries}`;
  return new ApiError(message, kind, status, body ?? bodyText, hintOfStatus(status), afterAmbiguousAttempt);
}

/** A connection error (refused, reset, timed out) once retries ran out. */
export function networkError(request: { method: string; path: string }, cause: unknown, attempts: number, afterAmbiguousAttempt = false): ApiError {
  const reason = describeCause(cause);
  const tries = attempts > 1 ? ` after ${attempts} attempts` : '';
  return new ApiError(`${request.method} ${request.path} failed${tries}: ${reason}`, 'network', undefined, undefined, undefined, afterAmbiguousAttempt);
}

/** An attempt that got no complete answer within `--timeout`. */
export class RequestTimeoutError extends Error {
  override name = 'RequestTimeoutError';
  constructor(readonly timeoutMs: number) {
    super(`no answer within ${timeoutMs} ms (--timeout)`);
  }
}

export function describeCause(cause: unknown): string {
  if (cause instanceof RequestTimeoutError) return cause.message;
  if (cause instanceof Error) {
    const code = (cause as { code?: string }).code;
    if (code === 'ECONNREFUSED') return 'connection refused';
    if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET') return 'connection closed by the server';
    if (code === 'ENOTFOUND') return 'host not found';
    if (code === 'EAI_AGAIN') return 'host not found (DNS did not answer)';
    return cause.message.split('\n')[0] ?? String(cause);
  }
  return String(cause);
}

function hintOfStatus(status: number): string | undefined {
  if (status === 401) return 'check the token: merch auth status, or merch login';
  if (status === 403) return 'the token is not allowed to do this (check --account-id)';
  return undefined;
}

function parseJson(text: string): unknown {
  const trimmed = text.trim();
  if (!trimmed.startsWith('{') && !trimmed.startsWith('[') && !trimmed.startsWith('"')) return undefined;
  try {
    return JSON.parse(trimmed);
  } catch {
    return undefined;
  }
}

function jsonMessage(body: unknown): string {
  if (typeof body === 'string') return oneLine(body);
  if (Array.isArray(body)) return oneLine(body.map(String).join('; '));
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

function textMessage(text: string): string {
  const withoutTags = text.replace(/<(script|style)[\s\S]*?<\/\1>/gi, ' ').replace(/<[^>]*>/g, ' ');
  return oneLine(withoutTags);
}

function oneLine(text: string): string {
  const line = text.replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ').replace(/\s+/g, ' ').trim();
  return line.length > 300 ? `${line.slice(0, 297)}...` : line;
}
