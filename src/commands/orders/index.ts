import type { MerchProgram } from '../program.js';
import { action, examples } from '../action.js';
import { addPageFlags } from '../page-options.js';
import { registerOrdersCreate } from './create/register.js';

export function registerOrders(program: MerchProgram): void {
  const orders = program.command('orders').description("orders: your account's purchases");

  addPageFlags(orders.command('list').description('list your orders (GET /v1/orders)'))
    .addHelpText('after', examples('merch orders list', 'merch orders list --all --jsonl > orders.jsonl', "merch orders list --query '[?payment_status.id==`paid`].id'"))
    .action(action(async (ctx, options) => (await import('./list.js')).run(ctx, options)));

  orders
    .command('get')
    .description('show one order: line items, shipping orders, statuses and totals (GET /v1/orders/{id})')
    .argument('<id>', 'order id')
    .addHelpText('after', examples('merch orders get 1001', "merch orders get 1001 --query 'shipping_orders[].tracking_number'"))
    .action(action(async (ctx, _options, [id]) => (await import('./get.js')).run(ctx, id!)));

  registerOrdersCreate(orders);
}
