import { ExitCode } from '../errors.js';

/**
 * Where interruptions come from: SIGINT and SIGTERM for the real process
 * (processInterrupts), a function a test calls for a CLI run in-process.
 */
export interface Interrupts {
  /** Calls `listener` on every interruption until the returned function is called. */
  subscribe(listener: () => void): () => void;
  /** Ends the program now, without cleaning up (the second interruption). */
  exitNow(code: number): void;
}

export function processInterrupts(): Interrupts {
  return {
    subscribe(listener) {
      process.on('SIGINT', listener);
      process.on('SIGTERM', listener);
      return () => {
        process.off('SIGINT', listener);
        process.off('SIGTERM', listener);
      };
    },
    exitNow: (code) => process.exit(code),
  };
}

export interface Interruption {
  /** Aborted on the first interruption. */
  readonly signal: AbortSignal;
  /** Resolves on the first interruption. */
  readonly interrupted: Promise<void>;
  /** Stops listening (call it when the command ends). */
  dispose(): void;
}

/**
 * "Run until interrupted" for long-running commands: the first interruption resolves
 * `interrupted` (the command then stops cleanly); a second one, while it is still
 * stopping, calls `onForced` and ends the program at once (exit 130).
 */
export function untilInterrupted(interrupts: Interrupts, onForced: () => void = () => undefined): Interruption {
  const controller = new AbortController();
  let resolve: () => void = () => undefined;
  const interrupted = new Promise<void>((r) => (resolve = r));
  const unsubscribe = interrupts.subscribe(() => {
    if (controller.signal.aborted) {
      onForced();
      interrupts.exitNow(ExitCode.interrupted);
      return;
    }
    controller.abort();
    resolve();
  });
  return { signal: controller.signal, interrupted, dispose: unsubscribe };
}
