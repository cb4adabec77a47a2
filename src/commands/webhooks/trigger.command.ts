import { Argument } from '@commander-js/extra-typings';
import { EVENT_KINDS } from '../../contract/event-kinds.js';
import { defineCommand } from '../define-command.js';
import { exclusive } from '../flag-rules.js';
import { positiveInt } from '../parse.js';

export const triggerCommand = defineCommand({
  name: 'trigger',
  description: 'sandbox only: make the sandbox emit an event (POST /_sandbox/events)',
  declare: (command) =>
    command
      .addArgument(new Argument('<event>', 'the event kind').choices(EVENT_KINDS))
      .option('--order <id>', 'the order (order.* events) or the order whose shipping orders (shipping_order.* events)', positiveInt)
      .option('--id <id>', 'the resource id (default: the newest)', positiveInt),
  rules: [exclusive('--order', '--id')],
  examples: ['merch webhooks trigger order.changed', 'merch webhooks trigger shipping_order.changed --order 1001'],
  run: async (ctx, options, [event]): Promise<void> => (await import('./trigger.js')).run(event, options, { io: ctx.io, format: ctx.format, api: ctx.api, baseUrl: ctx.settings.baseUrl }),
});
