import { Option } from '@commander-js/extra-typings';
import { EVENT_KINDS } from '../../contract/event-kinds.js';
import { defineCommand } from '../define-command.js';
import { exclusive, requires } from '../flag-rules.js';
import { JOURNAL_ALIAS, journalAlias } from '../journal-flag.js';
import { httpUrl } from '../parse-url.js';
import { collect, completing, listenPort } from '../parse.js';

export const listenCommand = defineCommand({
  name: 'listen',
  description: 'receive webhook deliveries locally: save each to a journal, print it, forward it',
  declare: (command) =>
    command
      .option('--port <n>', 'port to listen on (0: any free port)', listenPort, 8787)
      .option('--host <host>', 'address to bind', '127.0.0.1')
      .option('--path <path>', 'URL path that receives deliveries', '/')
      .option('--events <list>', `comma list of event kinds to accept: ${EVENT_KINDS.join(', ')} (default: all)`, completing(EVENT_KINDS, (value: string) => value))
      .option('--forward-to <url>', 'relay every event to URL, or EVENT=URL one event kind (repeatable)', collect)
      .option('--journal <file>', 'the event journal to append to (default: <config dir>/events.jsonl)')
      // The name of earlier versions (issue 42.5): works for a release, with a line on stderr.
      .addOption(new Option('--save <file>', JOURNAL_ALIAS).hideHelp())
      .option('--subscribe', 'create one subscription per event, deleted on exit')
      .addOption(new Option('--public-url <url>', 'with --subscribe: the URL the service posts to, e.g. a tunnel (default: the listener URL)').argParser(httpUrl))
      .option('--secret-stdin', 'read the secret deliveries must carry (?token=) from stdin (or set MERCH_WEBHOOK_SECRET)')
      // Refused with a line saying where the secret goes: a flag's value is seen by `ps`.
      .addOption(new Option('--secret <token>').hideHelp())
      .option(
        '--no-secret',
        'accept deliveries without ?token= (by default one is made up): only for a sender that cannot keep a query string in its URL; anything that reaches the port can then post events (refused with --public-url)',
      )
      .option('--print-target', 'print the URL to subscribe with, its ?token= included, as the first line of stdout')
      .option('--refetch', 're-read each resource through the API before printing it (deliveries are unsigned)'),
  rules: [
    requires('--public-url', '--subscribe', {
      message: '--public-url is the URL the subscriptions of --subscribe point at: pass --subscribe too',
      hint: 'or subscribe that URL yourself: merch webhooks create --event EVENT --target URL',
    }),
    exclusive('--no-secret', '--public-url', {
      message: '--no-secret with --public-url: anyone who learns that public URL could post forged events (an order "Delivered") and be believed',
      hint: 'drop --no-secret: --subscribe puts the secret in the target it subscribes, and the service posts to that target as given',
    }),
    exclusive('--no-secret', '--secret-stdin', { message: '--no-secret and --secret-stdin contradict each other: pass one of them' }),
  ],
  deprecated: [journalAlias('--save')],
  examples: [
    'merch webhooks listen --subscribe',
    'merch webhooks listen --events order.changed,shipping_order.changed --forward-to http://127.0.0.1:3000/hooks',
    'merch webhooks listen --forward-to order.changed=http://127.0.0.1:3000/orders --forward-to http://127.0.0.1:4000/all',
    'MERCH_WEBHOOK_SECRET="$SECRET" merch webhooks listen --print-target --subscribe --public-url https://abc.trycloudflare.com/',
  ],
  seeAlso: 'See docs/webhooks.md.',
  run: async (ctx, options): Promise<void> => (await import('./listen.js')).run(options, ctx),
});
