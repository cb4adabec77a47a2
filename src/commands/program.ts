import { Command, Option } from '@commander-js/extra-typings';
import type { RunEnvironment } from '../run-environment.js';
import { ExitCode, type ExitCodeValue } from '../errors.js';
import { red } from '../output/style.js';
import { VERSION } from '../version.js';
import { nonNegativeInt, positiveInt } from './parse.js';

function addGlobalOptions(program: Command) {
  return program
    .option('--json', 'print machine-readable JSON')
    .addOption(new Option('--jsonl', 'print one JSON record per line (streams with --all)').conflicts('json'))
    .option('-q, --query <expr>', 'JMESPath expression applied to the JSON output')
    .addOption(new Option('--format <format>', 'csv: RFC 4180 rows with a header (formulas neutralised); tsv: tab-separated rows, also on a terminal').choices(['csv', 'tsv'] as const).conflicts(['json', 'jsonl', 'query']))
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
}

/** The global flags, as commander parses them (`--no-color` -> color: false), typed by their declaration above. */
export type GlobalOptions = ReturnType<ReturnType<typeof addGlobalOptions>['opts']>;

/**
 * The program of one run: the global flags, commander's output sent to the run's streams,
 * and the run's environment and exit code for the commands' actions (src/commands/action.ts).
 */
export class MerchProgram extends Command<[], GlobalOptions> {
  /** What the command's action returned (auth status exits 3 on a refused token, for example). */
  exitCode: ExitCodeValue = ExitCode.ok;
  /** `error:` in red on commander's own errors (unknown flag, bad choice), as main() prints ours. */
  redErrors = false;

  constructor(readonly environment: RunEnvironment) {
    super('merch');
    const { io } = environment;
    // Set before the commands are added: subcommands copy their parent's settings.
    this.configureOutput({
      writeOut: (text) => void io.stdout.write(text),
      writeErr: (text) => void io.stderr.write(text),
      getOutHelpWidth: () => (io.stdoutIsTTY ? io.columns : undefined) ?? 80,
      getErrHelpWidth: () => (io.stderrIsTTY ? io.columns : undefined) ?? 80,
      getOutHasColors: () => false,
      getErrHasColors: () => false,
      outputError: (text, write) => write(this.redErrors ? text.replace(/^error:/, red('error:', true)) : text),
    })
      .description('Command-line client for the Custom Product Ordering Service')
      .version(VERSION, '-V, --version')
      .configureHelp({ showGlobalOptions: true })
      .exitOverride()
      .showSuggestionAfterError(true);
    addGlobalOptions(this);
  }
}

/** A noun (orders, webhooks, ...): its verbs get the global flags. */
export type NounCommand = Command<[], {}, GlobalOptions>;
