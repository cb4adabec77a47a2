import type { Readable, Writable } from 'node:stream';

/** Every byte the CLI reads from or writes to the user goes through one IO object. */
export interface IO {
  stdin: Readable;
  stdout: Writable;
  stderr: Writable;
  stdinIsTTY: boolean;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  /** Color on stdout/stderr (TTY, and neither --no-color nor NO_COLOR). */
  color: boolean;
  /** Prompts are allowed: stdin and stdout are TTYs, no --no-input and no CI. */
  canPrompt: boolean;
  out(text: string): void;
  err(text: string): void;
}

export interface IoOptions {
  noColor?: boolean;
  noInput?: boolean;
  env?: NodeJS.ProcessEnv;
}

export function processIO(options: IoOptions = {}): IO {
  const env = options.env ?? process.env;
  const stdoutIsTTY = process.stdout.isTTY === true;
  const stdinIsTTY = process.stdin.isTTY === true;
  const stderrIsTTY = process.stderr.isTTY === true;
  const colorAllowed = !options.noColor && env.NO_COLOR === undefined && env.TERM !== 'dumb';
  return {
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
    stdinIsTTY,
    stdoutIsTTY,
    stderrIsTTY,
    color: colorAllowed && stdoutIsTTY,
    canPrompt: stdinIsTTY && stdoutIsTTY && !options.noInput && !isCi(env),
    out: (text) => void process.stdout.write(text.endsWith('\n') ? text : `${text}\n`),
    err: (text) => void process.stderr.write(text.endsWith('\n') ? text : `${text}\n`),
  };
}

function isCi(env: NodeJS.ProcessEnv): boolean {
  const ci = env.CI;
  return ci !== undefined && ci !== '' && ci !== '0' && ci.toLowerCase() !== 'false';
}
