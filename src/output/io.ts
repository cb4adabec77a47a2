import type { Readable, Writable } from 'node:stream';
import { redactUrlCredentials } from './redact-url.js';
import { stderrText } from './wrap-text.js';

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
  /** The terminal's width, when stdout is one (in a command's IO: else COLUMNS, see terminalWidth). */
  columns?: number;
  /** The terminal's height, when stdout is one. */
  rows?: number;
}

/** Every byte a command reads from or writes to the user goes through one IO object. */
export interface IO extends IOStreams {
  /** Color on stdout (src/output/io.ts colorOn: the flags, NO_COLOR, CLICOLOR..., a TTY). */
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

/** The IO of one command: the streams, with color, width and prompting decided by the flags and the environment. */
export function commandIO(streams: IOStreams, options: IoOptions): IO {
  const { env } = options;
  const line = (text: string) => (text.endsWith('\n') ? text : `${text}\n`);
  return {
    ...streams,
    columns: terminalWidth(streams, env),
    color: colorOn(options.noColor, env, streams.stdoutIsTTY),
    canPrompt: streams.stdinIsTTY && streams.stdoutIsTTY && !options.noInput && !isCi(env),
    out: (text) => void streams.stdout.write(line(text)),
    // Messages, warnings and --verbose traces never show a URL's credentials.
    err: (text) => void streams.stderr.write(stderrText(streams, line(redactUrlCredentials(text)))),
  };
}

/**
 * Color on a stream, as clig.dev and gh decide it: never with --no-color or a non-empty
 * NO_COLOR (an empty one does not count); always with CLICOLOR_FORCE or FORCE_COLOR set
 * to anything but `0` (a pipe included); never with CLICOLOR=0 or TERM=dumb; else on a
 * terminal only.
 */
export function colorOn(noColor: boolean | undefined, env: NodeJS.ProcessEnv, isTTY: boolean): boolean {
  if (noColor || env.NO_COLOR) return false;
  if (forced(env.CLICOLOR_FORCE) || forced(env.FORCE_COLOR)) return true;
  if (env.CLICOLOR === '0' || env.TERM === 'dumb') return false;
  return isTTY;
}

function forced(value: string | undefined): boolean {
  return value !== undefined && value !== '' && value !== '0';
}

/**
 * The width to fit: the terminal's, else COLUMNS, else undefined (the callers' 80). A
 * terminal that reports 0 columns (under `script`, on some CI consoles) has no width.
 */
export function terminalWidth(streams: Pick<IOStreams, 'columns'>, env: NodeJS.ProcessEnv): number | undefined {
  if (streams.columns !== undefined && streams.columns > 0) return streams.columns;
  const columns = /^\d+$/.test(env.COLUMNS?.trim() ?? '') ? Number(env.COLUMNS) : 0;
  return columns > 0 ? columns : undefined;
}

function isCi(env: NodeJS.ProcessEnv): boolean {
  const ci = env.CI;
  return ci !== undefined && ci !== '' && ci !== '0' && ci.toLowerCase() !== 'false';
}
