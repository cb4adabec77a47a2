import { ApiError, RequestNotSent, type ApiErrorKind, type NotSentReason } from '../api/errors.js';
import { AuthError, type AuthFailure } from '../auth/errors.js';
import { ConfigError, type ConfigFailure } from '../config/errors.js';
import { CliError, ExitCode, type ExitCodeValue } from '../errors.js';
import { hintOf, type ServiceSettings } from './hints.js';

/**
 * The exit codes of the layers below the CLI, chosen here, at its edge (cli-contract.md),
 * and their hints beside them (hints.ts): api/, auth/ and config/ throw errors that say what
 * happened, by kind, and choose no exit code. (The order domain's errors are said by the order commands, with the flags that
 * help: src/commands/orders/create/outcomes.ts.)
 */

/** What each exit code means, the one table of them: `merch help exit-codes` prints it. */
export const EXIT_CODE_MEANINGS: Record<ExitCodeValue, string> = {
  [ExitCode.ok]: 'success',
  [ExitCode.failed]: 'the request failed: server error, network error after retries, unexpected response',
  [ExitCode.usage]: 'usage or validation error: nothing was sent',
  [ExitCode.auth]: 'authentication or permission refused (401, 403), or not signed in',
  [ExitCode.notFound]: 'not found (404)',
  [ExitCode.refused]: 'refused by a rule of the service (400/409/422 on a well-formed request); orders wait/watch/track --until: the order (a shipment) is cancelled',
  [ExitCode.timedOut]: 'orders wait, orders track --until: --max-wait passed before the order (every shipment) got there',
  [ExitCode.interrupted]: 'interrupted (Ctrl-C), or a confirmation answered no',
};

const API: Record<ApiErrorKind, ExitCodeValue> = {
  auth: ExitCode.auth,
  not_found: ExitCode.notFound,
  refused: ExitCode.refused,
  server: ExitCode.failed,
  network: ExitCode.failed,
  unexpected: ExitCode.failed,
};

/** A request refused before it was sent is the user's to fix: a usage error. */
const NOT_SENT: Record<NotSentReason, ExitCodeValue> = {
  'token-to-other-origin': ExitCode.usage,
  'token-over-http': ExitCode.usage,
  'not-an-id': ExitCode.usage,
  'bad-proxy': ExitCode.usage,
};

const AUTH: Record<AuthFailure, ExitCodeValue> = {
  'not-signed-in': ExitCode.auth,
  refused: ExitCode.auth,
  unreachable: ExitCode.failed,
  'not-oauth': ExitCode.failed,
  insecure: ExitCode.usage,
  'no-return': ExitCode.failed,
  locked: ExitCode.failed,
};

const CONFIG: Record<ConfigFailure, ExitCodeValue> = {
  'not-a-url': ExitCode.usage,
  'unreadable-file': ExitCode.usage,
  'no-design-tool-key': ExitCode.usage,
  // Not signed in at that design tool, as a token for another origin is (AUTH's not-signed-in).
  'key-for-other-origin': ExitCode.auth,
  insecure: ExitCode.usage,
  keyring: ExitCode.failed,
};

/** An error of api/, auth/ or config/: each says what happened by its kind. */
export type LayerError = ApiError | RequestNotSent | AuthError | ConfigError;

/** Whether `error` is one of the errors the layers below the CLI throw. */
export function isLayerError(error: unknown): error is LayerError {
  return error instanceof ApiError || error instanceof RequestNotSent || error instanceof AuthError || error instanceof ConfigError;
}

/** The exit code of an error: a CliError's own, else the one of its layer's kind. */
export function exitCodeOf(error: LayerError | CliError): ExitCodeValue {
  if (error instanceof CliError) return error.exitCode;
  if (error instanceof ApiError) return API[error.kind];
  if (error instanceof RequestNotSent) return NOT_SENT[error.reason];
  if (error instanceof AuthError) return AUTH[error.kind];
  return CONFIG[error.kind];
}

/**
 * An error as the CLI reports it: an error of api/, auth/ or config/ becomes a CliError
 * with its message, its hint and the exit code of its kind; anything else is as it was.
 * `service`: the run's settings, which a failed connection's hint names.
 */
export function asCliError(error: LayerError, service?: ServiceSettings): CliError;
export function asCliError(error: unknown, service?: ServiceSettings): unknown;
export function asCliError(error: unknown, service?: ServiceSettings): unknown {
  return isLayerError(error) ? new CliError(error.message, exitCodeOf(error), hintOf(error, service)) : error;
}
