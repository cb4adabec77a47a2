import { PassThrough, Writable } from 'node:stream';
import type { Interrupts } from '../../src/lib/interrupt.js';
import type { IOStreams } from '../../src/output/io.js';

export interface TestStreamsOptions {
  /** What stdin holds (then end of file). */
  stdin?: string;
  /** Which streams are terminals: all of them with `true`. */
  tty?: boolean | { stdin?: boolean; stdout?: boolean; stderr?: boolean };
  /** The terminal's width (80 by default). */
  columns?: number;
  /** The terminal's height (none by default: as tall as the output). */
  rows?: number;
}

/** Buffer-backed streams for a CLI run in the test's own process, like gh's iostreams.Test(). */
export interface TestStreams extends IOStreams {
  /** Everything written to stdout so far. */
  out(): string;
  /** Everything written to stderr so far. */
  errors(): string;
  /** stdout and stderr as they arrived, interleaved, as one terminal would show them. */
  screen(): string;
  /** Resolves once `condition` holds of what was written (checked on every write). */
  written(condition: (out: string, err: string) => boolean): Promise<void>;
  /** Calls `listener` after every write, until the returned function is called. */
  onWrite(listener: () => void): () => void;
}

export function testStreams(options: TestStreamsOptions = {}): TestStreams {
  let out = '';
  let err = '';
  let screen = '';
  const watchers = new Set<() => void>();
  const sink = (append: (text: string) => void) =>
    new Writable({
      write(chunk: Buffer | string, _encoding, done) {
        append(chunk.toString());
        screen += chunk.toString();
        for (const watcher of watchers) watcher();
        done();
      },
    });
  const stdin = new PassThrough();
  stdin.end(options.stdin ?? '');
  const tty = typeof options.tty === 'object' ? options.tty : { stdin: options.tty, stdout: options.tty, stderr: options.tty };
  return {
    stdin,
    stdout: sink((text) => (out += text)),
    stderr: sink((text) => (err += text)),
    stdinIsTTY: tty.stdin === true,
    stdoutIsTTY: tty.stdout === true,
    stderrIsTTY: tty.stderr === true,
    columns: options.columns ?? 80,
    rows: options.rows,
    out: () => out,
    errors: () => err,
    screen: () => screen,
    written(condition) {
      return new Promise((resolve) => {
        const check = () => {
          if (!condition(out, err)) return;
          watchers.delete(check);
          resolve();
        };
        watchers.add(check);
        check();
      });
    },
    onWrite(listener) {
      watchers.add(listener);
      return () => watchers.delete(listener);
    },
  };
}

/** Interruptions a test sends (Ctrl-C); a forced exit (the second one) is recorded, not performed. */
export interface TestInterrupts extends Interrupts {
  interrupt(): void;
  /** Whether a forced exit (the second interruption) happened. */
  readonly forcedExit: boolean;
}

export function testInterrupts(): TestInterrupts {
  const listeners = new Set<() => void>();
  let forcedExit = false;
  return {
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    exitNow() {
      forcedExit = true;
    },
    interrupt() {
      for (const listener of [...listeners]) listener();
    },
    get forcedExit() {
      return forcedExit;
    },
  };
}
