import { Command, CommanderError, Option } from 'commander';
import { CliError, ExitCode } from './errors.js';
import { nonNegativeInt, positiveInt } from './commands/parse.js';
import { registerCommands } from './commands/register.js';
import { stripControl } from './output/sanitize.js';
import { VERSION } from './version.js';

export function buildProgram(): Command {
  const program = new Command('merch')
    .description('Command-line client for the Custom Product Ordering Service')
    .version(VERSION, '-V, --version')
    .exitOverride()
    .showSuggestionAfterError(true)
    .option('--json', 'print machine-readable JSON')
    .option('--jsonl', 'print one JSON record per line (streams with --all)')
    .option('-q, --query <expr>', 'JMESPath expression applied to the JSON output')
    .option('--no-color', 'disable color (also NO_COLOR)')
    .option('--verbose', 'trace requests and responses on stderr (secrets redacted)')
    .option('--timeout <ms>', 'per-request timeout in ms (default 30000)', positiveInt)
    .option('--retries <n>', 'retries of failed idempotent requests (default 3)', nonNegativeInt)
    .option('-y, --yes', 'answer yes to confirmations')
    .option('--no-input', 'never prompt (also when not a TTY, or CI is set)')
    .option('--profile <name>', 'config profile (env MERCH_PROFILE; default "default")')
    .option('--base-url <url>', 'API base URL (env MERCH_BASE_URL; default the local sandbox)')
    .option('--account-id <id>', 'send SC-Account-Id (env MERCH_ACCOUNT_ID)')
    .option('--design-tool-url <url>', 'design tool base URL (env MERCH_DESIGN_TOOL_URL)')
    .addOption(new Option('--insecure', 'allow sending the token over plain http to a non-loopback host'));
  registerCommands(program);
  return program;
}

/** Runs the CLI; the only place errors become exit codes. */
export async function main(argv: string[]): Promise<number> {
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  });
  const program = buildProgram();
  try {
    await program.parseAsync(argv, { from: 'user' });
    return typeof process.exitCode === 'number' ? process.exitCode : ExitCode.ok;
  } catch (error) {
    return report(error, argv.includes('--verbose'));
  }
}

function report(error: unknown, verbose: boolean): number {
  if (error instanceof CommanderError) {
    // commander has printed its message; help and version are successes.
    return error.exitCode === 0 ? ExitCode.ok : ExitCode.usage;
  }
  if (error instanceof CliError) {
    process.stderr.write(`error: ${stripControl(error.message)}\n`);
    if (error.hint) process.stderr.write(`hint: ${stripControl(error.hint)}\n`);
    return error.exitCode;
  }
  if (error instanceof Error && error.name === 'ExitPromptError') {
    process.stderr.write('cancelled\n');
    return ExitCode.interrupted;
  }
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`error: ${stripControl(message.split('\n')[0] ?? '')}\n`);
  if (verbose && error instanceof Error && error.stack) process.stderr.write(`${error.stack}\n`);
  else process.stderr.write('hint: run again with --verbose for details\n');
  return ExitCode.failed;
}
