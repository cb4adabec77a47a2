import { defineCommand } from '../define-command.js';
import { exclusive, requires } from '../flag-rules.js';
import { collect, positiveInt } from '../parse.js';

/** `merch orders create`: its implementation is the folder create/ (create/command.ts runs it). */
export const createCommand = defineCommand({
  name: 'create',
  description: 'create an order (POST /v1/orders/): from flags, a JSON file, a recipients CSV, or a wizard',
  declare: (command) =>
    command
      .option('--file <file>', 'the JSON request body of POST /v1/orders/ ("-" for stdin); flags override it')
      .option('--product <id>', 'custom product id of the one line item')
      .option('--quantity <n>', 'its quantity: per recipient with --recipients or --recipient (default: 1)')
      .option('--attr <name=value>', 'an attribute of the line item, e.g. size=M (repeatable)', collect)
      .option('--item <spec>', "a line item 'product=ID,quantity=N,size=M,color=Navy' (repeatable)", collect)
      .option('--recipient <spec>', "the recipient 'first_name=..,last_name=..,line_1=..,city=..,state=..,postal_code=..,country=..'")
      .option('--recipients <file.csv>', 'many recipients: a CSV, one row a recipient (columns: see docs/orders.md)')
      .option('--billing <spec>', 'billing address, in the --recipient form (default: the account default)')
      .option('--payment-method <id>', "payment method id (default: the account's default)")
      .option('--external-id <id>', 'your unique reference for the order, or the run of a --recipients list (default: derived from the order or the list, so a rerun sends the same)')
      .option('--dry-run', 'show the priced plan and the exact JSON body (with --json: {request, plan}), send nothing')
      .option('--batch-size <n>', 'with --recipients: orders of at most N recipients each, external ids <run id>-1, -2, ...; only rows no earlier order holds are sent', positiveInt)
      .option('--concurrency <n>', 'with --batch-size: batches sent at once (default: 1)', positiveInt)
      .option('--results <file.csv>', 'with --recipients: a CSV with one line per recipient row (order, shipping order, status created|existing|refused, error); a new file, owner-only')
      .option('--force', 'with --results: replace that file if it exists (without, an existing file is refused)')
      .option('--assume-unsent', 'send the order (or the rows of --recipients) that merch cannot show is in no earlier order (only after you have checked)'),
  rules: [
    requires('--batch-size', '--recipients', { message: '--batch-size needs --recipients (a CSV to split into orders)' }),
    requires('--results', '--recipients', { message: '--results needs --recipients (one line per recipient row)' }),
    requires('--concurrency', '--batch-size', { message: '--concurrency needs --batch-size' }),
    requires('--force', '--results', { message: '--force needs --results (it lets merch replace that file)' }),
    exclusive('--recipient', '--recipients', { message: '--recipient and --recipients cannot be used together' }),
  ],
  examples: [
    "merch orders create --product 100003 --quantity 2 --attr color=Black --attr 'size=3 in' --recipient 'first_name=Ann,last_name=Lee,line_1=\"1 Main St, Apt 2\",city=Austin,state=TX,postal_code=78701,country=US' --yes",
    'merch orders create --product 100003 --attr color=Black --recipients staff.csv --dry-run',
    'merch orders create --file order.json --payment-method pm_7Ta137nwlfsFkPCTD5QqTqZl --yes',
    'merch orders create --product 100003 --attr color=Black --recipients guests.csv --batch-size 500 --results results.csv --yes',
    'merch orders create            # a wizard, in a terminal',
  ],
  run: async (ctx, options): Promise<void> => (await import('./create/command.js')).run(ctx, options),
});
