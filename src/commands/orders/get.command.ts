import { defineCommand } from '../define-command.js';
import { integerId } from '../parse.js';

export const getCommand = defineCommand({
  name: 'get',
  description: 'show one order: line items, shipping orders, statuses and totals (GET /v1/orders/{id})',
  declare: (command) => command.argument('<id>', 'order id', integerId),
  examples: ['merch orders get 1001', "merch orders get 1001 --query 'shipping_orders[].tracking_number'"],
  run: async (ctx, _options, [id]): Promise<void> => (await import('./get.js')).run(id, { io: ctx.io, format: ctx.format, api: ctx.api() }),
});
