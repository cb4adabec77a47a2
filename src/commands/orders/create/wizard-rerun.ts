import type { OrderRequest } from '../../../contract/order-request.js';
import { CliError, ExitCode, UsageError } from '../../../errors.js';
import { OutcomeUnknown } from '../../../orders/create/errors.js';
import { asCliError } from '../../exit-codes.js';
import type { ServiceSettings } from '../../hints.js';
import { commandLineOf } from './command-line.js';
import { cliErrorOf } from './outcomes.js';

/**
 * A failure to place the order the wizard built, with the command line that places it
 * (issue 30.5): "run the same command again" means nothing to someone who typed no command.
 * The command is on a line of its own, indented: the terminal's wrapping leaves it whole
 * (src/output/wrap-text.ts), so it is copied as one line.
 * Usage errors and a cancellation pass as they are: there is nothing to run again.
 */
export function withCommandLine(err: unknown, body: OrderRequest, service: ServiceSettings): unknown {
  const error = asCliError(cliErrorOf(err), service);
  if (!(error instanceof CliError) || error instanceof UsageError || error.exitCode === ExitCode.interrupted) return error;
  const line = commandLineOf(body);
  if (err instanceof OutcomeUnknown) {
    return new CliError(error.message, error.exitCode, `to finish it safely, run this (it looks external id ${err.externalId} up before sending anything again):\n  ${line}`);
  }
  return new CliError(error.message, error.exitCode, `${error.hint ? `${error.hint}; then ` : ''}to place this order without the wizard:\n  ${line}`);
}
