import { CancelledError, CliError, ExitCode, UsageError } from '../../../errors.js';
import { BuildError } from '../../../orders/create/builder.js';
import { CreatedOrderMissing, ExternalIdTaken, NoDefaultPaymentMethod, OrderIncomplete, OrderInvalid, OutcomeUnknown, PlacingStopped, RecordIncomparable, RunInDoubt } from '../../../orders/create/errors.js';
import { CsvError } from '../../../orders/create/recipients-csv.js';
import { buildUsageError, missingFlags } from './inputs.js';

/**
 * The order domain's errors as the command-line contract says them: the exit code
 * (cli-contract.md) and a hint naming the flags that help. Anything else passes through.
 */
export function cliErrorOf(err: unknown): unknown {
  if (err instanceof OrderInvalid) return new UsageError(err.message, invalidOrderHint(err));
  if (err instanceof BuildError) return buildUsageError(err);
  if (err instanceof OrderIncomplete) {
    // Not completed: nobody could answer the wizard, so the flags (or a terminal) are the way.
    const hint = err.completed ? undefined : 'give the order with flags, --file or --recipients (see merch orders create --help), or run in a terminal for the wizard';
    return new UsageError(`${err.message}: missing ${missingFlags(err.missing)}`, hint);
  }
  if (err instanceof CsvError) return new UsageError(err.message);
  if (err instanceof ExternalIdTaken) {
    return new CliError(err.message, ExitCode.refused, `check that order (merch orders get ${String(err.orderId)}): if it is this order, stored otherwise by the service, it is placed; if it is another, pass a new --external-id to place this one`);
  }
  if (err instanceof CreatedOrderMissing) {
    return new CliError(err.message, ExitCode.refused, `check that order (merch orders get ${String(err.orderId)}); if it is truly gone, pass a new --external-id to place this order again`);
  }
  if (err instanceof RecordIncomparable) {
    return new CliError(err.message, ExitCode.refused, `nothing was placed; see that order with merch orders get ${String(err.orderId)}, or pass a new --external-id to place this one`);
  }
  if (err instanceof RunInDoubt) {
    const look = err.orderId === undefined ? 'check the account\'s orders (merch orders list)' : `check that order (merch orders get ${String(err.orderId)})`;
    return new CliError(err.message, ExitCode.refused, `${look}; once you know the rows it could not place were not sent, run again with --assume-unsent`);
  }
  if (err instanceof OutcomeUnknown) {
    return new CliError(
      err.message,
      ExitCode.failed,
      `run the same command again to finish it safely: it looks external id ${err.externalId} up before sending anything again`,
    );
  }
  if (err instanceof NoDefaultPaymentMethod) {
    return new UsageError(
      err.message,
      err.methodIds.length === 0 ? 'add one in the service, then run again' : `pass --payment-method (one of: ${err.methodIds.join(', ')})`,
    );
  }
  if (err instanceof PlacingStopped) return new CancelledError(err.message);
  return err;
}

/** Runs `work`, saying the domain's errors in the contract's words. */
export async function inContractWords<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    throw cliErrorOf(err);
  }
}

/**
 * The hint under an invalid order: where an attribute the product needs is given nowhere
 * (no --attr, no column of the recipients list), the flag that gives it (issue 42.2), e.g.
 * `--attr color=VALUE`; a row whose cell of that column is empty is named by its row and
 * column only (issue 19.6c).
 */
function invalidOrderHint(err: OrderInvalid): string {
  const columns = new Set((err.attributeColumns ?? []).map((name) => name.toLowerCase()));
  const names = err.issues.map((issue) => (issue.message.startsWith('is required:') ? /\.attributes\.([^.[\]]+)$/.exec(issue.path)?.[1] : undefined));
  const missing = [...new Set(names)].filter((name): name is string => name !== undefined && !columns.has(name.toLowerCase()));
  if (missing.length === 0) return 'nothing was sent; fix the order and run again';
  const flags = missing.map((name) => `--attr ${name}=VALUE`).join(' ');
  return `nothing was sent; give ${missing.join(' and ')} with ${flags} (or a ${missing.join(' and ')} column in the recipients list, or ${missing.map((name) => `${name}=VALUE`).join(',')} in each --item), then run again`;
}
