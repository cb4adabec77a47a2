import { Option } from '@commander-js/extra-typings';
import { EVENT_KINDS } from '../../contract/event-kinds.js';
import { defineCommand } from '../define-command.js';
import { httpUrl } from '../parse-url.js';

export const createCommand = defineCommand({
  name: 'create',
  description: 'subscribe a URL to an event (POST /v1/core/webhooks/)',
  declare: (command) =>
    command
      .addOption(new Option('--event <event>', 'the event kind').choices(EVENT_KINDS).makeOptionMandatory())
      .addOption(new Option('--target <url>', 'the http(s) URL the events are POSTed to').argParser(httpUrl).makeOptionMandatory()),
  examples: ['merch webhooks create --event order.changed --target https://example.com/hooks/merch', 'merch webhooks create --event custom_product.created --target http://127.0.0.1:8787/ --json'],
  run: async (ctx, options): Promise<void> => (await import('./create.js')).run(options, { io: ctx.io, format: ctx.format, api: ctx.api() }),
});
