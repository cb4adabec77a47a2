import type { Readable, Writable } from 'node:stream';
import { redactUrlCredentials } from './redact-url.js';

/**
 * The streams a run of the CLI talks through, as main() gets them: the process's own
 * (processStreams) or, in tests, buffers with chosen TTY flags (test/support/test-io.ts).
 */
export interface IOStreams {
  stdin: Readable;
  stdout: Writable;
  stderr: Writable;
  stdinIsTTY: boolean;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  /** The terminal's width, when stdout is one. */
  columns?: number;
  /** The terminal's height, when stdout is one. */
  rows?: number;
}

/** Every byte a command reads from or writes to the user goes through one IO object. */
export interface IO extends IOStreams {
  /** Color on stdout/stderr (TTY, and neither --no-color nor NO_COLOR). */
  color: boolean;
  /** Prompts are allowed: stdin and stdout are TTYs, no --no-input and no CI. */
  canPrompt: boolean;
  out(text: string): void;
  /** A line on stderr, URL credentials hidden (src/output/redact-url.ts). */
  err(text: string): void;
}

export interface IoOptions {
  noColor?: boolean;
  noInput?: boolean;
  env: NodeJS.ProcessEnv;
}

/** The process's stdin, stdout and stderr. A reader that went away (EPIPE) ends the run quietly. */
export function processStreams(): IOStreams {
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(0);
  });
  return {
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
    stdinIsTTY: process.stdin.isTTY === true,
    stdoutIsTTY: process.stdout.isTTY === true,
    stderrIsTTY: process.stderr.isTTY === true,
    columns: process.stdout.columns,
    rows: process.stdout.rows,
  };
}

/** The IO of one command: the streams, with color and prompting decided by the flags and the environment. */
export function commandIO(streams: IOStreams, options: IoOptions): IO {
  const { env } = options;
  const line = (text: string) => (text.endsWith('\n') ? text : `${text}\n`);
  return {
    ...streams,
    color: colorAllowed(options.noColor, env) && streams.stdoutIsTTY,
    canPrompt: streams.stdinIsTTY && streams.stdoutIsTTY && !options.noInput && !isCi(env),
    out: (text) => void streams.stdout.write(line(text)),
    // Messages, warnings and --verbose traces never show a URL's credentials.
    err: (text) => void streams.stderr.write(line(redactUrlCredentials(text))),
  };
}

/** Color is allowed by the user: neither --no-color nor NO_COLOR, and not a dumb terminal (the stream must still be a TTY). */
export function colorAllowed(noColor: boolean | undefined, env: NodeJS.ProcessEnv): boolean {
  return !noColor && env.NO_COLOR === undefined && env.TERM !== 'dumb';
}

function isCi(env: NodeJS.ProcessEnv): boolean {
  const ci = env.CI;
  return ci !== undefined && ci !== '' && ci !== '0' && ci.toLowerCase() !== 'false';
}
