import { defineCommand } from '../define-command.js';
import { integerId } from '../parse.js';

export const getCommand = defineCommand({
  name: 'get',
  description: 'show one supplier product (GET /v1/supplier-products/{id})',
  declare: (command) => command.argument('<id>', 'supplier product id', integerId),
  examples: ['merch products get 12', 'merch products get 12 --json'],
  run: async (ctx, _options, [id]): Promise<void> => (await import('./get.js')).run(id, { io: ctx.io, format: ctx.format, api: ctx.api() }),
});
