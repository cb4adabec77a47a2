import type { MerchProgram } from '../program.js';
import { action, examples } from '../action.js';
import { integerId } from '../parse.js';
import { registerOrdersCreate } from './create/register.js';
import { declareList, declareTrack, declareWait, declareWatch } from './declarations.js';

export function registerOrders(program: MerchProgram): void {
  const orders = program.command('orders').description("orders: your account's purchases");

  declareList(orders.command('list').description('list your orders (GET /v1/orders)'))
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
    .action(action(async (ctx, _options, [id]) => (await import('./get.js')).run(ctx, id)));

  declareWait(orders.command('wait').description('wait until an order is in production, shipped or delivered, then show it (polls GET /v1/orders/{id})'))
    .addHelpText(
      'after',
      examples('merch orders wait 1001 --until shipped', 'merch orders wait 1001 --until in-production --max-wait 2h --interval 1m && ./next-step.sh', 'merch orders wait 1001 --until delivered --json --query \'shipping_orders[].tracking_number\''),
    )
    .action(action(async (ctx, options, [id]) => (await import('./wait.js')).run(ctx, id, options)));

  declareWatch(orders.command('watch').description('follow an order and its shipments (status, tracking) until every shipment is delivered or Ctrl-C'))
    .addHelpText('after', examples('merch orders watch 1001', 'merch orders watch 1001 --events ~/.config/merch/events.jsonl', 'merch orders watch 1001 | jq -r .status'))
    .action(action(async (ctx, options, [id]) => (await import('./watch.js')).run(ctx, id, options)));

  declareTrack(orders.command('track').description('every shipment of a send, one record per recipient: status, tracking number and URL, ship date (polls GET /v1/orders/{id})'))
    .addHelpText(
      'after',
      examples(
        'merch orders track --results results.csv',
        'merch orders track --run guests-2026 --until delivered --max-wait 72h --interval 10m',
        'merch orders track 1001 1002 --format csv > shipments.csv',
        "merch orders track --results results.csv --query '[?status!=`Delivered`].email'",
      ),
    )
    .action(action(async (ctx, options, [ids]) => (await import('./track.js')).run(ctx, ids, options)));

  registerOrdersCreate(orders);
}
