import { Option } from '@commander-js/extra-typings';
import type { MerchProgram } from '../program.js';
import { action, examples } from '../action.js';
import { WAIT_STATES } from '../../orders/follow/wait-states.js';
import { TRACK_STATES } from '../../orders/track/track-states.js';
import { commaLists, duration, integerId, integerIds, positiveInt, since } from '../parse.js';
import { addPageFlags } from '../page-options.js';
import { registerOrdersCreate } from './create/register.js';

export function registerOrders(program: MerchProgram): void {
  const orders = program.command('orders').description("orders: your account's purchases");

  addPageFlags(orders.command('list').description('list your orders (GET /v1/orders)'))
    .option('--status <names>', 'only orders with one of these statuses, by name, any case (shipped,delivered; repeatable)', commaLists)
    .option('--since <age|date>', 'only orders created since then: 10m, 24h, 7d, or an ISO 8601 date (2026-11-01)', since)
    .addHelpText(
      'after',
      examples('merch orders list', 'merch orders list --status in-production --since 7d --all', 'merch orders list --all --jsonl > orders.jsonl', "merch orders list --query '[?payment_status.id==`paid`].id'"),
    )
    .action(action(async (ctx, options) => (await import('./list.js')).run(ctx, options)));

  orders
    .command('get')
    .description('show one order: line items, shipping orders, statuses and totals (GET /v1/orders/{id})')
    .argument('<id>', 'order id', integerId)
    .addHelpText('after', examples('merch orders get 1001', "merch orders get 1001 --query 'shipping_orders[].tracking_number'"))
    .action(action(async (ctx, _options, [id]) => (await import('./get.js')).run(ctx, id!)));

  orders
    .command('wait')
    .description('wait until an order is in production, shipped or delivered, then show it (polls GET /v1/orders/{id})')
    .argument('<id>', 'order id', integerId)
    .addOption(new Option('--until <state>', 'the state to wait for (shipped and delivered: every shipping order)').choices(WAIT_STATES).makeOptionMandatory())
    .addOption(new Option('--max-wait <duration>', 'give up after this long, exit 6 (90s, 5m, 1h; a plain number is seconds)').argParser(duration({ bare: 's' })).default(30 * 60_000, '30m'))
    .addOption(new Option('--interval <duration>', 'time between polls (backs off on errors, honours Retry-After)').argParser(duration({ bare: 's' })).default(15_000, '15s'))
    .addHelpText(
      'after',
      examples('merch orders wait 1001 --until shipped', 'merch orders wait 1001 --until in-production --max-wait 2h --interval 1m && ./next-step.sh', 'merch orders wait 1001 --until delivered --json --query \'shipping_orders[].tracking_number\''),
    )
    .action(action(async (ctx, options, [id]) => (await import('./wait.js')).run(ctx, id, options)));

  orders
    .command('watch')
    .description('follow an order and its shipments (status, tracking) until every shipment is delivered or Ctrl-C')
    .argument('<id>', 'order id', integerId)
    .addOption(new Option('--interval <duration>', 'time between polls (90s, 5m; a plain number is seconds)').argParser(duration({ bare: 's' })).default(15_000, '15s'))
    .option('--events <file>', 'also take changes from the journal of a running `merch webhooks listen`, as they arrive')
    .addHelpText('after', examples('merch orders watch 1001', 'merch orders watch 1001 --events ~/.config/merch/events.jsonl', 'merch orders watch 1001 | jq -r .status'))
    .action(action(async (ctx, options, [id]) => (await import('./watch.js')).run(ctx, id, options)));

  orders
    .command('track')
    .description('every shipment of a send, one record per recipient: status, tracking number and URL, ship date (polls GET /v1/orders/{id})')
    .argument('[ids...]', 'order ids', integerIds)
    .option('--results <file.csv>', 'the orders of a results file of `orders create --results`, each shipment with its row')
    .option('--run <external-id>', 'the orders whose external id is this, or starts with this and - (the batches of a run: -1, -2, ...)')
    .addOption(new Option('--until <state>', 'poll until every shipment is there (exit 6 at --max-wait, 5 if one is cancelled)').choices(TRACK_STATES))
    .addOption(new Option('--max-wait <duration>', 'with --until: give up after this long, exit 6 (default 30m)').argParser(duration({ bare: 's' })))
    .addOption(new Option('--interval <duration>', 'with --until: time between polls (default 15s; backs off on errors, honours Retry-After)').argParser(duration({ bare: 's' })))
    .option('--concurrency <n>', 'orders read at once (default 8)', positiveInt)
    .addHelpText(
      'after',
      examples(
        'merch orders track --results results.csv',
        'merch orders track --run guests-2026 --until delivered --max-wait 72h --interval 10m',
        'merch orders track 1001 1002 --format csv > shipments.csv',
        "merch orders track --results results.csv --query '[?status!=`Delivered`].email'",
      ),
    )
    .action(action(async (ctx, options, [ids]) => (await import('./track.js')).run(ctx, ids ?? [], options)));

  registerOrdersCreate(orders);
}
