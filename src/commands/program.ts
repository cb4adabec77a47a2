import { Command } from '@commander-js/extra-typings';
import { addGlobalOptions, type GlobalOptions } from './global-options.js';
import type { RunEnvironment } from '../run-environment.js';
import { ExitCode, type ExitCodeValue } from '../errors.js';
import { terminalWidth } from '../output/io.js';
import { redactUrlCredentials } from '../output/redact-url.js';
import { red } from '../output/style.js';
import { VERSION } from '../version.js';

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
    const { io, env } = environment;
    // Set before the commands are added: subcommands copy their parent's settings.
    this.configureOutput({
      writeOut: (text) => void io.stdout.write(text),
      writeErr: (text) => void io.stderr.write(text),
      getOutHelpWidth: () => (io.stdoutIsTTY ? terminalWidth(io, env) : undefined) ?? 80,
      getErrHelpWidth: () => (io.stderrIsTTY ? terminalWidth(io, env) : undefined) ?? 80,
      getOutHasColors: () => false,
      getErrHasColors: () => false,
      outputError: (text, write) => write(redactUrlCredentials(this.redErrors ? text.replace(/^error:/, red('error:', true)) : text)),
    })
      .description('Command-line client for the Custom Product Ordering Service')
      .version(VERSION, '-V, --version')
      .configureHelp({ showGlobalOptions: true })
      .exitOverride()
      .showSuggestionAfterError(true);
    addGlobalOptions(this);
  }
}
