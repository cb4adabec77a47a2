import { defineCommand } from '../define-command.js';
import { integerId } from '../parse.js';

export const getCommand = defineCommand({
  name: 'get',
  description: 'show one custom product (GET /v1/custom-products/{id})',
  declare: (command) => command.argument('<id>', 'custom product id', integerId),
  examples: ['merch custom-products get 100001', "merch custom-products get 100001 --query 'available_attributes.colors[].name'"],
  run: async (ctx, _options, [id]): Promise<void> => (await import('./get.js')).run(id, { io: ctx.io, format: ctx.format, api: ctx.api() }),
});
