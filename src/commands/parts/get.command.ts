import { defineCommand } from '../define-command.js';
import { integerId } from '../parse.js';
import { EXPANSIONS, expansions } from './expansions.js';

export const getCommand = defineCommand({
  name: 'get',
  description: 'show one part of a product (GET /v1/products/{id}/parts/{part_id})',
  declare: (command) =>
    command
      .argument('<product_id>', 'product id', integerId)
      .argument('<part_id>', 'part id', integerId)
      .option('--expand <list>', `add ${EXPANSIONS.join(', ')}, comma-separated`, expansions),
  examples: ['merch parts get 12 1201', 'merch parts get 12 1201 --expand imprint_areas --json'],
  run: async (ctx, options, [productId, partId]): Promise<void> => (await import('./get.js')).run(productId, partId, options, { io: ctx.io, format: ctx.format, api: ctx.api() }),
});
