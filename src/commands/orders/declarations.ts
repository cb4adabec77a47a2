import { Option } from '@commander-js/extra-typings';
import { WAIT_STATES } from '../../orders/follow/wait-states.js';
import { TRACK_STATES } from '../../orders/track/track-states.js';
import type { NewCommand } from '../declaration.js';
import { addPageFlags } from '../page-options.js';
import { collect, commaLists, duration, integerId, integerIds, positiveInt, since } from '../parse.js';

// The arguments and flags of the orders commands, declared once (src/commands/declaration.ts).

export function declareList(command: NewCommand) {
  return addPageFlags(command)
    .option('--status <names>', 'only orders with one of these statuses, by name, any case (shipped,delivered; repeatable)', commaLists)
    .option('--since <age|date>', 'only orders created since then: 10m, 24h, 7d, or an ISO 8601 date (2026-11-01)', since);
}

export function declareWait(command: NewCommand) {
  return command
    .argument('<id>', 'order id', integerId)
    .addOption(new Option('--until <state>', 'the state to wait for (shipped and delivered: every shipping order)').choices(WAIT_STATES).makeOptionMandatory())
    .addOption(new Option('--max-wait <duration>', 'give up after this long, exit 6 (90s, 5m, 1h; a plain number is seconds)').argParser(duration({ bare: 's' })).default(30 * 60_000, '30m'))
    .addOption(new Option('--interval <duration>', 'time between polls (backs off on errors, honours Retry-After)').argParser(duration({ bare: 's' })).default(15_000, '15s'));
}

export function declareWatch(command: NewCommand) {
  return command
    .argument('<id>', 'order id', integerId)
    .addOption(new Option('--interval <duration>', 'time between polls (90s, 5m; a plain number is seconds)').argParser(duration({ bare: 's' })).default(15_000, '15s'))
    .option('--events <file>', 'also take changes from the journal of a running `merch webhooks listen`, as they arrive');
}

export function declareTrack(command: NewCommand) {
  return command
    .argument('[ids...]', 'order ids', integerIds)
    .option('--results <file.csv>', 'the orders of a results file of `orders create --results`, each shipment with its row')
    .option('--run <external-id>', 'the orders whose external id is this, or starts with this and - (the batches of a run: -1, -2, ...)')
    .addOption(new Option('--until <state>', 'poll until every shipment is there (exit 6 at --max-wait, 5 if one is cancelled)').choices(TRACK_STATES))
    .addOption(new Option('--max-wait <duration>', 'with --until: give up after this long, exit 6 (default 30m)').argParser(duration({ bare: 's' })))
    .addOption(new Option('--interval <duration>', 'with --until: time between polls (default 15s; backs off on errors, honours Retry-After)').argParser(duration({ bare: 's' })))
    .option('--concurrency <n>', 'orders read at once (default 8)', positiveInt);
}

export function declareCreate(command: NewCommand) {
  return command
    .option('--file <file>', 'the JSON request body of POST /v1/orders/ ("-" for stdin); flags override it')
    .option('--product <id>', 'custom product id of the one line item')
    .option('--quantity <n>', 'its quantity (with --recipients: per recipient, default 1)')
    .option('--attr <name=value>', 'an attribute of the line item, e.g. size=M (repeatable)', collect)
    .option('--item <spec>', "a line item 'product=ID,quantity=N,size=M,color=Navy' (repeatable)", collect)
    .option('--recipient <spec>', "the recipient 'first_name=..,last_name=..,line_1=..,city=..,state=..,postal_code=..,country=..'")
    .option('--recipients <file.csv>', 'many recipients: a CSV, one row a recipient (columns: see docs/orders.md)')
    .option('--billing <spec>', 'billing address, in the --recipient form (default: the account default)')
    .option('--payment-method <id>', "payment method id (default: the account's default)")
    .option('--external-id <id>', 'your unique reference for the order, or the run of a --recipients list (default: derived from the order or the list, so a rerun sends the same)')
    .option('--dry-run', 'show the priced plan and the exact JSON body (with --json: {request, plan}), send nothing')
    .option('--batch-size <n>', 'with --recipients: orders of at most N recipients each, external ids <run id>-1, -2, ...; only rows no order of the run holds are sent', positiveInt)
    .option('--concurrency <n>', 'with --batch-size: batches sent at once (default 1)', positiveInt)
    .option('--results <file.csv>', 'with --recipients: a CSV with one line per recipient row (order, shipping order, status created|existing|refused, error)')
    .option('--assume-unsent', 'with --recipients: send the rows merch cannot show are in no earlier order of the run (only after you have checked them)');
}
