/** Exit codes of the command-line contract. */
export const ExitCode = {
  ok: 0,
  failed: 1,
  usage: 2,
  auth: 3,
  notFound: 4,
  refused: 5,
  /** `orders wait`: --max-wait passed before the order got there. */
  timedOut: 6,
  interrupted: 130,
} as const;

export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

/** An error meant for the user: one line of message, an optional hint, an exit code. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: ExitCodeValue,
    readonly hint?: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** Bad flags, arguments or input files. Raised before any request is sent. */
export class UsageError extends CliError {
  constructor(message: string, hint?: string) {
    super(message, ExitCode.usage, hint);
  }
}

/** The user cancelled (Ctrl-C, or answered no to a confirmation). */
export class CancelledError extends CliError {
  constructor(message = 'cancelled') {
    super(message, ExitCode.interrupted);
  }
}

/**
 * An error the user has been shown already (the order wizard shows an API failure before
 * asking whether to try again): it ends the run with its exit code and is not printed again.
 */
export class ShownError extends CliError {
  constructor(shown: CliError) {
    super(shown.message, shown.exitCode, shown.hint);
  }
}
