/**
 * Where interruptions come from: SIGINT and SIGTERM for the real process
 * (signalInterrupts), a function a test calls for a CLI run in-process.
 */
export interface Interrupts {
  /** Calls `listener` on every interruption until the returned function is called. */
  subscribe(listener: () => void): () => void;
  /** Ends the program now, without cleaning up, as interrupted (the second interruption). */
  exitNow(): void;
}

/** The real process's SIGINT and SIGTERM; `exitNow` ends the process with `exitCode` (the caller's to choose). */
export function signalInterrupts(exitCode: number): Interrupts {
  return {
    subscribe(listener) {
      process.on('SIGINT', listener);
      process.on('SIGTERM', listener);
      return () => {
        process.off('SIGINT', listener);
        process.off('SIGTERM', listener);
      };
    },
    exitNow: () => process.exit(exitCode),
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
 * stopping, calls `onForced` and ends the program at once (`interrupts.exitNow`).
 */
export function untilInterrupted(interrupts: Interrupts, onForced: () => void = () => undefined): Interruption {
  const controller = new AbortController();
  let resolve: () => void = () => undefined;
  const interrupted = new Promise<void>((r) => (resolve = r));
  const unsubscribe = interrupts.subscribe(() => {
    if (controller.signal.aborted) {
      onForced();
      interrupts.exitNow();
      return;
    }
    controller.abort();
    resolve();
  });
  return { signal: controller.signal, interrupted, dispose: unsubscribe };
}
