import { Argument, Option } from '@commander-js/extra-typings';
import type { MerchProgram } from '../program.js';
import { EVENT_KINDS } from '../../contract/event-kinds.js';
import { action, examples } from '../action.js';
import { addPageFlags } from '../page-options.js';
import { httpUrl } from '../parse-url.js';
import { collect, completing, integerId, listenPort, positiveInt } from '../parse.js';

export function registerWebhooks(program: MerchProgram): void {
  const webhooks = program.command('webhooks').description('webhook subscriptions and events');

  addPageFlags(webhooks.command('list').description("list your account's webhook subscriptions (GET /v1/core/webhooks/)"))
    .addHelpText('after', examples('merch webhooks list', "merch webhooks list --query '[?event==`order.changed`].target'"))
    .action(action(async (ctx, options) => (await import('./list.js')).run(ctx, options)));

  webhooks
    .command('create')
    .description('subscribe a URL to an event (POST /v1/core/webhooks/)')
    .addOption(new Option('--event <event>', 'the event kind').choices(EVENT_KINDS).makeOptionMandatory())
    .addOption(new Option('--target <url>', 'the http(s) URL the events are POSTed to').argParser(httpUrl).makeOptionMandatory())
    .addHelpText('after', examples('merch webhooks create --event order.changed --target https://example.com/hooks/merch', 'merch webhooks create --event custom_product.created --target http://127.0.0.1:8787/ --json'))
    .action(action(async (ctx, options) => (await import('./create.js')).run(ctx, options)));

  webhooks
    .command('delete')
    .description('unsubscribe (DELETE /v1/core/webhooks/{id}/)')
    .argument('<id>', 'subscription id', integerId)
    .addHelpText('after', examples('merch webhooks delete 1'))
    .action(action(async (ctx, _options, [id]) => (await import('./delete.js')).run(ctx, id!)));

  webhooks
    .command('listen')
    .description('receive webhook deliveries locally: save each to a journal, print it, forward it')
    .option('--port <n>', 'port to listen on (0: any free port)', listenPort, 8787)
    .option('--host <host>', 'address to bind', '127.0.0.1')
    .option('--path <path>', 'URL path that receives deliveries', '/')
    .option('--events <list>', `comma list of event kinds to accept (default all: ${EVENT_KINDS.join(', ')})`, completing(EVENT_KINDS, (value: string) => value))
    .option('--forward-to <url>', 'relay every event to URL, or EVENT=URL one event kind (repeatable)', collect)
    .option('--save <file>', 'event journal (default <config dir>/events.jsonl)')
    .option('--subscribe', 'create one subscription per event, deleted on exit')
    .addOption(new Option('--public-url <url>', 'with --subscribe: the URL the service posts to (e.g. a tunnel); default the listener URL').argParser(httpUrl))
    .option('--secret <token>', 'accept only deliveries whose URL carries ?token=TOKEN')
    .option('--print-target', 'print the URL to subscribe with (with ?token=) as the first line of stdout')
    .option('--refetch', 're-read each resource through the API before printing it (deliveries are unsigned)')
    .addHelpText(
      'after',
      examples(
        'merch webhooks listen --subscribe',
        'merch webhooks listen --events order.changed,shipping_order.changed --forward-to http://127.0.0.1:3000/hooks',
        'merch webhooks listen --forward-to order.changed=http://127.0.0.1:3000/orders --forward-to http://127.0.0.1:4000/all',
        'merch webhooks listen --secret "$SECRET" --print-target --subscribe --public-url https://abc.trycloudflare.com/',
      ) + '\nSee docs/webhooks.md.\n',
    )
    .action(action(async (ctx, options) => (await import('./listen.js')).run(ctx, options)));

  webhooks
    .command('replay')
    .description('resend saved events, once each, in order')
    .option('--from <file>', 'journal to read (default <config dir>/events.jsonl)')
    .option('--id <n>', 'only the event with this journal id', positiveInt)
    .addOption(new Option('--to <url>', 'send here instead of the targets each event was forwarded to').argParser(httpUrl))
    .addHelpText('after', examples('merch webhooks replay --to http://127.0.0.1:3000/hooks', 'merch webhooks replay --id 7 --to http://127.0.0.1:3000/hooks'))
    .action(action(async (ctx, options) => (await import('./replay.js')).run(ctx, options)));

  webhooks
    .command('trigger')
    .description('sandbox only: make the sandbox emit an event (POST /_sandbox/events)')
    .addArgument(new Argument('<event>', 'the event kind').choices(EVENT_KINDS))
    .option('--order <id>', 'the order (order.* events) or the order whose shipping orders (shipping_order.* events)', positiveInt)
    .option('--id <id>', 'the resource id (default the newest)', positiveInt)
    .addHelpText('after', examples('merch webhooks trigger order.changed', 'merch webhooks trigger shipping_order.changed --order 1001'))
    .action(
      action(async (ctx, options, [event]) => (await import('./trigger.js')).run(ctx, event, options)),
    );
}
