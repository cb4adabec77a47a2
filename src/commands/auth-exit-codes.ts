import type { AuthError, AuthFailure } from '../auth/errors.js';
import { CliError, ExitCode, type ExitCodeValue } from '../errors.js';

/** The exit code of each way signing in fails: chosen here, at the CLI's edge, not in auth/. */
const EXIT_CODE: Record<AuthFailure, ExitCodeValue> = {
  'not-signed-in': ExitCode.auth,
  refused: ExitCode.auth,
  unreachable: ExitCode.failed,
  'not-oauth': ExitCode.failed,
  insecure: ExitCode.usage,
  'no-return': ExitCode.failed,
  locked: ExitCode.failed,
};

/** An auth/ error as the CLI reports it: its message and hint, the exit code of its kind. */
export function cliErrorOfAuth(error: AuthError): CliError {
  return new CliError(error.message, EXIT_CODE[error.kind], error.hint);
}
