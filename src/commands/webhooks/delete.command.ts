import { defineCommand } from '../define-command.js';
import { integerId } from '../parse.js';

export const deleteCommand = defineCommand({
  name: 'delete',
  description: 'unsubscribe (DELETE /v1/core/webhooks/{id}/)',
  declare: (command) => command.argument('<id>', 'subscription id', integerId),
  examples: ['merch webhooks delete 1'],
  run: async (ctx, _options, [id]): Promise<void> => (await import('./delete.js')).run(id, { io: ctx.io, format: ctx.format, api: ctx.api() }),
});
