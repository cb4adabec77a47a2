/**
 * Where interruptions come from: the real process's signals (signalInterrupts), a function
 * a test calls for a CLI run in-process.
 */
export interface Interrupts {
  /** Calls `listener` on every interruption until the returned function is called. */
  subscribe(listener: () => void): () => void;
  /** Ends the program now, without cleaning up, as interrupted (the second interruption). */
  exitNow(): void;
}

/**
 * The signals that ask merch to stop. Elsewhere SIGINT (Ctrl-C) and SIGTERM (kill, a
 * service manager); SIGHUP keeps its default, so `nohup merch ...` still outlives its
 * terminal. Windows has no SIGTERM: Node raises SIGINT for Ctrl-C, SIGBREAK for Ctrl-Break
 * and SIGHUP when the console window closes (Windows ends the process some seconds later),
 * so there merch stops cleanly on those three.
 */
function interruptingSignals(platform: NodeJS.Platform): readonly NodeJS.Signals[] {
  return platform === 'win32' ? ['SIGINT', 'SIGBREAK', 'SIGHUP'] : ['SIGINT', 'SIGTERM'];
}

/** The real process's interrupting signals; `exitNow` ends the process with `exitCode` (the caller's to choose). */
export function signalInterrupts(exitCode: number, platform: NodeJS.Platform = process.platform): Interrupts {
  const signals = interruptingSignals(platform);
  return {
    subscribe(listener) {
      for (const signal of signals) process.on(signal, listener);
      return () => {
        for (const signal of signals) process.off(signal, listener);
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
