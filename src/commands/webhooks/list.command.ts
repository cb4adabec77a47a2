import { defineCommand } from '../define-command.js';
import { addPageFlags } from '../page-options.js';

export const listCommand = defineCommand({
  name: 'list',
  description: "list your account's webhook subscriptions (GET /v1/core/webhooks/)",
  declare: (command) => addPageFlags(command),
  examples: ['merch webhooks list', "merch webhooks list --query '[?event==`order.changed`].target'"],
  run: async (ctx, options): Promise<void> => (await import('./list.js')).run(options, { io: ctx.io, format: ctx.format, api: ctx.api() }),
});
