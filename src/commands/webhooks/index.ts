import { Option, type Command } from 'commander';
import { EVENT_KINDS } from '../../webhooks/event-kinds.js';
import { action, examples } from '../action.js';
import { addPageFlags, type PageFlags } from '../page-options.js';
import { httpUrl } from '../parse-url.js';
import type { CreateOptions } from './create.js';

export function registerWebhooks(program: Command): void {
  const webhooks = program.command('webhooks').description('webhook subscriptions and events');

  addPageFlags(webhooks.command('list').description("list your account's webhook subscriptions (GET /v1/core/webhooks/)"))
    .addHelpText('after', examples('merch webhooks list', "merch webhooks list --query '[?event==`order.changed`].target'"))
    .action(action<PageFlags>(async (ctx, options) => (await import('./list.js')).run(ctx, options)));

  webhooks
    .command('create')
    .description('subscribe a URL to an event (POST /v1/core/webhooks/)')
    .addOption(new Option('--event <event>', 'the event kind').choices(EVENT_KINDS).makeOptionMandatory())
    .addOption(new Option('--target <url>', 'the http(s) URL the events are POSTed to').argParser(httpUrl).makeOptionMandatory())
    .addHelpText('after', examples('merch webhooks create --event order.changed --target https://example.com/hooks/merch', 'merch webhooks create --event custom_product.created --target http://127.0.0.1:8787/ --json'))
    .action(action<CreateOptions>(async (ctx, options) => (await import('./create.js')).run(ctx, options)));

  webhooks
    .command('delete')
    .description('unsubscribe (DELETE /v1/core/webhooks/{id}/)')
    .argument('<id>', 'subscription id')
    .addHelpText('after', examples('merch webhooks delete 3'))
    .action(action(async (ctx, _options, [id]) => (await import('./delete.js')).run(ctx, id!)));

  // `webhooks listen`, `replay` and `trigger` register here (implementations in this folder).
}
