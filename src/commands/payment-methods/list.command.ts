import { defineCommand } from '../define-command.js';

export const listCommand = defineCommand({
  name: 'list',
  description: 'list payment methods, cards and US bank accounts in one table (GET /v1/payment-methods/)',
  examples: ['merch payment-methods list', "merch payment-methods list --query '[?is_default].id | [0]'"],
  run: async (ctx): Promise<void> => (await import('./list.js')).run({ io: ctx.io, format: ctx.format, api: ctx.api() }),
});
