import { defineCommand } from '../define-command.js';
import { addPageFlags } from '../page-options.js';
import { commaLists, since } from '../parse.js';

export const listCommand = defineCommand({
  name: 'list',
  description: 'list your orders (GET /v1/orders)',
  declare: (command) =>
    addPageFlags(command)
      .option('--status <names>', 'only orders with one of these statuses, by name, any case (shipped,delivered; repeatable)', commaLists)
      .option('--since <age|date>', 'only orders created since then: 10m, 24h, 7d, or an ISO 8601 date (2026-11-01)', since),
  examples: ['merch orders list', 'merch orders list --status in-production --since 7d --all', 'merch orders list --all --jsonl > orders.jsonl', "merch orders list --query '[?payment_status.id==`paid`].id'"],
  run: async (ctx, options): Promise<void> => (await import('./list.js')).run(options, { io: ctx.io, format: ctx.format, api: ctx.api() }),
});
