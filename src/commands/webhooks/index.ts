import type { MerchProgram } from '../program.js';
import { action, examples } from '../action.js';
import { integerId } from '../parse.js';
import { declareCreate, declareList, declareListen, declareReplay, declareTrigger } from './declarations.js';

export function registerWebhooks(program: MerchProgram): void {
  const webhooks = program.command('webhooks').description('webhook subscriptions and events');

  declareList(webhooks.command('list').description("list your account's webhook subscriptions (GET /v1/core/webhooks/)"))
    .addHelpText('after', examples('merch webhooks list', "merch webhooks list --query '[?event==`order.changed`].target'"))
    .action(action(async (ctx, options) => (await import('./list.js')).run(ctx, options)));

  declareCreate(webhooks.command('create').description('subscribe a URL to an event (POST /v1/core/webhooks/)'))
    .addHelpText('after', examples('merch webhooks create --event order.changed --target https://example.com/hooks/merch', 'merch webhooks create --event custom_product.created --target http://127.0.0.1:8787/ --json'))
    .action(action(async (ctx, options) => (await import('./create.js')).run(ctx, options)));

  webhooks
    .command('delete')
    .description('unsubscribe (DELETE /v1/core/webhooks/{id}/)')
    .argument('<id>', 'subscription id', integerId)
    .addHelpText('after', examples('merch webhooks delete 1'))
    .action(action(async (ctx, _options, [id]) => (await import('./delete.js')).run(ctx, id)));

  declareListen(webhooks.command('listen').description('receive webhook deliveries locally: save each to a journal, print it, forward it'))
    .addHelpText(
      'after',
      examples(
        'merch webhooks listen --subscribe',
        'merch webhooks listen --events order.changed,shipping_order.changed --forward-to http://127.0.0.1:3000/hooks',
        'merch webhooks listen --forward-to order.changed=http://127.0.0.1:3000/orders --forward-to http://127.0.0.1:4000/all',
        'MERCH_WEBHOOK_SECRET="$SECRET" merch webhooks listen --print-target --subscribe --public-url https://abc.trycloudflare.com/',
      ) + '\nSee docs/webhooks.md.\n',
    )
    .action(action(async (ctx, options) => (await import('./listen.js')).run(ctx, options)));

  declareReplay(webhooks.command('replay').description('resend saved events, once each, in order'))
    .addHelpText('after', examples('merch webhooks replay --to http://127.0.0.1:3000/hooks', 'merch webhooks replay --id 7 --to http://127.0.0.1:3000/hooks'))
    .action(action(async (ctx, options) => (await import('./replay.js')).run(ctx, options)));

  declareTrigger(webhooks.command('trigger').description('sandbox only: make the sandbox emit an event (POST /_sandbox/events)'))
    .addHelpText('after', examples('merch webhooks trigger order.changed', 'merch webhooks trigger shipping_order.changed --order 1001'))
    .action(action(async (ctx, options, [event]) => (await import('./trigger.js')).run(ctx, event, options)));
}
