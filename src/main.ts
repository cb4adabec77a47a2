import { CommanderError } from '@commander-js/extra-typings';
import type { Writable } from 'node:stream';
import { RunSecrets } from './api/run-secrets.js';
import type { RunEnvironment } from './run-environment.js';
import { CliError, ExitCode, ShownError } from './errors.js';
import { MerchProgram } from './commands/program.js';
import { registerCommands } from './commands/register.js';
import { signalInterrupts, type Interrupts } from './lib/interrupt.js';
import { colorOn } from './output/io.js';
import { redactUrlCredentials } from './output/redact-url.js';
import { errorText, shown } from './output/error-text.js';
import { red } from './output/style.js';
import { stderrText } from './output/wrap-text.js';
import { gate } from './output/terminal-gate.js';

export { processStreams } from './output/io.js';

/** The process's interrupting signals (SIGINT and SIGTERM; on Windows SIGINT, SIGBREAK and SIGHUP): a second one while stopping ends the process at once, exit 130. */
export function processInterrupts(): Interrupts {
  return signalInterrupts(ExitCode.interrupted);
}

/** The program of one run: the global flags and the command table (each verb loads lazily); given the run's arguments, only the entry they name (register.ts). */
export function buildProgram(environment: RunEnvironment, argv?: readonly string[]): MerchProgram {
  const program = new MerchProgram(environment);
  registerCommands(program, argv);
  return program;
}

/**
 * Runs the CLI once: everything it reads and writes goes through `environment` (the
 * process's streams and signals in bin/merch.js, buffers in tests). The only place errors
 * become exit codes.
 */
export async function main(argv: string[], given: RunEnvironment): Promise<number> {
  // Every byte of stdout and stderr, from any part of the run, goes out with the run's
  // secrets hidden (src/api/run-secrets.ts), and through the one gate for text from
  // outside: what a terminal would act on made visible, merch's own codes written as they
  // are (src/output/terminal-gate.ts). Nothing of the run gets the streams but these.
  const secrets = given.secrets ?? new RunSecrets();
  const io = { ...given.io, stdout: secrets.guard(gate(given.io.stdout)), stderr: secrets.guard(gate(given.io.stderr)) };
  const environment = { ...given, secrets, io };
  const program = buildProgram(environment, argv);
  const color = colorOn(argv.includes('--no-color'), environment.env, environment.io.stderrIsTTY);
  program.redErrors = color;
  try {
    await program.parseAsync(argv, { from: 'user' });
    return program.exitCode;
  } catch (error) {
    // The exit codes of the layers' own errors (api/, auth/, config/) are chosen here, at the
    // edge; that table is loaded only when something failed.
    const reported = error instanceof CliError || error instanceof CommanderError ? error : (await import('./commands/exit-codes.js')).asCliError(error);
    return report(reported, argv.includes('--verbose'), { write: (text) => io.stderr.write(stderrText(io, text)) }, color);
  }
}

/** Prints the error (`error:` in red on a color terminal) and returns its exit code. */
function report(error: unknown, verbose: boolean, stderr: Pick<Writable, 'write'>, color: boolean): number {
  const label = red('error:', color);
  if (error instanceof CommanderError) {
    // commander has printed its message; help and version are successes.
    return error.exitCode === 0 ? ExitCode.ok : ExitCode.usage;
  }
  if (error instanceof ShownError) return error.exitCode;
  if (error instanceof CliError) {
    stderr.write(errorText(error, color));
    return error.exitCode;
  }
  if (error instanceof Error && error.name === 'ExitPromptError') {
    stderr.write('cancelled\n');
    return ExitCode.interrupted;
  }
  stderr.write(`${label} ${shown(unexpectedMessage(error))}\n`);
  if (verbose && error instanceof Error && error.stack) stderr.write(`${redactUrlCredentials(error.stack)}\n`);
  else stderr.write('hint: run again with --verbose for details\n');
  return ExitCode.failed;
}

/** The first line of something thrown that is not a CliError (a bug): never empty, `undefined` or `[object Object]`. */
function unexpectedMessage(thrown: unknown): string {
  const message = thrown instanceof Error ? thrown.message : typeof thrown === 'string' ? thrown : '';
  const line = message.split('\n')[0]?.trim();
  if (line) return line;
  return `unexpected failure (${thrown instanceof Error ? thrown.name : typeof thrown})`;
}
